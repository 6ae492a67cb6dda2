/** The snapshot POST /register returns, for the fetch types this product asks for. */
import type { Draft } from './draft';
import type { Bot, MutedUser, ScheduledMessage, UserPresence, UserTopic } from './personal';
import type { CustomProfileField, DefaultStreamGroup, Linkifier, RealmEmoji } from './realm-data';
import type { Stream, Subscription } from './stream';
import type { User, UserStatus } from './user';
import type { UserGroup } from './user-group';
import type { RegisterUserSettings } from './user-settings';

export interface ClientCapabilities {
  notification_settings_null?: boolean;
  bulk_message_deletion?: boolean;
  user_avatar_url_field_optional?: boolean;
  stream_typing_notifications?: boolean;
  user_settings_object?: boolean;
  linkifier_url_template?: boolean;
}

/** One entry of `unread_msgs.pms`: a one-on-one conversation. */
export interface UnreadDmEntry {
  other_user_id: number;
  /** deprecated name of other_user_id */
  sender_id?: number;
  unread_message_ids: number[];
}

export interface UnreadStreamEntry {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}

export interface UnreadHuddleEntry {
  /** comma-separated, numerically sorted ids, the own user's included */
  user_ids_string: string;
  unread_message_ids: number[];
}

export interface UnreadMessagesSnapshot {
  count: number;
  pms: UnreadDmEntry[];
  streams: UnreadStreamEntry[];
  huddles: UnreadHuddleEntry[];
  mentions: number[];
  old_unreads_missing: boolean;
}

export interface RecentPrivateConversation {
  max_message_id: number;
  /** the other participants; empty for a self DM */
  user_ids: number[];
}

export interface RegisterResponse {
  queue_id: string | null;
  last_event_id: number;
  zulip_feature_level?: number;
  service_feature_level?: number;
  max_message_id?: number;
  max_message_length: number;
  max_topic_length: number;
  /** the largest file the server takes in POST /user_uploads, in MiB */
  max_file_upload_size_mib?: number;
  server_typing_started_wait_period_milliseconds?: number;
  server_typing_stopped_wait_period_milliseconds?: number;
  server_typing_started_expiry_period_milliseconds?: number;
  /** the Jitsi Meet server used when the organization's realm_jitsi_server_url is null */
  server_jitsi_server_url?: string | null;
  /** deprecated (feature level 212): the organization's Jitsi server, or the server's default */
  jitsi_server_url?: string | null;
  realm_name: string;
  realm_icon_url?: string;
  realm_uri?: string;
  realm_users: User[];
  realm_non_active_users: User[];
  user_id: number;
  email: string;
  full_name: string;
  avatar_url?: string;
  is_admin: boolean;
  streams: Stream[];
  subscriptions: Subscription[];
  unsubscribed?: Subscription[];
  never_subscribed?: Stream[];
  unread_msgs: UnreadMessagesSnapshot;
  starred_messages: number[];
  recent_private_conversations: RecentPrivateConversation[];
  drafts: Draft[];
  user_settings: RegisterUserSettings;
  // The collections below are optional: a server leaves out what fetch_event_types did not ask for.
  realm_user_groups?: UserGroup[];
  realm_linkifiers?: Linkifier[];
  realm_default_streams?: Stream[];
  realm_default_stream_groups?: DefaultStreamGroup[];
  realm_bots?: Bot[];
  /** by id, deactivated ones included */
  realm_emoji?: Record<string, RealmEmoji>;
  user_topics?: UserTopic[];
  /** with slim_presence: by user id */
  presences?: Record<string, UserPresence>;
  server_presence_offline_threshold_seconds?: number;
  /** by user id: the statuses people set */
  user_status?: Record<string, UserStatus>;
  custom_profile_fields?: CustomProfileField[];
  alert_words?: string[];
  muted_users?: MutedUser[];
  scheduled_messages?: ScheduledMessage[];
  /** every realm_* setting, kept as delivered */
  [realmSetting: `realm_${string}`]: unknown;
}
