import type { AppContext } from '../context.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { Database } from '../db/index.js';
import { cachedRow } from '../db/row-cache.js';
import { isAdmin } from '../domain/roles.js';
import { policyFlags } from '../actions/policies.js';
import { statusSnapshot } from '../actions/user-status.js';
import { botToApi, roleFlags, streamToApi, avatarUrl } from '../domain/serialize.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  EMOJISETS,
  parseSettings,
  USER_SETTING_DEFAULTS,
} from '../domain/settings.js';
import {
  USER_SETTING_NAMES,
  USER_SETTINGS,
  type RegisterUserSettings,
  type UserSettings,
} from '../../src/api/model/user-settings.js';
import { canSeeStream, subscribedStreamIds } from '../actions/access.js';
import { realmDescriptionHtml, realmIconUrl, realmSettings } from '../actions/realm.js';
import { defaultStreamIds, firstMessageIds, realmStreams } from '../actions/streams.js';
import { subscribersByStream, subscriptionObjects } from '../actions/subscriptions.js';
import { dmIds } from '../actions/message-records.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from '../actions/send-message.js';
import type { ClientCapabilities } from '../events/queue.js';
import { multiuseInviteGroupId, SPEC_SETTING_NAMES } from '../actions/realm-admin.js';
import { pendingScheduledMessages } from '../actions/scheduled-messages.js';
import { defaultStreamGroupObjects } from '../actions/default-streams.js';
import { alertWordsOf } from '../actions/alert-words.js';
import { profileFieldObjects } from '../actions/profile-fields.js';
import { mutedUserObjects } from '../actions/muted-users.js';
import { presenceSnapshot } from '../actions/presence.js';
import { userGroupObjects } from '../actions/user-groups.js';
import { realmEmojiDict } from '../actions/realm-emoji.js';
import { MAX_FILE_UPLOAD_MIB } from '../actions/uploads.js';
import { rowsWith } from '../db/flag-conditions.js';
import { topicsOf } from '../db/unread-conversations.js';
import { unreadGroups, type UnreadGroup } from './unread-cache.js';
import { realmUsersFor } from './realm-users.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';

export const FEATURE_LEVEL = 222;
export const SERVICE_VERSION = '8.0-parley-0.1';
export const MAX_UNREAD_MESSAGES = 50000;
/** The video-meeting server used when the organization sets none (server_meet_server_url). */
export const SERVER_MEET_URL = 'https://meet.jit.si';

export const ALL_FETCH_TYPES = [
  'alert_words',
  'custom_profile_fields',
  'default_stream_groups',
  'default_streams',
  'drafts',
  'message',
  'muted_users',
  'presence',
  'realm',
  'realm_bot',
  'realm_emoji',
  'realm_linkifiers',
  'realm_filters',
  'realm_user',
  'realm_user_groups',
  'realm_user_settings_defaults',
  'recent_private_conversations',
  'scheduled_messages',
  'starred_messages',
  'stream',
  'subscription',
  'update_message_flags',
  'user_settings',
  'user_status',
  'user_topic',
  'video_calls',
  'realm_playgrounds',
  'onboarding_steps',
] as const;

/**
 * What clients without the `user_settings_object` capability find at the top level: the real
 * server's frozen legacy display and notification lists (the list's `legacy` flag) and the choices;
 * newer settings exist only in `user_settings`.
 */
const LEGACY_TOP_LEVEL_SETTINGS = [
  ...USER_SETTING_NAMES.filter((name) => 'legacy' in USER_SETTINGS[name]),
  'available_notification_sounds',
  'emojiset_choices',
] as const;

export interface StateOptions {
  fetchTypes: Set<string> | null;
  capabilities: ClientCapabilities;
  includeSubscribers: boolean;
  slimPresence: boolean;
  clientGravatar: boolean;
}

const wants = (opts: StateOptions, type: string) =>
  opts.fetchTypes === null || opts.fetchTypes.has(type);

/**
 * What several sections of the snapshot read, read once: the organization's channels and the
 * first message of each (streams, default streams and never-subscribed channels show both).
 */
class SnapshotReads {
  private streams?: Promise<Stream[]>;
  private firsts?: Promise<Map<number, number>>;

  constructor(
    private readonly db: Database,
    private readonly realmId: number,
  ) {}

  realmStreams(): Promise<Stream[]> {
    return (this.streams ??= realmStreams(this.db, this.realmId));
  }

