import {
  USER_SETTINGS,
  USER_SETTING_NAMES,
  type RealmUserSettingName,
  type UserSettings,
} from '../../src/api/model/user-settings.js';

export type { UserSettings };
/** The settings kept in the user row's JSON blob; the rest (timezone) are columns of their own. */
export type StoredUserSettings = Omit<UserSettings, RealmUserSettingName>;

/**
 * Defaults of the per-user settings, derived from the shared list (src/api/model/user-settings.ts).
 * Rows store only a JSON object of changed values; these fill the rest. Also what /register sends
 * as `realm_user_settings_defaults`, so settings that live on the user row are left out.
 */
export const USER_SETTING_DEFAULTS: StoredUserSettings = Object.fromEntries(
  USER_SETTING_NAMES.filter((name) => !('realmUser' in USER_SETTINGS[name])).map((name) => [
    name,
    USER_SETTINGS[name].default,
  ]),
) as StoredUserSettings;

export const AVAILABLE_NOTIFICATION_SOUNDS = ['zulip', 'ding', 'chime', 'none'];
export const EMOJISETS = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** Organization settings as stored; `realm_` is prefixed when sent to clients. */
export const REALM_SETTING_DEFAULTS = {
  invite_to_realm_policy: 1,
  invite_required: false,
  create_multiuse_invite_group_name: 'role:administrators',
  move_messages_between_streams_policy: 2,
  edit_topic_policy: 5,
  allow_message_editing: true,
  allow_edit_history: true,
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: null as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  delete_own_message_policy: 1,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  mandatory_topics: false,
  message_retention_days: -1,
  name_changes_disabled: false,
  avatar_changes_disabled: false,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  disallow_disposable_email_addresses: true,
  send_welcome_emails: true,
  message_content_allowed_in_email_notifications: true,
  enable_spectator_access: false,
  want_advertise_in_communities_directory: false,
  video_chat_provider: 1,
  jitsi_server_url: null as string | null,
  giphy_rating: 2,
  waiting_period_threshold: 0,
  digest_emails_enabled: false,
  digest_weekday: 1,
  private_message_policy: 1,
  user_group_edit_policy: 1,
  default_code_block_language: '',
  enable_read_receipts: true,
  presence_disabled: false,
  create_public_stream_policy: 1,
  create_private_stream_policy: 1,
  create_web_public_stream_policy: 7,
  invite_to_stream_policy: 1,
  add_custom_emoji_policy: 1,
  wildcard_mention_policy: 5,
  default_language: 'en',
  org_type: 0,
  plan_type: 1,
  enable_guest_user_indicator: true,
  enable_guest_user_dm_warning: true,
  require_unique_names: false,
  bot_creation_policy: 1,
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
  email_address_visibility: 1,
};
export type RealmSettings = typeof REALM_SETTING_DEFAULTS;

export function parseSettings<T extends object>(defaults: T, json: string): T {
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(json);
  } catch {
    /* a damaged blob falls back to the defaults */
  }
  return { ...defaults, ...stored } as T;
}
