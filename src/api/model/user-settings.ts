/**
 * The personal settings (`PATCH /settings`, `user_settings` in /register and its events), as one
 * list that both sides derive from. The server builds its defaults, parameter list, validation,
 * register snapshot and legacy events from it; the client its `UserSettings` type and the names
 * `useUserSetting` accepts.
 *
 * Adding a setting means adding one entry here, nothing else: server/test/user-settings-list.test.ts
 * checks that PATCH /settings accepts exactly these names and that register returns exactly these
 * keys with these defaults. A `check` names a server-side rule (the language list, the time zone
 * database) because those tables are not part of the wire model.
 *
 * Flags:
 * - `legacy`: also sent at the top level of /register to clients without `user_settings_object`
 *   (the reference server's frozen display and notification lists).
 * - `notification`: its legacy event is `update_global_notifications`, not `update_display_settings`.
 * - `realmUser`: stored on the user row, part of the user object too: a change is also announced as a
 *   `realm_user` update, and it has no organization-level default.
 *   (The one exception to "one list": such a setting needs its column on `users`, like `timezone`.)
 */

/** The server-side rules a string setting can name. */
export type UserSettingCheck = 'language' | 'timezone' | 'notification_sound';

type NoFlags = Record<never, never>;

interface Flags {
  legacy?: true;
  notification?: true;
  realmUser?: true;
}

type BoolSpec = { kind: 'bool'; default: boolean };
type IntSpec = { kind: 'int'; min: number; max: number; default: number };
type EnumSpec<V extends number | string> = { kind: 'enum'; values: readonly V[]; default: V };
type StringSpec = { kind: 'string'; check: UserSettingCheck; default: string };
export type UserSettingSpec = (
  BoolSpec | IntSpec | EnumSpec<number> | EnumSpec<string> | StringSpec
) &
  Flags;

const bool = <const F extends Flags = NoFlags>(dflt: boolean, flags?: F) =>
  ({ kind: 'bool', default: dflt, ...flags }) as BoolSpec & F;
const int = <const F extends Flags = NoFlags>(min: number, max: number, dflt: number, flags?: F) =>
  ({ kind: 'int', min, max, default: dflt, ...flags }) as IntSpec & F;
const oneOf = <const V extends number | string, const F extends Flags = NoFlags>(
  values: readonly V[],
  dflt: NoInfer<V>,
  flags?: F,
) => ({ kind: 'enum', values, default: dflt, ...flags }) as EnumSpec<V> & F;
const checked = <const F extends Flags = NoFlags>(
  check: UserSettingCheck,
  dflt: string,
  flags?: F,
) => ({ kind: 'string', check, default: dflt, ...flags }) as StringSpec & F;

const LEGACY = { legacy: true } as const;
const LEGACY_NOTIFICATION = { legacy: true, notification: true } as const;
const NOTIFICATION = { notification: true } as const;

