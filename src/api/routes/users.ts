/**
 * Bindings for the API documentation's "Users" section: people and bots, the own account and its
 * settings, status, presence, typing notifications, muted users and user groups.
 */
import type { ApiConnection } from '../connection';
import type { OwnUser, User, UserSettings, UserStatusChange } from '../model';

/** GET /users: https://zulip.com/api/get-users */
export function getUsers(connection: ApiConnection, options: { client_gravatar?: boolean } = {}) {
  return connection.request<{ members: User[] }>('GET', '/users', options);
}

/** GET /users/me: https://zulip.com/api/get-own-user */
export function getOwnUser(connection: ApiConnection) {
  return connection.request<OwnUser>('GET', '/users/me');
}

/** PATCH /users/{user_id}: https://zulip.com/api/update-user (an administrator's changes) */
export function updateUser(
  connection: ApiConnection,
  userId: number,
  changes: { full_name?: string; role?: number },
) {
  return connection.request<object>('PATCH', `/users/${userId}`, changes);
}

/**
 * DELETE /users/{user_id}: https://zulip.com/api/deactivate-user
 * The account's sessions and keys stop working.
 */
export function deactivateUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('DELETE', `/users/${userId}`);
}

/** POST /users/{user_id}/reactivate: https://zulip.com/api/reactivate-user */
export function reactivateUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('POST', `/users/${userId}/reactivate`);
}

/**
 * DELETE /users/me: https://zulip.com/api/deactivate-own-user
 * Refused for the organization's last owner or last user.
 */
export function deactivateOwnUser(connection: ApiConnection) {
  return connection.request<object>('DELETE', '/users/me');
}

/**
 * POST /users/me/status: https://zulip.com/api/update-status
 * Only the parts given change; empty strings clear them.
 */
export function updateStatus(connection: ApiConnection, change: UserStatusChange) {
  return connection.request<object>('POST', '/users/me/status', { ...change });
}

/** What PATCH /settings accepts: the account fields and any personal setting of the shared list. */
export interface SettingsChanges extends Partial<UserSettings> {
  full_name?: string;
  /** a new address: the server mails a confirmation link to it and changes nothing yet */
  email?: string;
  old_password?: string;
  new_password?: string;
}

/**
 * PATCH /settings: https://zulip.com/api/update-settings
 * The changes apply at once; the new values arrive as user_settings events.
 */
export function updateSettings(connection: ApiConnection, changes: SettingsChanges) {
  return connection.request<{ ignored_parameters_unsupported?: string[] }>('PATCH', '/settings', {
    ...changes,
  });
}

/**
 * POST /users/me/alert_words: https://zulip.com/api/add-alert-words
 * The response lists all the words.
 */
export function addAlertWords(connection: ApiConnection, words: string[]) {
  return connection.request<{ alert_words: string[] }>('POST', '/users/me/alert_words', {
    alert_words: words,
  });
}

/**
 * DELETE /users/me/alert_words: https://zulip.com/api/remove-alert-words
 * The response lists the words left.
 */
export function removeAlertWords(connection: ApiConnection, words: string[]) {
  return connection.request<{ alert_words: string[] }>('DELETE', '/users/me/alert_words', {
    alert_words: words,
  });
}

export type TypingOptions =
  | { op: 'start' | 'stop'; type: 'direct'; to: number[] }
  | { op: 'start' | 'stop'; type: 'stream'; stream_id: number; topic: string };

/** POST /typing: https://zulip.com/api/set-typing-status */
export function setTypingStatus(connection: ApiConnection, options: TypingOptions) {
  return connection.request<object>('POST', '/typing', options);
}

/**
 * POST /users/me/presence: https://zulip.com/api/update-presence
 * Reports this client; `ping_only` asks for no one else's presence back.
 */
export function updatePresence(
  connection: ApiConnection,
  options: {
    status: 'active' | 'idle';
    new_user_input: boolean;
    ping_only: boolean;
    slim_presence: boolean;
  },
) {
  return connection.request<object>('POST', '/users/me/presence', options);
}

/** POST /users/me/muted_users/{muted_user_id}: https://zulip.com/api/mute-user */
export function muteUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('POST', `/users/me/muted_users/${userId}`);
}

/** DELETE /users/me/muted_users/{muted_user_id}: https://zulip.com/api/unmute-user */
export function unmuteUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('DELETE', `/users/me/muted_users/${userId}`);
}

/** POST /user_groups/create: https://zulip.com/api/create-user-group */
export function createUserGroup(
  connection: ApiConnection,
  options: { name: string; description: string; members: number[]; can_mention_group?: number },
) {
  return connection.request<{ group_id?: number }>('POST', '/user_groups/create', options);
}

