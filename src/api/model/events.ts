/**
 * Wire types of the events GET /events delivers, for the event types this product handles.
 * Every event carries its queue-local `id`.
 */
import type { Draft } from './draft';
import type { Message, MessageFlag, Reaction } from './message';
import type {
  Bot,
  LegacyPresenceInfo,
  MutedUser,
  ScheduledMessage,
  TopicVisibilityPolicy,
  UserPresence,
} from './personal';
import type {
  CustomProfileField,
  DefaultStreamGroup,
  LegacyRealmFilter,
  Linkifier,
  RealmEmoji,
} from './realm-data';
import type { Stream, Subscription, SubscriptionProperty } from './stream';
import type { User, UserStatusChange } from './user';
import type { UserGroup } from './user-group';
import type { UserSettingName, UserSettings } from './user-settings';

interface EventBase {
  id: number;
}

export interface MessageEvent extends EventBase {
  type: 'message';
  message: Message;
  flags: MessageFlag[];
  /** only on the queue whose id was passed to POST /messages */
  local_id?: string;
}

/** What the server tells us about a message whose read flag was removed, so unreads can be rebuilt. */
export interface UnreadMessageDetails {
  type: 'stream' | 'private';
  mentioned?: boolean;
  stream_id?: number;
  topic?: string;
  /** deprecated: whether the stream was unmuted when the message was read */
  unmuted_stream_msg?: boolean;
  /** for direct messages: the other participants (empty for a self DM) */
  user_ids?: number[];
}

export interface UpdateMessageFlagsEvent extends EventBase {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** deprecated name of `op` */
  operation?: 'add' | 'remove';
  flag: MessageFlag;
  messages: number[];
  all: boolean;
  message_details?: Record<string, UnreadMessageDetails>;
}

export interface DeleteMessageEvent extends EventBase {
  type: 'delete_message';
  message_ids: number[];
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
}

export interface UpdateMessageEvent extends EventBase {
  type: 'update_message';
  user_id: number | null;
  message_id: number;
  message_ids: number[];
  edit_timestamp: number;
  rendering_only: boolean;
  flags?: MessageFlag[];
  content?: string;
  rendered_content?: string;
  /** the content before this edit */
  orig_content?: string;
  orig_rendered_content?: string;
  is_me_message?: boolean;
  /** links the realm's linkifiers find in the new topic */
  topic_links?: { text: string; url: string }[];
  stream_id?: number;
  new_stream_id?: number;
  orig_subject?: string;
  subject?: string;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
}

export type SubscriptionEvent =
  | (EventBase & { type: 'subscription'; op: 'add'; subscriptions: Subscription[] })
  | (EventBase & {
      type: 'subscription';
      op: 'remove';
      subscriptions: { stream_id: number; name: string }[];
    })
  | (EventBase & {
      type: 'subscription';
      op: 'update';
      stream_id: number;
      property: SubscriptionProperty;
      value: string | boolean;
    })
  | (EventBase & {
      type: 'subscription';
      op: 'peer_add' | 'peer_remove';
      stream_ids: number[];
      user_ids: number[];
    });

export type StreamEvent =
  | (EventBase & { type: 'stream'; op: 'create'; streams: Stream[] })
  | (EventBase & {
      type: 'stream';
      op: 'delete';
      streams: { stream_id: number }[];
      /** feature level 343: the same ids, without the legacy objects */
      stream_ids?: number[];
    })
  | (EventBase & {
      type: 'stream';
      op: 'update';
      stream_id: number;
      property: string;
      value: unknown;
      rendered_description?: string;
      /** with property invite_only: the other two privacy flags */
      history_public_to_subscribers?: boolean;
      is_web_public?: boolean;
    });

/** One custom profile field value of a user; a null value clears it. */
export interface CustomProfileFieldChange {
  id: number;
  value: string | null;
  rendered_value?: string | null;
}