/** In the order the register snapshot lists them. */
export const USER_SETTINGS = {
  twenty_four_hour_time: bool(false, LEGACY),
  dense_mode: bool(true, LEGACY),
  starred_message_counts: bool(true, LEGACY),
  fluid_layout_width: bool(false, LEGACY),
  high_contrast_mode: bool(false, LEGACY),
  color_scheme: oneOf([1, 2, 3], 1, LEGACY),
  translate_emoticons: bool(false, LEGACY),
  display_emoji_reaction_users: bool(true),
  default_language: checked('language', 'en', LEGACY),
  web_home_view: oneOf(['recent_topics', 'inbox', 'all_messages'], 'inbox', LEGACY),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false, LEGACY),
  emojiset: oneOf(['google', 'google-blob', 'twitter', 'text'], 'google', LEGACY),
  demote_inactive_streams: oneOf([1, 2, 3], 1, LEGACY),
  user_list_style: oneOf([1, 2, 3], 2),
  web_animate_image_previews: oneOf(['always', 'on_hover', 'never'], 'on_hover'),
  web_stream_unreads_count_display_policy: oneOf([1, 2, 3], 2),
  web_mark_read_on_scroll_policy: oneOf([1, 2, 3], 1),
  web_channel_default_view: oneOf([1, 2, 3, 4], 1),
  web_font_size_px: int(12, 20, 14),
  web_line_height_percent: int(122, 158, 122),
  web_navigate_to_sent_message: bool(true),
  web_suggest_update_timezone: bool(true),
  enable_drafts_synchronization: bool(true, LEGACY),
  enable_stream_desktop_notifications: bool(false, LEGACY_NOTIFICATION),
  enable_stream_email_notifications: bool(false, LEGACY_NOTIFICATION),
  enable_stream_push_notifications: bool(false, LEGACY_NOTIFICATION),
  enable_stream_audible_notifications: bool(false, LEGACY_NOTIFICATION),
  notification_sound: checked('notification_sound', 'zulip', LEGACY_NOTIFICATION),
  enable_desktop_notifications: bool(true, LEGACY_NOTIFICATION),
  enable_sounds: bool(true, LEGACY_NOTIFICATION),
  email_notifications_batching_period_seconds: int(120, 7 * 86400, 120, LEGACY_NOTIFICATION),
  enable_offline_email_notifications: bool(true, LEGACY_NOTIFICATION),
  enable_offline_push_notifications: bool(true, LEGACY_NOTIFICATION),
  enable_online_push_notifications: bool(true, LEGACY_NOTIFICATION),
  enable_digest_emails: bool(true, LEGACY_NOTIFICATION),
  enable_marketing_emails: bool(true, LEGACY_NOTIFICATION),
  enable_login_emails: bool(true, LEGACY_NOTIFICATION),
  message_content_in_email_notifications: bool(true, LEGACY_NOTIFICATION),
  pm_content_in_desktop_notifications: bool(true, LEGACY_NOTIFICATION),
  wildcard_mentions_notify: bool(true, LEGACY_NOTIFICATION),
  enable_followed_topic_desktop_notifications: bool(true, NOTIFICATION),
  enable_followed_topic_email_notifications: bool(true, NOTIFICATION),
  enable_followed_topic_push_notifications: bool(true, NOTIFICATION),
  enable_followed_topic_audible_notifications: bool(true, NOTIFICATION),
  enable_followed_topic_wildcard_mentions_notify: bool(true, NOTIFICATION),
  desktop_icon_count_display: oneOf([1, 2, 3], 1, LEGACY_NOTIFICATION),
  realm_name_in_email_notifications_policy: oneOf([1, 2, 3], 1, LEGACY_NOTIFICATION),
  automatically_follow_topics_policy: oneOf([1, 2, 3, 4], 3),
  automatically_unmute_topics_in_muted_streams_policy: oneOf([1, 2, 3, 4], 3),
  automatically_follow_topics_where_mentioned: bool(true),
  presence_enabled: bool(true, LEGACY_NOTIFICATION),
  enter_sends: bool(true, LEGACY),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  receives_typing_notifications: bool(true),
  allow_private_data_export: bool(false),
  email_address_visibility: oneOf([1, 2, 3, 4, 5], 1),
  hide_ai_features: bool(false),
  resolved_topic_notice_auto_read_policy: oneOf(
    ['always', 'except_followed', 'never'],
    'except_followed',
  ),
  web_left_sidebar_unreads_count_summary: bool(true),
  web_left_sidebar_show_channel_folders: bool(true),
  // '' means unset: the user row's column default.
  timezone: checked('timezone', '', { legacy: true, realmUser: true }),
} satisfies Record<string, UserSettingSpec>;

type Specs = typeof USER_SETTINGS;
export type UserSettingName = keyof Specs;

/** The wire type of one setting's value. */
type ValueOf<S> = S extends { kind: 'bool' }
  ? boolean
  : S extends { kind: 'enum'; values: readonly (infer V)[] }
    ? V
    : S extends { kind: 'int' }
      ? number
      : string;

/** Every personal setting with its value, as `user_settings` in /register carries it. */
export type UserSettings = { [K in UserSettingName]: ValueOf<Specs[K]> };

/** The settings that are also properties of the user object (`realm_user`). */
export type RealmUserSettingName = {
  [K in UserSettingName]: Specs[K] extends { realmUser: true } ? K : never;
}[UserSettingName];

/** The `user_settings` object of /register: the settings plus the choices the server offers. */
export interface RegisterUserSettings extends UserSettings {
  available_notification_sounds: string[];
  emojiset_choices: { key: string; text: string }[];
}

export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];

/** Every setting at its default. */
export function defaultUserSettings(): UserSettings {
  return Object.fromEntries(
    USER_SETTING_NAMES.map((name) => [name, USER_SETTINGS[name].default]),
  ) as UserSettings;
}
