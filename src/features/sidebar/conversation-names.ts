import type { User } from '../../api/model';

/** "Iago, Othello" for a DM conversation; the own user's name for a self DM. */
export function dmConversationName(
  userIds: readonly number[],
  usersById: Readonly<Record<number, User>>,
): string {
  return userIds.map((id) => usersById[id]?.full_name ?? 'Unknown user').join(', ');
}
