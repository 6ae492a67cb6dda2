import type { AppContext } from '../context.js';
import type { MessageEditTable, Realm, Stream, Subscription, User } from '../db/schema.js';
import { avatarPath } from './avatar-paths.js';
import { mayReadDeliveryEmail } from './email-visibility.js';
import { flagsToList } from './flags.js';
import { isAdmin, isGuest, isOwner, ROLE } from './roles.js';
import { inContentFormat } from './content-format.js';
import { serviceDicts, type BotService } from './bot-services.js';
import type {
  Stream as WireStream,
  Subscription as WireSubscription,
} from '../../src/api/model/stream.js';
import type { ProfileValue, Role, User as WireUser } from '../../src/api/model/user.js';
import type { EditHistoryEntry } from '../../src/api/model/message.js';

/** A person's avatar, uploaded or drawn, at its unguessable public path (avatar-paths.ts). */
export const avatarUrl = (
  ctx: AppContext,
  user: Pick<User, 'id' | 'realm_id' | 'avatar_version'>,
) => ctx.config.externalUrl + avatarPath(ctx.keys, user.realm_id, user.id, user.avatar_version);

/** A user as GET /users and realm_users present it to `viewer`. */
export function userToApi(
  ctx: AppContext,
  user: User,
  viewer: User | null,
  profileData?: Record<string, ProfileValue>,
): WireUser {
  const out: WireUser = {
    user_id: user.id,
    email: user.email,
    delivery_email: mayReadDeliveryEmail(viewer, user) ? user.delivery_email : null,
    full_name: user.full_name,
    date_joined: new Date(user.date_joined * 1000).toISOString(),
    is_active: !!user.is_active,
    is_owner: isOwner(user),
    is_admin: isAdmin(user),
    is_guest: isGuest(user),
    is_billing_admin: false,
    is_bot: !!user.is_bot,
    // the column holds only the API's role values
    role: user.role as Role,
    timezone: user.timezone,
    avatar_url: avatarUrl(ctx, user),
    avatar_version: user.avatar_version,
  };
  if (user.is_bot) {
    out.bot_type = user.bot_type;
    out.bot_owner_id = user.bot_owner_id;
  } else if (profileData) {
    out.profile_data = profileData;
  }
  return out;
}

/** A bot as `realm_bots` and `realm_bot` events describe it to its owner and administrators. */
export function botToApi(ctx: AppContext, bot: User, service?: BotService) {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    email: bot.email,
    avatar_url: avatarUrl(ctx, bot),
    bot_type: bot.bot_type,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    owner_id: bot.bot_owner_id,
    is_active: !!bot.is_active,
    services: serviceDicts(bot, service),
  };
}

export function roleFlags(user: User) {
  return {
    is_admin: isAdmin(user),
    is_owner: isOwner(user),
    is_moderator: user.role === ROLE.MODERATOR,
    is_guest: isGuest(user),
    is_billing_admin: false,
  };
}

export function streamToApi(
  stream: Stream,
  extra: { firstMessageId: number | null; isDefault?: boolean; weeklyTraffic?: number | null },
): WireStream {
  const out: WireStream = {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: !!stream.invite_only,
    is_web_public: !!stream.is_web_public,
    stream_post_policy: stream.stream_post_policy,
    is_announcement_only: stream.stream_post_policy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: !!stream.history_public_to_subscribers,
    first_message_id: extra.firstMessageId,
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
    stream_weekly_traffic: extra.weeklyTraffic ?? null,
    is_archived: !!stream.deactivated,
  };
  if (extra.isDefault !== undefined) out.is_default = extra.isDefault;
  return out;
}

export function subscriptionToApi(
  stream: Stream,
  sub: Subscription,
  extra: { firstMessageId: number | null; subscribers?: number[]; weeklyTraffic?: number | null },
): WireSubscription {
  const nullableBool = (v: 0 | 1 | null) => (v === null ? null : !!v);
  const out: WireSubscription = {
    ...streamToApi(stream, extra),
    color: sub.color,
    is_muted: !!sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: !!sub.pin_to_top,
    desktop_notifications: nullableBool(sub.desktop_notifications),
    audible_notifications: nullableBool(sub.audible_notifications),
    push_notifications: nullableBool(sub.push_notifications),
    email_notifications: nullableBool(sub.email_notifications),
    wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
    email_address: '',
  };
  if (extra.subscribers) out.subscribers = extra.subscribers;
  return out;
}

