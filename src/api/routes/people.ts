/** Bindings for a person's own profile: status, avatar and custom profile field values. */
import type { ApiConnection } from '../connection';
import type { UserStatusChange } from '../model';

/** POST /users/me/status: only the parts given change; empty strings clear them. */
export function updateStatus(connection: ApiConnection, change: UserStatusChange) {
  return connection.request<object>('POST', '/users/me/status', { ...change });
}

/** POST /users/me/avatar (multipart, one image): the new `avatar_url`. */
export function uploadAvatar(connection: ApiConnection, file: Blob, filename: string) {
  return connection.upload<{ avatar_url: string }>('/users/me/avatar', file, filename);
}

/** DELETE /users/me/avatar: back to the generated avatar. */
export function deleteAvatar(connection: ApiConnection) {
  return connection.request<{ avatar_url: string }>('DELETE', '/users/me/avatar');
}

/** PATCH /users/me/profile_data: set values (a JSON list of `{id, value}`). */
export function updateProfileData(
  connection: ApiConnection,
  data: readonly { id: number; value: string | number[] }[],
) {
  return connection.request<object>('PATCH', '/users/me/profile_data', { data: [...data] });
}

/** DELETE /users/me/profile_data: clear values by field id. */
export function removeProfileData(connection: ApiConnection, fieldIds: readonly number[]) {
  return connection.request<object>('DELETE', '/users/me/profile_data', { data: [...fieldIds] });
}
