/** Bindings for the user's own settings. */
import type { ApiConnection } from '../connection';

/** The settings PATCH /settings accepts, each with its wire type. */
export interface SettingsChanges {
  full_name?: string;
  old_password?: string;
  new_password?: string;
  color_scheme?: number;
  twenty_four_hour_time?: boolean;
  web_home_view?: string;
  enter_sends?: boolean;
  left_side_userlist?: boolean;
  default_language?: string;
  timezone?: string;
  send_private_typing_notifications?: boolean;
  send_stream_typing_notifications?: boolean;
  send_read_receipts?: boolean;
  enable_drafts_synchronization?: boolean;
  display_emoji_reaction_users?: boolean;
  enable_desktop_notifications?: boolean;
  pm_content_in_desktop_notifications?: boolean;
}

/** PATCH /settings: the changes apply at once; the new values arrive as user_settings events. */
export function updateSettings(connection: ApiConnection, changes: SettingsChanges) {
  return connection.request<{ ignored_parameters_unsupported?: string[] }>('PATCH', '/settings', {
    ...changes,
  });
}
