/** Bindings for users. */
import type { ApiConnection } from '../connection';
import type { OwnUser, User } from '../model';

/** GET /users */
export function getUsers(connection: ApiConnection, options: { client_gravatar?: boolean } = {}) {
  return connection.request<{ members: User[] }>('GET', '/users', options);
}

/** GET /users/me */
export function getOwnUser(connection: ApiConnection) {
  return connection.request<OwnUser>('GET', '/users/me');
}

/** POST /users/me/muted_users/{muted_user_id} */
export function muteUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('POST', `/users/me/muted_users/${userId}`);
}

/** DELETE /users/me/muted_users/{muted_user_id} */
export function unmuteUser(connection: ApiConnection, userId: number) {
  return connection.request<object>('DELETE', `/users/me/muted_users/${userId}`);
}

/** POST /users/me/presence: reports this client; `ping_only` asks for no one else's presence back. */
export function reportPresence(
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
