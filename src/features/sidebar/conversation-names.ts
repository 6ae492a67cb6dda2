import type { User } from '../../api/model';
import { i18n } from '../../i18n';

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
      group && id in muted
        ? i18n.t('navigation:dms.mutedUser')
        : (usersById[id]?.full_name ?? i18n.t('navigation:dms.unknownUser')),
    )
    .join(', ');
}
