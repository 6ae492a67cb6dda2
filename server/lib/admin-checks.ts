import type { Realm, User } from '../db/schema.js';
import { parseClientJson } from '../domain/client-json.js';
import { DomainError } from '../domain/errors.js';
import { isAdmin, isGuest, isModeratorOrAbove, isOwner, ROLE } from '../domain/roles.js';
import { realmSettings } from './realm.js';

/**
 * Permission rules shared by the organization-administration actions: the role requirements
 * with the error codes Zulip uses for them, full membership and the integer policies.
 */

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Ids and timestamps are 32-bit integer columns; larger numbers name nothing (and PostgreSQL refuses them). */
export const MAX_DB_INT = 2147483647;
export const isDbId = (n: number) => Number.isSafeInteger(n) && n >= 1 && n <= MAX_DB_INT;

export const adminRequired = () =>
  new DomainError('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL', 400);
export const ownerRequired = () =>
  new DomainError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL', 400);

export function requireAdmin(user: User) {
  if (!isAdmin(user)) throw adminRequired();
}

/** Changing someone else's account: upstream refuses with a plain "Insufficient permission". */
export function requireUserAdmin(user: User) {
  if (!isAdmin(user)) throw new DomainError('Insufficient permission', 'BAD_REQUEST', 400);
}

export function requireOwner(user: User) {
  if (!isOwner(user)) throw ownerRequired();
}

/** Moderators and up always; members once their account is older than the waiting period. */
export function isFullMember(realm: Realm, user: User, now = nowSeconds()): boolean {
  if (isModeratorOrAbove(user)) return true;
  if (user.role !== ROLE.MEMBER) return false;
  return now - user.date_joined >= realmSettings(realm).waiting_period_threshold * 86400;
}

/**
 * The organization's integer policies: 1 members, 2 administrators, 3 full members,
 * 4 moderators, 5 everyone (guests included), 6 nobody, 7 owners.
 */
export function passesPolicy(realm: Realm, user: User, policy: number): boolean {
  switch (policy) {
    case 1:
      return !isGuest(user);
    case 2:
      return isAdmin(user);
    case 3:
      return isFullMember(realm, user);
    case 4:
      return isModeratorOrAbove(user);
    case 5:
      return true;
    case 7:
      return isOwner(user);
    default:
      return false;
  }
}

/** Membership of a role-based system group, named as in SYSTEM_GROUPS. */
export function inSystemGroup(realm: Realm, user: User, name: string): boolean {
  switch (name) {
    case 'role:internet':
    case 'role:everyone':
      return true;
    case 'role:members':
      return !isGuest(user);
    case 'role:fullmembers':
      return isFullMember(realm, user);
    case 'role:moderators':
      return isModeratorOrAbove(user);
    case 'role:administrators':
      return isAdmin(user);
    case 'role:owners':
      return isOwner(user);
    default:
      return false;
  }
}

/** Form values that the real API JSON-encodes but clients also send bare ("unlimited"). */
export function decodeLoose(raw: string): unknown {
  try {
    return parseClientJson(raw);
  } catch {
    return raw;
  }
}