  /** every channel's first message id, for channels that have one (one index seek each) */
  firstMessageIds(): Promise<Map<number, number>> {
    return (this.firsts ??= this.realmStreams().then((streams) =>
      firstMessageIds(
        this.db,
        streams.map((s) => s.id),
      ),
    ));
  }
}

/** The snapshot POST /register returns for an authenticated user. */
export async function initialState(ctx: AppContext, realm: Realm, user: User, opts: StateOptions) {
  const state: Record<string, unknown> = {};
  const db = ctx.db;
  const settings = realmSettings(realm);
  const reads = new SnapshotReads(db, realm.id);

  if (wants(opts, 'alert_words')) {
    state.alert_words = await alertWordsOf(db, user.id);
  }
  if (wants(opts, 'custom_profile_fields')) {
    state.custom_profile_fields = await profileFieldObjects(db, realm.id);
    state.custom_profile_field_types = {
      SHORT_TEXT: { id: 1, name: 'Text (short)' },
      LONG_TEXT: { id: 2, name: 'Text (long)' },
      SELECT: { id: 3, name: 'List of options' },
      DATE: { id: 4, name: 'Date picker' },
      URL: { id: 5, name: 'Link' },
      USER: { id: 6, name: 'Users' },
      EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
      PRONOUNS: { id: 8, name: 'Pronouns' },
    };
  }
  if (wants(opts, 'drafts')) {
    const us = parseSettings(USER_SETTING_DEFAULTS, user.settings);
    const drafts = us.enable_drafts_synchronization
      ? await db
          .selectFrom('drafts')
          .selectAll()
          .where('user_id', '=', user.id)
          .orderBy('id')
          .execute()
      : [];
    state.drafts = drafts.map((d) => ({
      id: d.id,
      type: d.type,
      to: JSON.parse(d.to_ids),
      topic: d.topic,
      content: d.content,
      timestamp: d.timestamp,
    }));
  }
  if (wants(opts, 'message')) {
    const max = await db
      .selectFrom('user_messages')
      .select((eb) => eb.fn.max('message_id').as('m'))
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    state.max_message_id = Number(max?.m ?? -1);
  }
  if (wants(opts, 'muted_users')) {
    state.muted_users = await mutedUserObjects(db, user.id);
  }
  if (wants(opts, 'presence')) {
    Object.assign(state, await presenceSnapshot(db, realm, { slim: opts.slimPresence }));
  }
  if (wants(opts, 'realm')) {
    Object.assign(state, realmState(ctx, realm, user, settings));
    state.realm_create_multiuse_invite_group = await multiuseInviteGroupId(db, realm);
  }
  if (wants(opts, 'realm_user')) {
    Object.assign(state, await realmUsersFor(ctx, realm, user));
    state.cross_realm_bots = [];
    Object.assign(state, {
      avatar_source: 'G',
      avatar_url: avatarUrl(ctx, user),
      avatar_url_medium: avatarUrl(ctx, user),
      delivery_email: user.delivery_email,
      email: user.email,
      full_name: user.full_name,
      user_id: user.id,
      ...roleFlags(user),
      ...policyFlags(realm, user),
    });
  }
  if (wants(opts, 'realm_bot')) {
    const bots = await cachedRow(db, `bots:${realm.id}`, () =>
      db
        .selectFrom('users')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('is_bot', '=', 1)
        .execute(),
    );
    state.realm_bots = (bots ?? [])
      .filter((b) => isAdmin(user) || b.bot_owner_id === user.id)
      .map((b) => botToApi(ctx, b));
  }
  if (wants(opts, 'realm_emoji')) state.realm_emoji = await realmEmojiDict(db, realm.id);
  if (wants(opts, 'realm_linkifiers')) {
    const rows = await db
      .selectFrom('linkifiers')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .orderBy('order')
      .orderBy('id')
      .execute();
    state.realm_linkifiers = opts.capabilities.linkifier_url_template
      ? rows.map((r) => ({ id: r.id, pattern: r.pattern, url_template: r.url_template }))
      : [];
  }
  if (wants(opts, 'realm_filters')) state.realm_filters = [];
  if (wants(opts, 'realm_playgrounds')) state.realm_playgrounds = [];
  if (wants(opts, 'realm_user_groups'))
    state.realm_user_groups = await userGroupObjects(db, realm.id);
  if (wants(opts, 'realm_user_settings_defaults'))
    state.realm_user_settings_defaults = {
      ...USER_SETTING_DEFAULTS,
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
      emojiset_choices: EMOJISETS,
    };
  if (wants(opts, 'recent_private_conversations'))
    state.recent_private_conversations = await recentConversations(ctx, user);
  if (wants(opts, 'scheduled_messages'))
    state.scheduled_messages = await pendingScheduledMessages(db, user.id);
  if (wants(opts, 'starred_messages')) {
    state.starred_messages = (
      await db
        .selectFrom('user_messages')
        .select('message_id')
        .where('user_id', '=', user.id)
        .where(rowsWith('starred'))
        .orderBy('message_id')
        .execute()
    ).map((r) => r.message_id);
  }
  if (wants(opts, 'stream')) {
    const streams = await reads.realmStreams();
    const subs = await subscribedStreamIds(db, user.id);
    const visible = streams.filter((s) => canSeeStream(user, s, subs.has(s.id)));
    const firsts = await reads.firstMessageIds();
    state.streams = visible.map((s) =>
      streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null }),
    );
  }
  if (wants(opts, 'default_streams')) {
    const ids = await defaultStreamIds(db, realm.id);
    const streams = (await reads.realmStreams()).filter((s) => ids.has(s.id));
    const firsts = await reads.firstMessageIds();
    state.realm_default_streams = streams.map((s) =>
      streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null }),
    );
  }
  if (wants(opts, 'default_stream_groups'))
    state.realm_default_stream_groups = await defaultStreamGroupObjects(db, realm.id);
  if (wants(opts, 'subscription'))
    Object.assign(state, await subscriptionState(ctx, reads, user, opts));
  if (wants(opts, 'update_message_flags') && wants(opts, 'message'))
    state.unread_msgs = await unreadMessages(ctx, user);
  if (wants(opts, 'user_settings')) {
    const userSettings = ownUserSettings(user);
    if (opts.capabilities.user_settings_object) state.user_settings = userSettings;
    else for (const key of LEGACY_TOP_LEVEL_SETTINGS) state[key] = userSettings[key];
  }
  if (wants(opts, 'user_status')) state.user_status = await statusSnapshot(db, realm.id);
  if (wants(opts, 'user_topic')) {
    const rows = await db
      .selectFrom('user_topics')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    state.user_topics = rows.map((r) => ({
      stream_id: r.stream_id,
      topic_name: r.topic,
      last_updated: r.last_updated,
      visibility_policy: r.visibility_policy,
    }));
  }
  if (wants(opts, 'video_calls')) state.has_zoom_token = false;
  if (wants(opts, 'onboarding_steps')) state.onboarding_steps = [];
  return state;
}

