import { describe, expect, it } from 'vitest';
import type { UserGroup, UserGroupEvent } from '../api/model';
import { eg } from '../test/eg';
import {
  groupMembersDeep,
  groupsContainingUser,
  namedUserGroups,
  reduceUserGroups,
  userGroupsFromSnapshot,
  type UserGroupsState,
} from './user-groups';

const group = (overrides: Partial<UserGroup> & { id: number }): UserGroup => ({
  name: `group ${overrides.id}`,
  description: '',
  members: [],
  direct_subgroup_ids: [],
  is_system_group: false,
  ...overrides,
});

function initial(): UserGroupsState {
  return userGroupsFromSnapshot(
    eg.registerResponse({
      realm_user_groups: [
        group({ id: 1, name: 'role:members', is_system_group: true, members: [3, 1] }),
        group({ id: 2, name: 'actors', members: [2], direct_subgroup_ids: [3] }),
        group({ id: 3, name: 'crew', members: [4, 5], direct_subgroup_ids: [2] }),
      ],
    }),
  );
}

type Body<T> = T extends unknown ? Omit<T, 'id' | 'type'> : never;
const event = (e: Body<UserGroupEvent>) => ({ id: 1, type: 'user_group', ...e }) as UserGroupEvent;

describe('user groups', () => {
  it('keeps members in ascending order from the snapshot on', () => {
    const state = initial();
    expect(state.byId[1].members).toEqual([1, 3]);
    const added = reduceUserGroups(state, event({ op: 'add_members', group_id: 1, user_ids: [2] }));
    expect(added.byId[1].members).toEqual([1, 2, 3]);
    const removed = reduceUserGroups(
      added,
      event({ op: 'remove_members', group_id: 1, user_ids: [1, 3] }),
    );
    expect(removed.byId[1].members).toEqual([2]);
  });

  it('adds, renames and removes groups', () => {
    let state = reduceUserGroups(
      initial(),
      event({ op: 'add', group: group({ id: 7, name: 'ghosts', members: [9, 8] }) }),
    );
    expect(state.byId[7]).toMatchObject({ name: 'ghosts', members: [8, 9] });
    state = reduceUserGroups(
      state,
      event({ op: 'update', group_id: 7, data: { name: 'spirits', can_mention_group: 2 } }),
    );
    expect(state.byId[7]).toMatchObject({ name: 'spirits', can_mention_group: 2, members: [8, 9] });
    state = reduceUserGroups(state, event({ op: 'remove', group_id: 7 }));
    expect(state.byId[7]).toBeUndefined();
  });

  it('changes direct subgroups', () => {
    let state = reduceUserGroups(
      initial(),
      event({ op: 'add_subgroups', group_id: 1, direct_subgroup_ids: [3, 2] }),
    );
    expect(state.byId[1].direct_subgroup_ids).toEqual([2, 3]);
    state = reduceUserGroups(
      state,
      event({ op: 'remove_subgroups', group_id: 1, direct_subgroup_ids: [2] }),
    );
    expect(state.byId[1].direct_subgroup_ids).toEqual([3]);
  });

  it('returns the same state when an event changes nothing', () => {
    const state = initial();
    const same = [
      event({ op: 'add_members', group_id: 1, user_ids: [1] }),
      event({ op: 'remove_members', group_id: 2, user_ids: [7] }),
      event({ op: 'update', group_id: 2, data: { name: 'actors' } }),
      event({ op: 'add_members', group_id: 99, user_ids: [1] }),
      event({ op: 'remove', group_id: 99 }),
    ];
    for (const e of same) expect(reduceUserGroups(state, e)).toBe(state);
  });

  it('finds members through subgroups, even when groups contain each other', () => {
    expect([...groupMembersDeep(initial(), 2)].sort()).toEqual([2, 4, 5]);
  });

  it('lists the groups people made, by name', () => {
    expect(namedUserGroups(initial()).map((g) => g.name)).toEqual(['actors', 'crew']);
  });

  it('finds the groups holding a user through subgroups, again after a change', () => {
    const state = initial();
    expect(groupsContainingUser(state, 4)).toEqual([2, 3]);
    expect(groupsContainingUser(state, 1)).toEqual([1]);
    expect(groupsContainingUser(state, 9)).toEqual([]);
    const removed = reduceUserGroups(
      state,
      event({ op: 'remove_subgroups', group_id: 2, direct_subgroup_ids: [3] }),
    );
    expect(groupsContainingUser(removed, 4)).toEqual([3]);
  });
});