/**
 * PATCH /user_groups/{user_group_id}: https://zulip.com/api/update-user-group
 * Its name, description or who may mention the group.
 */
export function updateUserGroup(
  connection: ApiConnection,
  groupId: number,
  options: { name?: string; description?: string; can_mention_group?: number },
) {
  return connection.request<object>('PATCH', `/user_groups/${groupId}`, options);
}

/**
 * DELETE /user_groups/{user_group_id} (no documentation page): servers at the reference's
 * feature level delete a group this way; newer ones deactivate it instead.
 */
export function deleteUserGroup(connection: ApiConnection, groupId: number) {
  return connection.request<object>('DELETE', `/user_groups/${groupId}`);
}

/** POST /user_groups/{user_group_id}/members: https://zulip.com/api/update-user-group-members */
export function updateUserGroupMembers(
  connection: ApiConnection,
  groupId: number,
  options: { add?: number[]; delete?: number[] },
) {
  return connection.request<object>('POST', `/user_groups/${groupId}/members`, options);
}

/** POST /user_groups/{user_group_id}/subgroups: https://zulip.com/api/update-user-group-subgroups */
export function updateUserGroupSubgroups(
  connection: ApiConnection,
  groupId: number,
  options: { add?: number[]; delete?: number[] },
) {
  return connection.request<object>('POST', `/user_groups/${groupId}/subgroups`, options);
}

// The avatar, profile data and bot endpoints below have no page in the API documentation; the
// reference server serves them to its own web app.

/** POST /users/me/avatar (no documentation page): one image, multipart; the new `avatar_url` */
export function uploadAvatar(connection: ApiConnection, file: Blob, filename: string) {
  return connection.upload<{ avatar_url: string }>('/users/me/avatar', file, filename);
}

/** DELETE /users/me/avatar (no documentation page): back to the generated avatar */
export function deleteAvatar(connection: ApiConnection) {
  return connection.request<{ avatar_url: string }>('DELETE', '/users/me/avatar');
}

/** PATCH /users/me/profile_data (no documentation page): sets values, a list of `{id, value}` */
export function updateProfileData(
  connection: ApiConnection,
  data: readonly { id: number; value: string | number[] }[],
) {
  return connection.request<object>('PATCH', '/users/me/profile_data', { data: [...data] });
}

/** DELETE /users/me/profile_data (no documentation page): clears values by field id */
export function removeProfileData(connection: ApiConnection, fieldIds: readonly number[]) {
  return connection.request<object>('DELETE', '/users/me/profile_data', { data: [...fieldIds] });
}

/**
 * POST /bots (no documentation page): a new bot owned by the caller, with its id and API key. An
 * outgoing webhook bot (bot_type 3) also takes the URL its mentions and direct messages are sent
 * to, and their format (`interface_type`: 1 generic, 2 Slack compatible). The server reads
 * `payload_url` as JSON, so the URL goes as a JSON string.
 */
export function createBot(
  connection: ApiConnection,
  options: {
    full_name: string;
    short_name: string;
    bot_type: number;
    payload_url?: string;
    interface_type?: number;
  },
) {
  const { payload_url, ...rest } = options;
  return connection.request<{ user_id: number; api_key: string }>('POST', '/bots', {
    ...rest,
    payload_url: payload_url === undefined ? undefined : JSON.stringify(payload_url),
  });
}

/**
 * PATCH /bots/{bot_id} (no documentation page): renames a bot or gives it to someone else; for an
 * outgoing webhook bot, a new URL (sent as a JSON string, as the server reads it) or format.
 */
export function updateBot(
  connection: ApiConnection,
  botId: number,
  changes: {
    full_name?: string;
    bot_owner_id?: number;
    service_payload_url?: string;
    service_interface?: number;
  },
) {
  const { service_payload_url, ...rest } = changes;
  return connection.request<object>('PATCH', `/bots/${botId}`, {
    ...rest,
    service_payload_url:
      service_payload_url === undefined ? undefined : JSON.stringify(service_payload_url),
  });
}

/** POST /bots/{bot_id}/api_key/regenerate (no documentation page): the old key stops at once */
export function regenerateBotKey(connection: ApiConnection, botId: number) {
  return connection.request<{ api_key: string }>('POST', `/bots/${botId}/api_key/regenerate`);
}

/** DELETE /bots/{bot_id} (no documentation page): its owner or an administrator deactivates it */
export function deactivateBot(connection: ApiConnection, botId: number) {
  return connection.request<object>('DELETE', `/bots/${botId}`);
}