/** Every setting of the list, in its order: stored values over defaults, row columns from the row. */
export function ownUserSettings(user: User): RegisterUserSettings {
  const stored = parseSettings(USER_SETTING_DEFAULTS, user.settings) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of USER_SETTING_NAMES)
    out[name] = 'realmUser' in USER_SETTINGS[name] ? user[name as keyof User] : stored[name];
  return {
    ...(out as UserSettings),
    available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
    emojiset_choices: EMOJISETS,
  };
}

function realmState(
  ctx: AppContext,
  realm: Realm,
  user: User,
  settings: ReturnType<typeof realmSettings>,
) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) {
    // email_address_visibility became a user setting at feature level 163.
    if (k === 'create_multiuse_invite_group_name' || k === 'email_address_visibility') continue;
    out[`realm_${k}`] = v;
    if (SPEC_SETTING_NAMES[k]) out[`realm_${SPEC_SETTING_NAMES[k]}`] = v;
  }
  const url = ctx.config.externalUrl;
  Object.assign(out, {
    realm_create_multiuse_invite_group: null,
    realm_name: realm.name,
    realm_description: realmDescriptionHtml(realm),
    realm_date_created: realm.date_created,
    realm_uri: url,
    realm_url: url,
    realm_icon_url: realmIconUrl(ctx, realm),
    realm_icon_source: 'G',
    realm_logo_url: '',
    realm_logo_source: 'D',
    realm_night_logo_url: '',
    realm_night_logo_source: 'D',
    realm_bot_domain: 'parley.bots',
    realm_authentication_methods: { Email: true, Dev: false, LDAP: false },
    realm_available_video_chat_providers: {
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
    },
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_is_zephyr_mirror_realm: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_upload_quota_mib: null,
    realm_domains: [],
    realm_default_external_accounts: {},
    realm_incoming_webhook_bots: [],
    realm_embedded_bots: [],
    realm_welcome_message_custom_text: '',
    realm_empty_topic_display_name: 'general chat',
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_avatar_file_size_mib: 5,
    max_file_upload_size_mib: MAX_FILE_UPLOAD_MIB,
    max_message_length: MAX_MESSAGE_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_bulk_new_subscription_messages: 100,
    server_typing_started_wait_period_milliseconds: 10000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_expiry_period_milliseconds: 15000,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: true,
    server_emoji_data_url: '',
    server_jitsi_server_url: SERVER_MEET_URL,
    server_meet_server_url: SERVER_MEET_URL,
    server_can_summarize_topics: false,
    server_thumbnail_formats: [],
    server_supported_permission_settings: permissionSettings(),
    settings_send_digest_emails: false,
    realm_message_edit_history_visibility_policy: 'all',
    password_min_length: PASSWORD_MIN_LENGTH,
    password_max_length: PASSWORD_MAX_LENGTH,
    password_min_guesses: 10000,
    giphy_rating_options: { disabled: { name: 'GIPHY integration disabled', id: -1 } },
    giphy_api_key: '',
    development_environment: false,
    event_queue_longpoll_timeout_seconds: ctx.config.longPollSeconds + 40,
    jitsi_server_url: settings.jitsi_server_url ?? SERVER_MEET_URL,
    demo_organization_scheduled_deletion_date: undefined,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    stop_words: [],
  });
  delete out.demo_organization_scheduled_deletion_date;
  void user;
  return out;
}

