/** Bindings for the user's own settings. */
import type { ApiConnection } from '../connection';
import type { UserSettings } from '../model';

/** What PATCH /settings accepts: the account fields and any personal setting of the shared list. */
export interface SettingsChanges extends Partial<UserSettings> {
  full_name?: string;
  old_password?: string;
  new_password?: string;
}

/** PATCH /settings: the changes apply at once; the new values arrive as user_settings events. */
export function updateSettings(connection: ApiConnection, changes: SettingsChanges) {
  return connection.request<{ ignored_parameters_unsupported?: string[] }>('PATCH', '/settings', {
    ...changes,
  });
}
