import type { User } from '../../api/model';

/**
 * "Iago, Othello" for a DM conversation; the own user's name for a self DM. In a group
 * conversation, people you muted are named "Muted user".
 */
export function dmConversationName(
  userIds: readonly number[],
  usersById: Readonly<Record<number, User>>,
  muted: Readonly<Record<number, number>> = {},
): string {
  const group = userIds.length > 1;
  return userIds
    .map((id) =>
      group && id in muted ? 'Muted user' : (usersById[id]?.full_name ?? 'Unknown user'),
    )
    .join(', ');
}
