import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database as Kysely sees it. Booleans are stored as 0/1 integers and structured settings as
 * JSON text so that SQLite and PostgreSQL share one schema and one set of queries.
 */
export interface DB {
  realms: RealmTable;
  users: UserTable;
  streams: StreamTable;
  subscriptions: SubscriptionTable;
  messages: MessageTable;
  user_messages: UserMessageTable;
  user_groups: UserGroupTable;
  user_group_members: UserGroupMemberTable;
  user_group_subgroups: UserGroupSubgroupTable;
  default_streams: DefaultStreamTable;
  drafts: DraftTable;
  custom_profile_fields: CustomProfileFieldTable;
  custom_profile_values: CustomProfileValueTable;
  linkifiers: LinkifierTable;
  alert_words: AlertWordTable;
  user_topics: UserTopicTable;
  muted_users: MutedUserTable;
  email_changes: EmailChangeTable;
  reactions: ReactionTable;
  message_edits: MessageEditTable;
  invites: InviteTable;
  scheduled_messages: ScheduledMessageTable;
  default_stream_groups: DefaultStreamGroupTable;
  default_stream_group_streams: DefaultStreamGroupStreamTable;
  presences: PresenceTable;
  attachments: AttachmentTable;
  attachment_claims: AttachmentClaimTable;
  realm_emoji: RealmEmojiTable;
  signup_confirmations: SignupConfirmationTable;
  user_statuses: UserStatusTable;
  bot_storage: BotStorageTable;
  push_device_tokens: PushDeviceTokenTable;
  bot_services: BotServiceTable;
  outgoing_webhook_jobs: OutgoingWebhookJobTable;
  submessages: SubmessageTable;
  mail_queue: MailQueueTable;
  password_resets: PasswordResetTable;
  email_notifications: EmailNotificationTable;
  stored_files: StoredFileTable;
  stored_file_chunks: StoredFileChunkTable;
  server_keys: ServerKeyTable;
}

/**
 * A file kept in the database (db/file-store.ts): an upload, an avatar or a custom emoji image,
 * named by its path in the data directory's layout (`uploads/<path_id>`, `avatars/...`).
 */
export interface StoredFileTable {
  id: Generated<number>;
  key: string;
  size: number;
  /** seconds; the file's Last-Modified and part of its ETag */
  created: number;
}

/** A stored file's bytes, in chunks numbered from 0, each but the last of the same size. */
export interface StoredFileChunkTable {
  file_id: number;
  seq: number;
  data: Buffer;
}

/** A secret of the installation on PostgreSQL (domain/server-keys.ts), 32 bytes in hex. */
export interface ServerKeyTable {
  name: string;
  value: string;
}

/**
 * A message someone may be mailed about if they leave it unread (actions/missed-messages.ts):
 * written when it is sent, taken when their batch is due.
 */
export interface EmailNotificationTable {
  id: Generated<number>;
  user_id: number;
  message_id: number;
  /** why: private_message, mentioned, wildcard_mentioned, stream_email_notify, followed_topic */
  trigger: string;
  created_at: number;
}

/**
 * A mail to send (actions/mail.ts): written in the transaction of the change that causes it,
 * sent by the mail worker (actions/mail-worker.ts), kept afterwards for administrators to read.
 */