export interface DisplayUser {
  id: number;
  email: string;
  full_name: string;
}

/** What message records and events are built from, before per-user content choices. */
export interface MessageRecordInput {
  id: number;
  sender: Pick<User, 'id' | 'email' | 'full_name' | 'avatar_version'>;
  type: string;
  stream?: Pick<Stream, 'id' | 'name'> | null;
  topic: string;
  dmUsers: DisplayUser[];
  content: string;
  rendered_content: string;
  date_sent: number;
  last_edit_time: number | null;
  sending_client: string;
  realm: Realm;
  reactions?: unknown[];
  submessages?: unknown[];
  /** newest first; left out when the organization hides edit history or there is none */
  edit_history?: EditHistoryEntry[];
}

/** Stable numeric ids for conversations: streams and DM groups (clients only compare them). */
export function recipientId(m: {
  type: string;
  stream_id?: number | null;
  dm_key?: string | null;
}): number {
  if (m.type === 'stream') return m.stream_id!;
  let h = 0;
  for (const ch of m.dm_key ?? '') h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 1_000_000_000 + (h % 1_000_000_000);
}

export function messageRecord(ctx: AppContext, m: MessageRecordInput) {
  const isStream = m.type === 'stream';
  const out: Record<string, unknown> = {
    id: m.id,
    sender_id: m.sender.id,
    sender_full_name: m.sender.full_name,
    sender_email: m.sender.email,
    sender_realm_str: m.realm.string_id,
    avatar_url: avatarUrl(ctx, {
      id: m.sender.id,
      realm_id: m.realm.id,
      avatar_version: m.sender.avatar_version,
    }),
    type: isStream ? 'stream' : 'private',
    recipient_id: recipientId({
      type: m.type,
      stream_id: m.stream?.id,
      dm_key: m.dmUsers
        .map((u) => u.id)
        .sort((a, b) => a - b)
        .join(','),
    }),
    display_recipient: isStream
      ? m.stream!.name
      : m.dmUsers.map((u) => ({
          id: u.id,
          email: u.email,
          full_name: u.full_name,
          is_mirror_dummy: false,
        })),
    subject: isStream ? m.topic : '',
    topic_links: [],
    timestamp: m.date_sent,
    client: m.sending_client,
    // upstream Message.is_status_message: "/me loves chocolate" reads "Full Name loves chocolate".
    is_me_message: m.content.startsWith('/me '),
    reactions: m.reactions ?? [],
    submessages: m.submessages ?? [],
    raw_content: m.content,
    rendered_content: m.rendered_content,
  };
  if (isStream) out.stream_id = m.stream!.id;
  if (m.last_edit_time) out.last_edit_timestamp = m.last_edit_time;
  if (m.edit_history?.length) out.edit_history = m.edit_history;
  return out;
}

/** One row of `message_edits` as a message's `edit_history` lists it: only what changed. */
export function editHistoryEntry(row: Omit<MessageEditTable, 'id'>): EditHistoryEntry {
  const entry: EditHistoryEntry = { user_id: row.user_id, timestamp: row.timestamp };
  if (row.prev_content !== null) {
    entry.prev_content = row.prev_content;
    entry.prev_rendered_content = row.prev_rendered_content ?? '';
  }
  if (row.prev_topic !== null) {
    entry.prev_topic = row.prev_topic;
    if (row.topic !== null) entry.topic = row.topic;
  }
  if (row.prev_stream_id !== null) {
    entry.prev_stream = row.prev_stream_id;
    if (row.stream_id !== null) entry.stream = row.stream_id;
  }
  return entry;
}

/** Chooses the content format a client asked for and attaches its flags. */
export function finishMessage(
  record: Record<string, unknown>,
  opts: { applyMarkdown: boolean; flags?: number },
) {
  const out = inContentFormat(record, opts.applyMarkdown);
  if (opts.flags !== undefined) out.flags = flagsToList(opts.flags);
  return out;
}
