/**
 * The organization's user groups, system groups included, with their direct members and
 * subgroups kept as ascending id lists.
 */
import type { RegisterResponse, UserGroup, UserGroupEvent } from '../api/model';
import { sameJson } from './same-json';
import { insertAllSorted, removeIds } from './sorted-ids';

export interface UserGroupsState {
  byId: Readonly<Record<number, UserGroup>>;
}

const ascending = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

function normalized(group: UserGroup): UserGroup {
  return {
    ...group,
    members: ascending(group.members),
    direct_subgroup_ids: ascending(group.direct_subgroup_ids ?? []),
  };
}

export function userGroupsFromSnapshot(register: RegisterResponse): UserGroupsState {
  const byId: Record<number, UserGroup> = {};
  for (const group of register.realm_user_groups ?? []) byId[group.id] = normalized(group);
  return { byId };
}

export function reduceUserGroups(state: UserGroupsState, event: UserGroupEvent): UserGroupsState {
  switch (event.op) {
    case 'add':
      return { byId: { ...state.byId, [event.group.id]: normalized(event.group) } };
    case 'update':
      return updateGroup(state, event.group_id, (group) => {
        const changed = Object.entries(event.data).some(
          ([key, value]) => !sameJson(group[key], value),
        );
        return changed ? { ...group, ...event.data } : group;
      });
    case 'add_members':
    case 'remove_members':
      return updateGroup(state, event.group_id, (group) => {
        const members =
          event.op === 'add_members'
            ? insertAllSorted(group.members, event.user_ids)
            : removeIds(group.members, new Set(event.user_ids));
        return members === group.members ? group : { ...group, members: [...members] };
      });
    case 'add_subgroups':
    case 'remove_subgroups':
      return updateGroup(state, event.group_id, (group) => {
        const subgroups =
          event.op === 'add_subgroups'
            ? insertAllSorted(group.direct_subgroup_ids, event.direct_subgroup_ids)
            : removeIds(group.direct_subgroup_ids, new Set(event.direct_subgroup_ids));
        return subgroups === group.direct_subgroup_ids
          ? group
          : { ...group, direct_subgroup_ids: [...subgroups] };
      });
    case 'remove': {
      if (!(event.group_id in state.byId)) return state;
      const byId = { ...state.byId };
      delete byId[event.group_id];
      return { byId };
    }
  }
}

function updateGroup(
  state: UserGroupsState,
  groupId: number,
  update: (group: UserGroup) => UserGroup,
): UserGroupsState {
  const group = state.byId[groupId];
  if (!group) return state;
  const next = update(group);
  return next === group ? state : { byId: { ...state.byId, [groupId]: next } };
}

/** Everyone in the group, through its subgroups at any depth. */
export function groupMembersDeep(state: UserGroupsState, groupId: number): Set<number> {
  const members = new Set<number>();
  const seen = new Set<number>();
  const pending = [groupId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = state.byId[id];
    if (!group) continue;
    for (const member of group.members) members.add(member);
    pending.push(...group.direct_subgroup_ids);
  }
  return members;
}

/** Groups people made (not the role-based system groups), by name. */
export function namedUserGroups(state: UserGroupsState): UserGroup[] {
  return Object.values(state.byId)
    .filter((group) => !group.is_system_group && !group.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));
}

const containingCache = new WeakMap<UserGroupsState, Map<number, readonly number[]>>();

/** The ids of the groups that hold the user, directly or through subgroups, ascending. */
export function groupsContainingUser(state: UserGroupsState, userId: number): readonly number[] {
  let byUser = containingCache.get(state);
  if (!byUser) containingCache.set(state, (byUser = new Map()));
  const known = byUser.get(userId);
  if (known) return known;
  const ids = Object.values(state.byId)
    .filter((group) => groupMembersDeep(state, group.id).has(userId))
    .map((group) => group.id)
    .sort((a, b) => a - b);
  byUser.set(userId, ids);
  return ids;
}
