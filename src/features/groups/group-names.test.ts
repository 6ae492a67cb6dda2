import { describe, expect, it } from 'vitest';
import type { UserGroup } from '../../api/model';
import { userGroupsFromSnapshot } from '../../model/user-groups';
import { eg } from '../../test/eg';
import {
  groupDisplayName,
  listedGroups,
  mentionSettingChoices,
  subgroupCandidates,
} from './group-names';

const group = (overrides: Partial<UserGroup> & { id: number; name: string }): UserGroup => ({
  description: '',
  members: [],
  direct_subgroup_ids: [],
  is_system_group: false,
  ...overrides,
});

const state = userGroupsFromSnapshot(
  eg.registerResponse({
    realm_user_groups: [
      group({ id: 1, name: 'role:owners', is_system_group: true }),
      group({ id: 2, name: 'role:everyone', is_system_group: true, members: [1] }),
      group({ id: 3, name: 'role:internet', is_system_group: true }),
      group({ id: 4, name: 'role:moderators', is_system_group: true }),
      group({ id: 10, name: 'support', description: 'Helps customers', members: [1, 2] }),
      group({ id: 11, name: 'design', members: [2], direct_subgroup_ids: [12] }),
      group({ id: 12, name: 'illustrators', members: [3] }),
    ],
  }),
);

describe('the groups list', () => {
  it("shows only groups people made, the user's own on the first tab", () => {
    expect(listedGroups(state, 'all', 1, '').map((g) => g.name)).toEqual([
      'design',
      'illustrators',
      'support',
    ]);
    expect(listedGroups(state, 'mine', 1, '').map((g) => g.name)).toEqual(['support']);
  });

  it('matches the search in names and descriptions', () => {
    expect(listedGroups(state, 'all', 1, 'CUSTOM').map((g) => g.name)).toEqual(['support']);
    expect(listedGroups(state, 'all', 1, 'ill').map((g) => g.name)).toEqual(['illustrators']);
    expect(listedGroups(state, 'mine', 3, 'support')).toEqual([]);
  });
});

describe('group names and choices', () => {
  it('names role groups by what they mean', () => {
    expect(groupDisplayName(state.byId[4]!)).toBe('Moderators and administrators');
    expect(groupDisplayName(state.byId[10]!)).toBe('support');
  });

  it('offers for mentions every role group but the internet and the owners, then the others', () => {
    expect(mentionSettingChoices(state).map((g) => g.name)).toEqual([
      'role:everyone',
      'role:moderators',
      'design',
      'illustrators',
      'support',
    ]);
  });

  it('never offers as a subgroup the group itself, a subgroup already, or one holding it', () => {
    expect(subgroupCandidates(state, state.byId[12]!).map((g) => g.name)).toEqual(['support']);
    expect(subgroupCandidates(state, state.byId[11]!).map((g) => g.name)).toEqual(['support']);
  });
});
