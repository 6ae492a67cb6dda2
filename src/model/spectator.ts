/**
 * A spectator (someone reading web-public channels without an account) registers without
 * credentials and gets a slim snapshot: no queue, no user, no settings. This fills in what an
 * account would have, empty, and shows each web-public channel as if subscribed, so that every
 * screen that reads the account state works unchanged, read-only.
 */
import type { RegisterResponse, RegisterUserSettings, Stream, Subscription } from '../api/model';
import { defaultUserSettings } from '../api/model/user-settings';
import type { ParsedEvent } from '../api/parse-event';
import type { SubscriptionsState } from './subscriptions';

/** A palette for channels without a subscriber's color. */
const COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
];

/**
 * The user settings a spectator reads with: the list's defaults, then the organization's defaults
 * where it gives them. Spectators land on recent conversations, the one view open to them.
 */
const SETTING_DEFAULTS: RegisterUserSettings = {
  ...defaultUserSettings(),
  web_home_view: 'recent_topics',
  available_notification_sounds: [],
  emojiset_choices: [],
};

export const SPECTATOR_USER_ID = 0;

export function spectatorSnapshot(register: Partial<RegisterResponse>): RegisterResponse {
  const streams = (register.streams ?? []) as Stream[];
  const subscriptions: Subscription[] = streams
    .filter((s) => s.is_web_public)
    .map((s, index) => ({
      ...s,
      color: COLORS[index % COLORS.length]!,
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    }));
  const defaults = ((register as Record<string, unknown>).realm_user_settings_defaults ??
    {}) as Partial<RegisterUserSettings>;
  return {
    ...register,
    queue_id: null,
    last_event_id: register.last_event_id ?? -1,
    max_message_length: register.max_message_length ?? 10000,
    max_topic_length: register.max_topic_length ?? 60,
    realm_name: register.realm_name ?? '',
    realm_users: register.realm_users ?? [],
    realm_non_active_users: register.realm_non_active_users ?? [],
    user_id: SPECTATOR_USER_ID,
    email: '',
    full_name: 'Spectator',
    is_admin: false,
    streams,
    subscriptions,
    unsubscribed: [],
    never_subscribed: [],
    unread_msgs: {
      pms: [],
      streams: [],
      huddles: [],
      mentions: [],
      count: 0,
      old_unreads_missing: false,
    },
    starred_messages: [],
    recent_private_conversations: [],
    drafts: [],
    user_settings: { ...SETTING_DEFAULTS, ...defaults },
  } as RegisterResponse;
}

/**
 * The channels a visitor's store lists as web-public: the ones its snapshot opened to them. Events
 * from the visitors' stream about any other channel are ignored (visitorMayApply), whatever the
 * server sent.
 */
export function webPublicChannelIds(state: SubscriptionsState): Set<number> {
  const ids = new Set<number>();
  for (const id of Object.keys(state.subscriptions).map(Number))
    if (state.streams[id]?.is_web_public) ids.add(id);
  return ids;
}

/** The channel of a reaction or a widget's submessage: the visitors' stream adds its message's. */
const channelOf = (event: ParsedEvent): number | undefined => {
  const streamId = (event as { stream_id?: unknown }).stream_id;
  return typeof streamId === 'number' ? streamId : undefined;
};

/**
 * Whether an event from the visitors' stream may change what a visitor sees: only events that
 * name a channel of `webPublic` (where a message ends up, for a move), and channel departures.
 * Channel arrivals are not applied but answered with a new snapshot (opensChannel).
 */
export function visitorMayApply(event: ParsedEvent, webPublic: ReadonlySet<number>): boolean {
  const listed = (id: number | undefined) => id !== undefined && webPublic.has(id);
  switch (event.type) {
    case 'message':
      return event.message.type === 'stream' && listed(event.message.stream_id);
    case 'update_message':
      return listed(event.new_stream_id ?? event.stream_id);
    case 'delete_message':
      return event.message_type === 'stream' && listed(event.stream_id);
    case 'reaction':
    case 'submessage':
      return listed(channelOf(event));
    case 'stream':
      return event.op === 'delete' || (event.op === 'update' && listed(event.stream_id));
    default:
      return false;
  }
}

/** A channel visitors may now read that their snapshot does not list: a new snapshot is due. */
export function opensChannel(event: ParsedEvent, webPublic: ReadonlySet<number>): boolean {
  return (
    event.type === 'stream' &&
    event.op === 'create' &&
    event.streams.some((s) => s.is_web_public && !webPublic.has(s.stream_id))
  );
}

/** The organization no longer lets visitors in (the stream's last event when it closes). */
export function closesToVisitors(event: ParsedEvent): boolean {
  if (event.type !== 'realm') return false;
  if (event.op === 'deactivated') return true;
  return (
    event.op === 'update' && event.property === 'enable_spectator_access' && event.value === false
  );
}
