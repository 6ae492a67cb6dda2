/** Role names and the role rules of the reference server, as the screens offer them. */
import { ROLE } from '../../../api/model/user';
import { i18n } from '../../../i18n';

export const ROLES = [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR, ROLE.MEMBER, ROLE.GUEST];

/** A role's word in the translations (`adminUsers:roles.<key>`, `users.roleMeans.<key>`). */
export function roleKey(role: number) {
  switch (role) {
    case ROLE.OWNER:
      return 'owner';
    case ROLE.ADMINISTRATOR:
      return 'administrator';
    case ROLE.MODERATOR:
      return 'moderator';
    case ROLE.GUEST:
      return 'guest';
    default:
      return 'member';
  }
}

/** The role's name in the current language (call at render time). */
export function roleName(role: number): string {
  return i18n.t(`adminUsers:roles.${roleKey(role)}`);
}

/**
 * The roles an administrator may give someone, as the reference server decides: only owners make
 * or unmake owners, and the organization's last owner keeps the role. An empty list: the role
 * cannot be changed by this person.
 */
export function assignableRoles(
  actorRole: number,
  target: { role: number; user_id: number },
  ownerCount: number,
): number[] {
  if (actorRole > ROLE.ADMINISTRATOR) return [];
  const actorIsOwner = actorRole === ROLE.OWNER;
  if (target.role === ROLE.OWNER && (!actorIsOwner || ownerCount <= 1)) return [];
  return ROLES.filter((r) => r !== ROLE.OWNER || actorIsOwner);
}

/** Whether the actor may deactivate the target (owners only by owners; never the last owner). */
export function mayDeactivate(
  actorRole: number,
  actorId: number,
  target: { role: number; user_id: number },
  ownerCount: number,
): boolean {
  if (actorRole > ROLE.ADMINISTRATOR || target.user_id === actorId) return false;
  if (target.role === ROLE.OWNER) return actorRole === ROLE.OWNER && ownerCount > 1;
  return true;
}