function permissionSettings() {
  const setting = (required: boolean, allowInternet = false) => ({
    require_system_group: required,
    allow_internet_group: allowInternet,
    allow_owners_group: false,
    allow_nobody_group: true,
    allow_everyone_group: true,
    default_group_name: 'role:everyone',
    id_field_name: 'can_mention_group',
    default_for_system_groups: null,
    allowed_system_groups: [],
  });
  return {
    realm: {
      create_multiuse_invite_group: {
        ...setting(true),
        default_group_name: 'role:administrators',
        id_field_name: 'create_multiuse_invite_group_id',
      },
    },
    stream: {
      can_remove_subscribers_group: {
        ...setting(true),
        default_group_name: 'role:administrators',
        id_field_name: 'can_remove_subscribers_group_id',
      },
    },
    group: {
      can_mention_group: {
        ...setting(false),
        default_for_system_groups: 'role:nobody',
        id_field_name: 'can_mention_group_id',
      },
    },
  };
}

async function subscriptionState(
  ctx: AppContext,
  reads: SnapshotReads,
  user: User,
  opts: StateOptions,
) {
  const subscriptions = await subscriptionObjects(ctx.db, user, {
    includeSubscribers: opts.includeSubscribers,
  });
  const unsubscribed = (
    await subscriptionObjects(ctx.db, user, {
      includeSubscribers: opts.includeSubscribers,
      active: false,
    })
  ).filter((s) =>
    canSeeStream(
      user,
      {
        ...(s as any),
        id: s.stream_id,
        invite_only: s.invite_only ? 1 : 0,
        is_web_public: s.is_web_public ? 1 : 0,
        deactivated: 0,
      },
      false,
    ),
  );
  const known = new Set([...subscriptions, ...unsubscribed].map((s) => s.stream_id));
  const streams = await reads.realmStreams();
  const never = streams.filter((s) => !known.has(s.id) && canSeeStream(user, s, false));
  const firsts = await reads.firstMessageIds();
  let subscribers: Map<number, number[]> | null = null;
  if (opts.includeSubscribers) {
    subscribers = await subscribersByStream(
      ctx.db,
      never.filter((s) => !s.invite_only).map((s) => s.id),
    );
  }
  return {
    subscriptions,
    unsubscribed,
    never_subscribed: never.map((s) => {
      const o = streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null });
      return subscribers ? { ...o, subscribers: subscribers.get(s.id) ?? [] } : o;
    }),
  };
}

/** Direct messages read for recent_private_conversations: upstream's "the 1000 most recent". */
export const RECENT_PRIVATE_MESSAGES = 1000;

/**
 * The conversations of the person's newest direct messages, newest first, as upstream builds
 * them: from the most recent 1000 direct messages (found through the index of their rows).
 */
async function recentConversations(ctx: AppContext, user: User) {
  const rows = await ctx.db
    .selectFrom((eb) =>
      eb
        .selectFrom('user_messages')
        .select('message_id')
        .where('user_id', '=', user.id)
        .where(rowsWith('private'))
        .orderBy('message_id', 'desc')
        .limit(RECENT_PRIVATE_MESSAGES)
        .as('recent'),
    )
    .innerJoin('messages as m', 'm.id', 'recent.message_id')
    .select(['m.dm_key', (eb) => eb.fn.max('m.id').as('max_id')])
    .where('m.type', '=', 'private')
    .groupBy('m.dm_key')
    .orderBy('max_id', 'desc')
    .execute();
  return rows.map((r) => ({
    max_message_id: Number(r.max_id),
    user_ids: dmIds(r.dm_key).filter((id) => id !== user.id),
  }));
}

