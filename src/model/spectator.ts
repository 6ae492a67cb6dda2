/**
 * A spectator (someone reading web-public channels without an account) registers without
 * credentials and gets a slim snapshot: no queue, no user, no settings. This fills in what an
 * account would have, empty, and shows each web-public channel as if subscribed, so that every
 * screen that reads the account state works unchanged, read-only.
 */
import type { RegisterResponse, RegisterUserSettings, Stream, Subscription } from '../api/model';
import { defaultUserSettings } from '../api/model/user-settings';

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
