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
