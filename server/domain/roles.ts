import { ROLE } from '../../src/api/model/user.js';

// The role values are part of the wire format, defined once with the wire types.
export { ROLE };

export const VALID_ROLES: number[] = Object.values(ROLE);

interface HasRole {
  role: number;
}

export const isOwner = (u: HasRole) => u.role === ROLE.OWNER;
export const isAdmin = (u: HasRole) => u.role <= ROLE.ADMINISTRATOR;
export const isModeratorOrAbove = (u: HasRole) => u.role <= ROLE.MODERATOR;
export const isGuest = (u: HasRole) => u.role === ROLE.GUEST;

/** The system groups every organization has; membership follows the role. */
export const SYSTEM_GROUPS = [
  { name: 'role:internet', description: 'Everyone on the Internet', maxRole: null },
  { name: 'role:everyone', description: 'Everyone including guests', maxRole: ROLE.GUEST },
  { name: 'role:members', description: 'Everyone except guests', maxRole: ROLE.MEMBER },
  {
    name: 'role:fullmembers',
    description: 'Members of this organization, not including new accounts and guests',
    maxRole: ROLE.MEMBER,
  },
  {
    name: 'role:moderators',
    description: 'Moderators of this organization, including administrators',
    maxRole: ROLE.MODERATOR,
  },
  {
    name: 'role:administrators',
    description: 'Administrators of this organization, including owners',
    maxRole: ROLE.ADMINISTRATOR,
  },
  { name: 'role:owners', description: 'Owners of this organization', maxRole: ROLE.OWNER },
  { name: 'role:nobody', description: 'Nobody', maxRole: 0 },
] as const;
