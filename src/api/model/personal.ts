/**
 * Wire types for what the server keeps about one user's own account besides settings: topic
 * visibility, muted users, alert words, bots, scheduled messages.
 */

/** 0 none (follow the stream), 1 muted, 2 unmuted (in a muted stream), 3 followed */
export type TopicVisibilityPolicy = 0 | 1 | 2 | 3;

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: TopicVisibilityPolicy;
}

export interface MutedUser {
  id: number;
  timestamp: number;
}

/** A bot as `realm_bots` shows it: to administrators every bot, to others the bots they own. */
export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  api_key?: string;
  avatar_url?: string | null;
  bot_type: number | null;
  owner_id: number | null;
  is_active: boolean;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  /** an outgoing webhook bot's one service; an embedded bot's; none for the other types */
  services: BotService[];
}

/** Where an outgoing webhook bot (bot_type 3) is sent its mentions and direct messages. */
export interface OutgoingWebhookService {
  base_url: string;
  /** 1 generic (Zulip's format), 2 Slack compatible */
  interface: number;
  /** sent with every request, so that the bot's server can tell they come from this organization */
  token: string;
}

/** An embedded bot's (bot_type 4) service: which bot runs on the server, with its settings. */
export interface EmbeddedBotService {
  service_name: string;
  config_data: Record<string, string>;
}

export type BotService = OutgoingWebhookService | EmbeddedBotService;

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** a stream id, or the recipients' user ids */
  to: number | number[];
  /** stream messages only */
  topic?: string;
  content: string;
  rendered_content: string;
  /** seconds since the epoch */
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** Modern presence (slim_presence): when the user was last active, and last connected at all. */
export interface UserPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** Legacy presence, one record per client (and `aggregated`). */
export interface LegacyPresenceInfo {
  client?: string;
  status: 'active' | 'idle' | 'offline';
  timestamp: number;
  pushable?: boolean;
}
