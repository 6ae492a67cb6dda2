import { describe, expect, it } from 'vitest';
import { ROLE } from '../../../api/model/user';
import { assignableRoles, mayDeactivate } from './roles';

const member = { user_id: 5, role: ROLE.MEMBER };
const owner = { user_id: 1, role: ROLE.OWNER };

describe('assignableRoles', () => {
  it('offers administrators every role but owner, and nothing for an owner', () => {
    expect(assignableRoles(ROLE.ADMINISTRATOR, member, 2)).toEqual([
      ROLE.ADMINISTRATOR,
      ROLE.MODERATOR,
      ROLE.MEMBER,
      ROLE.GUEST,
    ]);
    expect(assignableRoles(ROLE.ADMINISTRATOR, owner, 2)).toEqual([]);
  });

  it('lets owners make owners, but not demote the last one', () => {
    expect(assignableRoles(ROLE.OWNER, member, 1)).toContain(ROLE.OWNER);
    expect(assignableRoles(ROLE.OWNER, owner, 2)).toContain(ROLE.MEMBER);
    expect(assignableRoles(ROLE.OWNER, owner, 1)).toEqual([]);
  });

  it('offers moderators and members nothing', () => {
    expect(assignableRoles(ROLE.MODERATOR, member, 1)).toEqual([]);
    expect(assignableRoles(ROLE.MEMBER, member, 1)).toEqual([]);
  });
});

describe('mayDeactivate', () => {
  it('follows the owner rules and never offers deactivating oneself', () => {
    expect(mayDeactivate(ROLE.ADMINISTRATOR, 2, member, 1)).toBe(true);
    expect(mayDeactivate(ROLE.ADMINISTRATOR, 2, owner, 2)).toBe(false);
    expect(mayDeactivate(ROLE.OWNER, 3, owner, 2)).toBe(true);
    expect(mayDeactivate(ROLE.OWNER, 3, owner, 1)).toBe(false);
    expect(mayDeactivate(ROLE.ADMINISTRATOR, 5, member, 1)).toBe(false);
    expect(mayDeactivate(ROLE.MEMBER, 2, member, 1)).toBe(false);
  });
});
