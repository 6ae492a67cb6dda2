/** Bindings for organization administration. */
import type { ApiConnection } from '../connection';

/** POST /invites/multiuse: a reusable sign-up link. */
export function createInviteLink(
  connection: ApiConnection,
  options: {
    invite_as: number;
    invite_expires_in_minutes: number | null;
    include_realm_default_subscriptions: boolean;
  },
) {
  return connection.request<{ invite_link: string }>('POST', '/invites/multiuse', options);
}

/** DELETE /users/{user_id}: deactivates an account (its sessions and keys stop working). */
export function deactivateUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('DELETE', `/users/${userId}`);
}

/** POST /users/{user_id}/reactivate */
export function reactivateUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('POST', `/users/${userId}/reactivate`);
}
