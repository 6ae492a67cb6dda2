/**
 * A refused move in words. MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says how much of the topic the
 * person may move: the dialog offers to move that part (from `first_message_id_allowed_to_move`
 * on, with change_later), or says that nothing can move when the server names no first message.
 */
import { errorText, isApiError } from '../../api/errors';
import { i18n } from '../../i18n';

export type MoveFailure =
  | { kind: 'time-limit'; text: string; firstAllowedId: number | null; allowed: number }
  | { kind: 'other'; text: string };

export function describeMoveFailure(error: unknown): MoveFailure {
  if (!isApiError(error, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'))
    return { kind: 'other', text: errorText(error, i18n.t('search:move.failed')) };
  const extra = error.failure.kind === 'api' ? error.failure.extra : {};
  const total =
    typeof extra.total_messages_in_topic === 'number' ? extra.total_messages_in_topic : null;
  const allowed =
    typeof extra.total_messages_allowed_to_move === 'number'
      ? extra.total_messages_allowed_to_move
      : 0;
  const firstAllowedId =
    typeof extra.first_message_id_allowed_to_move === 'number'
      ? extra.first_message_id_allowed_to_move
      : null;
  const askModerator = i18n.t('search:move.askModerator');
  if (firstAllowedId === null || allowed === 0)
    return {
      kind: 'time-limit',
      firstAllowedId: null,
      allowed: 0,
      text: `${
        total === null
          ? i18n.t('search:move.noneMovable')
          : i18n.t('search:move.noneOfTotal', { count: total })
      } ${askModerator}`,
    };
  return {
    kind: 'time-limit',
    firstAllowedId,
    allowed,
    text: `${
      total === null
        ? i18n.t('search:move.someOfThe', { allowed })
        : i18n.t('search:move.someOfTotal', { allowed, total })
    } ${askModerator}`,
  };
}
