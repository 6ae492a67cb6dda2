/** The snapshot POST /register returns, for the fetch types this product asks for. */
import type { Draft } from './draft';
import type { Stream, Subscription } from './stream';
import type { User } from './user';

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

/** The user settings object (client capability user_settings_object). Only what the client reads is named. */
export interface UserSettings {
  twenty_four_hour_time: boolean;
  color_scheme: number;
  web_home_view: string;
  enter_sends: boolean;
  left_side_userlist: boolean;
  send_private_typing_notifications?: boolean;
  send_stream_typing_notifications?: boolean;
  [key: string]: unknown;
}

export interface RegisterResponse {
  queue_id: string | null;
  last_event_id: number;
  zulip_feature_level?: number;
  service_feature_level?: number;
  max_message_id?: number;
  max_message_length: number;
  max_topic_length: number;
  server_typing_started_wait_period_milliseconds?: number;
  server_typing_stopped_wait_period_milliseconds?: number;
  server_typing_started_expiry_period_milliseconds?: number;
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
  user_settings: UserSettings;
  /** every realm_* setting, kept as delivered */
  [realmSetting: `realm_${string}`]: unknown;
}
