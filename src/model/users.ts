/** Every user of the organization the client can see, active or not. */
import type { RealmUserEvent, RegisterResponse, User } from '../api/model';

export interface UsersState {
  byId: Readonly<Record<number, User>>;
}

export function usersFromSnapshot(register: RegisterResponse): UsersState {
  const byId: Record<number, User> = {};
  for (const user of [...(register.realm_users ?? []), ...(register.realm_non_active_users ?? [])])
    byId[user.user_id] = user;
  return { byId };
}

export function reduceUsers(state: UsersState, event: RealmUserEvent): UsersState {
  switch (event.op) {
    case 'add':
      return { byId: { ...state.byId, [event.person.user_id]: event.person } };
    case 'update': {
      const user = state.byId[event.person.user_id];
      if (!user) return state;
      const changed = Object.entries(event.person).some(
        ([key, value]) => user[key as keyof User] !== value,
      );
      return changed
        ? { byId: { ...state.byId, [user.user_id]: { ...user, ...event.person } } }
        : state;
    }
    case 'remove': {
      // Upstream sends remove when a user becomes inaccessible; we keep the name for old messages.
      const user = state.byId[event.person.user_id];
      if (!user || !user.is_active) return state;
      return { byId: { ...state.byId, [user.user_id]: { ...user, is_active: false } } };
    }
  }
}

export function displayName(users: UsersState, userId: number, fallback = 'Unknown user'): string {
  return users.byId[userId]?.full_name ?? fallback;
}