export interface MailQueueTable {
  id: Generated<number>;
  realm_id: number;
  /** 'invitation', 'signup_confirmation', 'email_change', 'password_reset', 'login', 'missed_messages' */
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** what made the mail (`invitation:<id>:<n>`): unique, so that one cause makes one mail */
  cause: string;
  /** 'queued', 'sending' (a worker holds it until `claimed_until`), 'sent' or 'failed' */
  status: string;
  /** tries so far, the one under way included */
  attempts: number;
  next_attempt_at: number;
  claimed_until: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A password reset link (actions/password-reset.ts): only the hash of its secret is kept. */
export interface PasswordResetTable {
  id: Generated<number>;
  realm_id: number;
  /** null: the address had no account; the row is written all the same (same work either way) */
  user_id: number | null;
  /** SHA-256 (hex) of the secret in the mailed link */
  key_hash: string;
  created: number;
  expiry: number;
  used: Bool;
}

/**
 * What widgets attach to a message (upstream's SubMessage): the widget itself (a poll, a to-do
 * list, a bot's form) from the message's sender, then each vote, option, task or tick, in order.
 */
export interface SubmessageTable {
  id: Generated<number>;
  message_id: number;
  sender_id: number;
  /** "widget" for every widget; clients ignore other types */
  msg_type: string;
  /** JSON text, as the client sent it */
  content: string;
}

/** Where an outgoing-webhook bot's triggers go (upstream's Service): one row per such bot. */
export interface BotServiceTable {
  bot_id: number;
  /** the service's name: the bot's short name unless given */
  name: string;
  /** the URL the triggers are POSTed to; empty until its owner sets one */
  base_url: string;
  /** 1: Zulip's own JSON payload, 2: Slack's outgoing-webhook form */
  interface: number;
  /** sent with every request, so the bot's server can tell the requests are ours */
  token: string;
}

/**
 * A trigger waiting to be POSTed to an outgoing-webhook bot's service: written in the transaction
 * of the message that mentions or messages the bot, deleted in the one that posts the answer.
 */
export interface OutgoingWebhookJobTable {
  id: Generated<number>;
  realm_id: number;
  bot_id: number;
  message_id: number;
  /** "mention" or "private_message" */
  trigger: string;
  /** failed tries so far (timeouts and connection errors are tried again) */
  attempts: number;
  next_attempt_at: number;
  /** a worker holds the job until then; an expired claim (a crash) lets another take it */
  claimed_until: number;
}

/** A bot's stored state (PUT /bot_storage): one row per key. */
export interface BotStorageTable {
  user_id: number;
  key: string;
  value: string;
}

/** A phone registered for push notifications (POST /users/me/apns_device_token and the like). */
export interface PushDeviceTokenTable {
  user_id: number;
  /** 1: APNs (iOS), 2: FCM/GCM (Android), as the reference's PushDeviceToken.kind */
  kind: number;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

/** One row per person who set a status; empty strings are unset parts. */
export interface UserStatusTable {
  user_id: number;
  realm_id: number;
  away: Bool;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** Email invitations and reusable invitation links (`is_multiuse`). */
export interface InviteTable {
  id: Generated<number>;
  realm_id: number;
  is_multiuse: Bool;
  /** null for reusable links */
  email: string | null;
  invited_by: number;
  invited_as: number;
  /** JSON list of stream ids to subscribe the new user to */
  stream_ids: string;
  include_realm_default_subscriptions: Bool;
  notify_referrer_on_join: Bool;
  /** the secret in the invitation link */
  link_key: string;
  created: number;
  /** null: never expires */
  expiry: number | null;
  /** 0 pending, 1 accepted, 2 revoked */
  status: number;
}

export interface ScheduledMessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  /** 'stream' or 'private' */
  type: string;
  stream_id: number | null;
  /** JSON: the stream id, or the list of recipient user ids */
  to_ids: string;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  sending_client: string;
  read_by_sender: Bool | null;
  delivered: Bool;
  delivered_message_id: number | null;
  failed: Bool;
  failure_message: string | null;
}

export interface DefaultStreamGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
}

export interface DefaultStreamGroupStreamTable {
  group_id: number;
  stream_id: number;
}

export interface EmailChangeTable {
  token: string;
  user_id: number;
  new_email: string;
  created: number;
}

/** A sign-up through a reusable link, waiting for the address to be confirmed from its mailbox. */
export interface SignupConfirmationTable {
  id: Generated<number>;
  realm_id: number;
  invite_id: number;
  /** the address typed in the link's form, validated and lower-cased */
  email: string;
  /** SHA-256 (hex) of the secret in the mailed link: the database alone gives no usable links */
  key_hash: string;
  created: number;
  expiry: number;
  used: Bool;
}

export interface ReactionTable {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface MessageEditTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  timestamp: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  prev_topic: string | null;
  prev_stream_id: number | null;
  topic: string | null;
  stream_id: number | null;
}

export type Bool = 0 | 1;

export interface RealmTable {
  id: Generated<number>;
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: Bool;
  /** JSON object of realm settings overriding the defaults in actions/realm-settings.ts */
  settings: string;
}

export interface UserTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  password_hash: string | null;
  api_key: string;
  role: number;
  is_bot: Bool;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: Bool;
  date_joined: number;
  timezone: string;
  avatar_version: number;
  /** JSON object of user settings overriding the defaults */
  settings: string;
}

