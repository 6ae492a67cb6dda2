import { describe, expect, it } from 'vitest';
import type { UserGroup } from '../../api/model';
import { ROLE } from '../../api/model/user';
import { userGroupsFromSnapshot } from '../../model/user-groups';
import { eg } from '../../test/eg';
import { mayCreateGroups, mayManageGroup } from './permissions';

const groups = userGroupsFromSnapshot(
  eg.registerResponse({
    realm_user_groups: [
      {
        id: 10,
        name: 'role:administrators',
        description: '',
        members: [5],
        direct_subgroup_ids: [],
        is_system_group: true,
      },
    ],
  }),
);
const now = Date.parse('2024-03-01T00:00:00Z');
const person = (role: number, joined = '2024-01-01T00:00:00Z') => ({
  user_id: 7,
  role,
  date_joined: joined,
});
const support: UserGroup = {
  id: 20,
  name: 'support',
  description: '',
  members: [7],
  direct_subgroup_ids: [],
  is_system_group: false,
};

describe('who may create user groups', () => {
  it('follows user_group_edit_policy, and never lets guests', () => {
    const policy = (p: number) => ({ user_group_edit_policy: p, waiting_period_threshold: 0 });
    expect(mayCreateGroups(policy(1), person(ROLE.MEMBER), groups, now)).toBe(true);
    expect(mayCreateGroups(policy(1), person(ROLE.GUEST), groups, now)).toBe(false);
    expect(mayCreateGroups(policy(2), person(ROLE.MODERATOR), groups, now)).toBe(false);
    expect(mayCreateGroups(policy(2), person(ROLE.ADMINISTRATOR), groups, now)).toBe(true);
    expect(mayCreateGroups(policy(4), person(ROLE.MEMBER), groups, now)).toBe(false);
    expect(mayCreateGroups(policy(4), person(ROLE.MODERATOR), groups, now)).toBe(true);
  });

  it('makes new members wait the waiting period under the full-members policy', () => {
    const settings = { user_group_edit_policy: 3, waiting_period_threshold: 10 };
    expect(
      mayCreateGroups(settings, person(ROLE.MEMBER, '2024-02-25T00:00:00Z'), groups, now),
    ).toBe(false);
    expect(
      mayCreateGroups(settings, person(ROLE.MEMBER, '2024-02-01T00:00:00Z'), groups, now),
    ).toBe(true);
  });

  it('uses can_create_groups where a newer server sends it', () => {
    const settings = { can_create_groups: 10, user_group_edit_policy: 1 };
    expect(mayCreateGroups(settings, person(ROLE.MEMBER), groups, now)).toBe(false);
    expect(mayCreateGroups(settings, { ...person(ROLE.MEMBER), user_id: 5 }, groups, now)).toBe(
      true,
    );
  });
});

describe('who may manage a user group', () => {
  const settings = { user_group_edit_policy: 1 };

  it("lets the group's own members, moderators and administrators", () => {
    expect(mayManageGroup(support, settings, person(ROLE.MEMBER), groups, now)).toBe(true);
    const outsider = { ...person(ROLE.MEMBER), user_id: 8 };
    expect(mayManageGroup(support, settings, outsider, groups, now)).toBe(false);
    const moderator = { ...person(ROLE.MODERATOR), user_id: 8 };
    expect(mayManageGroup(support, settings, moderator, groups, now)).toBe(true);
  });

  it('still needs the organization policy, and leaves system groups alone', () => {
    const adminsOnly = { user_group_edit_policy: 2 };
    expect(mayManageGroup(support, adminsOnly, person(ROLE.MEMBER), groups, now)).toBe(false);
    const system = { ...support, is_system_group: true };
    expect(mayManageGroup(system, settings, person(ROLE.OWNER), groups, now)).toBe(false);
  });

  it('uses can_manage_group and can_manage_all_groups where a newer server sends them', () => {
    const managed = {
      ...support,
      members: [],
      can_manage_group: { direct_members: [7], direct_subgroups: [] },
    };
    expect(mayManageGroup(managed, settings, person(ROLE.MEMBER), groups, now)).toBe(true);
    const other = { ...person(ROLE.MEMBER), user_id: 5 };
    expect(mayManageGroup(managed, { can_manage_all_groups: 10 }, other, groups, now)).toBe(true);
    expect(
      mayManageGroup(managed, { can_manage_all_groups: 10 }, { ...other, user_id: 6 }, groups, now),
    ).toBe(false);
  });
});
