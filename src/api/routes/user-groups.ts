/** Bindings for user groups (the groups people make; system groups follow roles). */
import type { ApiConnection } from '../connection';

/** POST /user_groups/create */
export function createUserGroup(
  connection: ApiConnection,
  options: { name: string; description: string; members: number[]; can_mention_group?: number },
) {
  return connection.request<{ group_id?: number }>('POST', '/user_groups/create', options);
}

/** PATCH /user_groups/{user_group_id}: name, description or who may mention the group. */
export function updateUserGroup(
  connection: ApiConnection,
  groupId: number,
  options: { name?: string; description?: string; can_mention_group?: number },
) {
  return connection.request<object>('PATCH', `/user_groups/${groupId}`, options);
}

/** DELETE /user_groups/{user_group_id} */
export function deleteUserGroup(connection: ApiConnection, groupId: number) {
  return connection.request<object>('DELETE', `/user_groups/${groupId}`);
}

/** POST /user_groups/{user_group_id}/members */
export function updateUserGroupMembers(
  connection: ApiConnection,
  groupId: number,
  options: { add?: number[]; delete?: number[] },
) {
  return connection.request<object>('POST', `/user_groups/${groupId}/members`, options);
}

/** POST /user_groups/{user_group_id}/subgroups */
export function updateUserGroupSubgroups(
  connection: ApiConnection,
  groupId: number,
  options: { add?: number[]; delete?: number[] },
) {
  return connection.request<object>('POST', `/user_groups/${groupId}/subgroups`, options);
}