/** Leaves out the oldest of the messages (the one past the limit), wherever it stands. */
function dropOldest(groups: UnreadGroup[]): UnreadGroup[] {
  let oldest = -1;
  for (let i = 0; i < groups.length; i++)
    if (oldest < 0 || groups[i].ids[0] < groups[oldest].ids[0]) oldest = i;
  if (oldest < 0) return groups;
  const group = groups[oldest];
  const id = group.ids.shift();
  group.topic = undefined; // its oldest message is another one now
  group.mentioned = group.mentioned.filter((m) => m !== id);
  group.wildcard = group.wildcard.filter((m) => m !== id);
  return group.ids.length ? groups : groups.filter((g) => g !== group);
}

/**
 * The unread summary, over the newest 50000 (`limit`) unread messages: their conversations come
 * grouped from the database (unreadConversations), each topic is read from its oldest message
 * among them, and conversations are listed in the order of their oldest unread message.
 */
export async function unreadMessages(
  ctx: AppContext,
  user: User,
  limit = MAX_UNREAD_MESSAGES,
  source: 'memory' | 'database' = 'memory',
) {
  // One more than the limit tells whether older unread messages are left out.
  let groups = await unreadGroups(ctx, user.id, limit + 1, source);
  const total = groups.reduce((n, g) => n + g.ids.length, 0);
  const oldMissing = total > limit;
  if (oldMissing) groups = dropOldest(groups);
  groups.sort((a, b) => a.ids[0] - b.ids[0]);
  // Each topic as its oldest unread message names it; the copy in memory knows most of them.
  const topics = await topicsOf(
    ctx.db,
    groups.filter((g) => g.streamId !== null && g.topic === undefined).map((g) => g.ids[0]),
  );
  const mutedStreams = new Set(
    (
      await ctx.db
        .selectFrom('subscriptions')
        .select('stream_id')
        .where('user_id', '=', user.id)
        .where('is_muted', '=', 1)
        .execute()
    ).map((r) => r.stream_id),
  );
  const topicPolicies = await ctx.db
    .selectFrom('user_topics')
    .select(['stream_id', 'topic_key', 'visibility_policy'])
    .where('user_id', '=', user.id)
    .execute();
  const policy = new Map(
    topicPolicies.map((t) => [`${t.stream_id}\u0000${t.topic_key}`, t.visibility_policy]),
  );
  const isMuted = (streamId: number, topicKey: string) => {
    const p = policy.get(`${streamId}\u0000${topicKey}`);
    if (p === 1) return true;
    if (p === 2 || p === 3) return false;
    return mutedStreams.has(streamId);
  };
  const pms = new Map<number, number[]>();
  const streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] = [];
  const huddles: { user_ids_string: string; unread_message_ids: number[] }[] = [];
  const mentions: number[] = [];
  let count = 0;
  for (const g of groups) {
    mentions.push(...g.mentioned);
    if (g.streamId !== null) {
      const muted = isMuted(g.streamId, g.topicKey);
      if (!muted) {
        count += g.ids.length;
        mentions.push(...g.wildcard);
      }
      streams.push({
        stream_id: g.streamId,
        topic: g.topic ?? topics.get(g.ids[0]) ?? '',
        unread_message_ids: g.ids,
      });
      continue;
    }
    count += g.ids.length;
    mentions.push(...g.wildcard);
    const members = dmIds(g.dmKey);
    if (members.length > 2) {
      huddles.push({ user_ids_string: g.dmKey ?? '', unread_message_ids: g.ids });
      continue;
    }
    const other = members.find((id) => id !== user.id) ?? user.id;
    // One list per other person, whatever the key their messages were stored under.
    const existing = pms.get(other);
    if (existing)
      pms.set(
        other,
        [...existing, ...g.ids].sort((a, b) => a - b),
      );
    else pms.set(other, g.ids);
  }
  return {
    count,
    pms: [...pms].map(([other, ids]) => ({
      other_user_id: other,
      sender_id: other,
      unread_message_ids: ids,
    })),
    streams,
    huddles,
    mentions: [...new Set(mentions)].sort((a, b) => a - b),
    old_unreads_missing: oldMissing,
  };
}