export type RealmUserEvent =
  | (EventBase & { type: 'realm_user'; op: 'add'; person: User })
  | (EventBase & {
      type: 'realm_user';
      op: 'update';
      /** `new_email`: the person's API address changed (their address, or who may see it) */
      person: Partial<User> & {
        user_id: number;
        new_email?: string;
        custom_profile_field?: CustomProfileFieldChange;
      };
    })
  | (EventBase & {
      type: 'realm_user';
      op: 'remove';
      person: { user_id: number; full_name: string };
    });

export type RealmEvent =
  | (EventBase & { type: 'realm'; op: 'update'; property: string; value: unknown })
  | (EventBase & {
      type: 'realm';
      op: 'update_dict';
      property: string;
      data: Record<string, unknown>;
    })
  /** The organization was deactivated: every later request fails with REALM_DEACTIVATED. */
  | (EventBase & { type: 'realm'; op: 'deactivated'; realm_id: number });

/** One event per changed setting, its value typed by the setting's name. */
export type UserSettingsEvent = {
  [K in UserSettingName]: EventBase & {
    type: 'user_settings';
    op: 'update';
    property: K;
    value: UserSettings[K];
    /** with `default_language`: the language's name in that language */
    language_name?: string;
  };
}[UserSettingName];

export type DraftsEvent =
  | (EventBase & { type: 'drafts'; op: 'add'; drafts: Draft[] })
  | (EventBase & { type: 'drafts'; op: 'update'; draft: Draft })
  | (EventBase & { type: 'drafts'; op: 'remove'; draft_id: number });

export interface TypingUserRef {
  user_id: number;
  email: string;
}

export interface TypingEvent extends EventBase {
  type: 'typing';
  op: 'start' | 'stop';
  message_type: 'direct' | 'stream';
  sender: TypingUserRef;
  /** direct messages: every participant, the sender included */
  recipients?: TypingUserRef[];
  stream_id?: number;
  topic?: string;
}

export interface HeartbeatEvent extends EventBase {
  type: 'heartbeat';
}

/** The server restarted and kept this queue: perhaps a new version, whose web client is newer too. */
export interface RestartEvent extends EventBase {
  type: 'restart';
  zulip_version?: string;
  zulip_feature_level?: number;
  server_generation?: number;
  immediate?: boolean;
}

export type UserGroupEvent =
  | (EventBase & { type: 'user_group'; op: 'add'; group: UserGroup })
  | (EventBase & {
      type: 'user_group';
      op: 'update';
      group_id: number;
      data: Partial<Omit<UserGroup, 'id' | 'members' | 'direct_subgroup_ids'>>;
    })
  | (EventBase & {
      type: 'user_group';
      op: 'add_members' | 'remove_members';
      group_id: number;
      user_ids: number[];
    })
  | (EventBase & {
      type: 'user_group';
      op: 'add_subgroups' | 'remove_subgroups';
      group_id: number;
      direct_subgroup_ids: number[];
    })
  | (EventBase & { type: 'user_group'; op: 'remove'; group_id: number });

/** The whole new list, in order. */
export interface RealmLinkifiersEvent extends EventBase {
  type: 'realm_linkifiers';
  realm_linkifiers: Linkifier[];
}

/** The legacy linkifier list; this client reads `realm_linkifiers` instead. */
export interface RealmFiltersEvent extends EventBase {
  type: 'realm_filters';
  realm_filters: LegacyRealmFilter[];
}

export interface DefaultStreamsEvent extends EventBase {
  type: 'default_streams';
  default_streams: Stream[];
}

export interface DefaultStreamGroupsEvent extends EventBase {
  type: 'default_stream_groups';
  default_stream_groups: DefaultStreamGroup[];
}

/** A topic's visibility policy for the own user; policy 0 removes the entry. */
export interface UserTopicEvent extends EventBase {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: TopicVisibilityPolicy;
}

