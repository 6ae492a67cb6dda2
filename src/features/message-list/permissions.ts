/**
 * What the current user may do to a message, from the organization's settings. The server has the
 * last word; these decide only which actions are offered, so a refused request is rare.
 */
import type { Message } from '../../api/model';
import { ROLE } from '../../api/model/user';

/**
 * The integer policies of the API: 1 members, 2 admins, 3 full members, 4 moderators, 5 everyone,
 * 6 nobody, 7 owners. A value this client does not know allows no one, as on the server; a
 * server that sends no value at all (one with group-based permissions) gets administrators.
 */
export function policyAllows(policy: unknown, role: number): boolean {
  switch (policy) {
    case 1:
    case 3: // full members: the waiting period is the server's to check
      return role <= ROLE.MEMBER;
    case 2:
      return role <= ROLE.ADMINISTRATOR;
    case 4:
      return role <= ROLE.MODERATOR;
    case 5:
      return true;
    case 7:
      return role <= ROLE.OWNER;
    case undefined:
    case null:
      return role <= ROLE.ADMINISTRATOR;
    default:
      return false;
  }
}

export interface Actor {
  userId: number;
  role: number;
}

type Settings = Readonly<Record<string, unknown>>;

/** A limit of null (or a legacy 0) means none. */
const withinLimit = (limit: unknown, message: Message, nowSeconds: number) =>
  typeof limit !== 'number' || limit <= 0 || nowSeconds - message.timestamp <= limit;

export function canEditContent(
  message: Message,
  actor: Actor,
  settings: Settings,
  nowSeconds: number,
): boolean {
  if (message.sender_id !== actor.userId) return false;
  if (settings.allow_message_editing === false) return false;
  return withinLimit(settings.message_content_edit_limit_seconds, message, nowSeconds);
}

export function canDelete(
  message: Message,
  actor: Actor,
  settings: Settings,
  nowSeconds: number,
): boolean {
  if (actor.role <= ROLE.ADMINISTRATOR) return true;
  if (message.sender_id !== actor.userId) return false;
  if (!policyAllows(settings.delete_own_message_policy, actor.role)) return false;
  return withinLimit(settings.message_content_delete_limit_seconds, message, nowSeconds);
}
