/** Every user of the organization the client can see, active or not. */
import type {
  CustomProfileFieldChange,
  ProfileValue,
  RealmUserEvent,
  RegisterResponse,
  User,
} from '../api/model';

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
      const { custom_profile_field: fieldChange, new_email: newEmail, ...rest } = event.person;
      // An avatar change also names the avatar's source and medium-size address, which are not
      // part of a user in register's answer: keep the user's shape the same either way.
      const known: Record<string, unknown> = { ...rest };
      delete known.avatar_source;
      delete known.avatar_url_medium;
      const changes = (
        newEmail === undefined ? known : { ...known, email: newEmail }
      ) as Partial<User>;
      const changed = Object.entries(changes).some(
        ([key, value]) => user[key as keyof User] !== value,
      );
      let next = changed ? { ...user, ...changes } : user;
      if (fieldChange) next = withProfileValue(next, fieldChange);
      return next === user ? state : { byId: { ...state.byId, [user.user_id]: next } };
    }
    case 'remove': {
      // Upstream sends remove when a user becomes inaccessible; we keep the name for old messages.
      const user = state.byId[event.person.user_id];
      if (!user || !user.is_active) return state;
      return { byId: { ...state.byId, [user.user_id]: { ...user, is_active: false } } };
    }
  }
}

function withProfileValue(user: User, change: CustomProfileFieldChange): User {
  const key = String(change.id);
  const data = user.profile_data ?? {};
  if (change.value === null) {
    if (!(key in data)) return user;
    const rest = { ...data };
    delete rest[key];
    return { ...user, profile_data: rest };
  }
  const value: ProfileValue = { value: change.value };
  if (change.rendered_value != null) value.rendered_value = change.rendered_value;
  const current = data[key];
  if (current?.value === value.value && current.rendered_value === value.rendered_value)
    return user;
  return { ...user, profile_data: { ...data, [key]: value } };
}

/**
 * After a field definition is deleted its values are gone too; the definitions event is all the
 * server sends, so values of fields that no longer exist are dropped here.
 */
export function keepProfileFields(state: UsersState, fieldIds: ReadonlySet<number>): UsersState {
  let byId = state.byId;
  for (const user of Object.values(state.byId)) {
    const data = user.profile_data;
    if (!data || Object.keys(data).every((key) => fieldIds.has(Number(key)))) continue;
    const kept = Object.fromEntries(
      Object.entries(data).filter(([key]) => fieldIds.has(Number(key))),
    );
    byId = { ...byId, [user.user_id]: { ...user, profile_data: kept } };
  }
  return byId === state.byId ? state : { byId };
}

export function displayName(users: UsersState, userId: number, fallback = 'Unknown user'): string {
  return users.byId[userId]?.full_name ?? fallback;
}