/**
 * The legacy whole list of the own user's muted topics ([channel name, topic, last_updated]),
 * sent alongside each `user_topic` event to queues that did not ask for `user_topic`.
 */
export interface MutedTopicsEvent extends EventBase {
  type: 'muted_topics';
  muted_topics: [string, string, number][];
}

/**
 * Someone's presence changed. Servers send the legacy per-client `presence` record; newer ones
 * (with simplified presence events) send `presences` in the modern form, keyed by user id.
 */
export interface PresenceEvent extends EventBase {
  type: 'presence';
  user_id?: number;
  email?: string;
  server_timestamp?: number;
  presence?: Record<string, LegacyPresenceInfo>;
  presences?: Record<string, UserPresence>;
}

/**
 * Someone changed their status; only the parts they changed are present, a cleared text or emoji
 * as an empty string.
 */
export interface UserStatusEvent extends EventBase, UserStatusChange {
  type: 'user_status';
  user_id: number;
}

/** Every field definition, in order, after any change. */
export interface CustomProfileFieldsEvent extends EventBase {
  type: 'custom_profile_fields';
  fields: CustomProfileField[];
}

export interface AlertWordsEvent extends EventBase {
  type: 'alert_words';
  alert_words: string[];
}

export interface MutedUsersEvent extends EventBase {
  type: 'muted_users';
  muted_users: MutedUser[];
}

export type RealmBotEvent =
  | (EventBase & { type: 'realm_bot'; op: 'add'; bot: Bot })
  | (EventBase & { type: 'realm_bot'; op: 'update'; bot: Partial<Bot> & { user_id: number } })
  | (EventBase & { type: 'realm_bot'; op: 'remove' | 'delete'; bot: { user_id: number } });

export type ScheduledMessagesEvent =
  | (EventBase & { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ScheduledMessage[] })
  | (EventBase & { type: 'scheduled_messages'; op: 'update'; scheduled_message: ScheduledMessage })
  | (EventBase & { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number });

/** The whole set of custom emoji, keyed by id, after any change. */
export interface RealmEmojiEvent extends EventBase {
  type: 'realm_emoji';
  op: 'update';
  realm_emoji: Record<string, RealmEmoji>;
}

/** Reactions live on messages, in the message caches, not in the account state. */
export interface ReactionEvent extends EventBase, Reaction {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  /** deprecated: the reacting user, also named by user_id */
  user?: { user_id: number; email: string; full_name: string };
}

/** Someone acted on a widget (voted, added a task...): one more submessage for a message. */
export interface SubmessageEvent extends EventBase {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  /** a JSON document, as a string */
  content: string;
}

/** Invitations changed (sent to administrators and the inviter); the list is fetched on demand. */
export interface InvitesChangedEvent extends EventBase {
  type: 'invites_changed';
}

/** Every event this product understands, as the server sends it. */
export type ServerEvent =
  | MessageEvent
  | UpdateMessageFlagsEvent
  | DeleteMessageEvent
  | UpdateMessageEvent
  | SubscriptionEvent
  | StreamEvent
  | RealmUserEvent
  | RealmEvent
  | UserSettingsEvent
  | DraftsEvent
  | TypingEvent
  | UserGroupEvent
  | RealmLinkifiersEvent
  | RealmFiltersEvent
  | DefaultStreamsEvent
  | DefaultStreamGroupsEvent
  | UserTopicEvent
  | MutedTopicsEvent
  | PresenceEvent
  | UserStatusEvent
  | CustomProfileFieldsEvent
  | AlertWordsEvent
  | MutedUsersEvent
  | RealmBotEvent
  | ScheduledMessagesEvent
  | RealmEmojiEvent
  | ReactionEvent
  | SubmessageEvent
  | InvitesChangedEvent
  | RestartEvent
  | HeartbeatEvent;

export interface GetEventsResponse {
  events: ({ id: number; type: string } & Record<string, unknown>)[];
  queue_id?: string;
}