export interface StreamTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: Bool;
  is_web_public: Bool;
  history_public_to_subscribers: Bool;
  stream_post_policy: number;
  message_retention_days: number | null;
  date_created: number;
  can_remove_subscribers_group: number;
  creator_id: number | null;
  deactivated: Bool;
}

export interface SubscriptionTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  active: Bool;
  color: string;
  is_muted: Bool;
  pin_to_top: Bool;
  desktop_notifications: Bool | null;
  audible_notifications: Bool | null;
  push_notifications: Bool | null;
  email_notifications: Bool | null;
  wildcard_mentions_notify: Bool | null;
}

export interface MessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  /** 'stream' or 'private' */
  type: string;
  stream_id: number | null;
  topic: string;
  /** lower-cased topic, for case-insensitive topic narrows */
  topic_key: string;
  /** direct messages: the sorted participant ids, comma separated (sender included) */
  dm_key: string | null;
  content: string;
  rendered_content: string;
  /** what rendered_content holds: domain/message-content.ts CONTENT_FLAGS */
  content_flags: Generated<number>;
  date_sent: number;
  last_edit_time: number | null;
  sending_client: string;
}

export interface UserMessageTable {
  user_id: number;
  message_id: number;
  /** bit set of flags, see actions/flags.ts */
  flags: number;
}

export interface UserGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  is_system_group: Bool;
  can_mention_group: number | null;
  date_created: number;
  creator_id: number | null;
  deactivated: Bool;
}

export interface UserGroupMemberTable {
  group_id: number;
  user_id: number;
}

export interface UserGroupSubgroupTable {
  group_id: number;
  subgroup_id: number;
}

export interface DefaultStreamTable {
  realm_id: number;
  stream_id: number;
}

export interface DraftTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  timestamp: number;
}

export interface CustomProfileFieldTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  order: number;
  display_in_profile_summary: Bool;
  required: Bool;
  editable_by_user: Bool;
}

export interface CustomProfileValueTable {
  field_id: number;
  user_id: number;
  value: string;
  rendered_value: string | null;
}

export interface LinkifierTable {
  id: Generated<number>;
  realm_id: number;
  pattern: string;
  url_template: string;
  order: number;
}

export interface AlertWordTable {
  user_id: number;
  word: string;
}

export interface UserTopicTable {
  user_id: number;
  stream_id: number;
  topic: string;
  topic_key: string;
  visibility_policy: number;
  last_updated: number;
}

export interface MutedUserTable {
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

/** A user's latest presence; `update_id` grows with every change (presence_last_update_id). */
export interface PresenceTable {
  user_id: number;
  realm_id: number;
  /** 0: never reported active */
  last_active_time: number;
  last_connected_time: number;
  update_id: number;
}

/** An uploaded file; its bytes are kept at `uploads/<path_id>` of the file store (AppContext.files). */
export interface AttachmentTable {
  id: Generated<number>;
  realm_id: number;
  owner_id: number;
  /** `<realm_id>/<2 hex>/<24 random>/<sanitized name>`: the URL path after /user_uploads/ */
  path_id: string;
  /** the name the client gave, NUL bytes removed */
  file_name: string;
  size: number;
  content_type: string;
  create_time: number;
  /** the newest message id when the file arrived (read by nothing since claims replaced scanning messages) */
  message_id_floor: number;
}

/**
 * A message that claims an upload: it links the file and its sender could read it. Readers of the
 * message may read the file. Keyed (attachment_id, message_id), indexed the other way round too.
 */
export interface AttachmentClaimTable {
  attachment_id: number;
  message_id: number;
}

/** A custom emoji; its image lives under `<dataDir>/avatars/<realm_id>/emoji/images/<file_name>`. */
export interface RealmEmojiTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  author_id: number | null;
  /** `<id>.<ext>`; empty until the image is stored */
  file_name: string;
  deactivated: Bool;
}

export type Realm = Selectable<RealmTable>;
export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Stream = Selectable<StreamTable>;
export type Subscription = Selectable<SubscriptionTable>;
export type Message = Selectable<MessageTable>;
export type UserGroup = Selectable<UserGroupTable>;
export type Attachment = Selectable<AttachmentTable>;
export type RealmEmoji = Selectable<RealmEmojiTable>;
