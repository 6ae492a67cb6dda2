import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { openMoveMessageDialog } from './dialog-store';
import { MoveIcon } from './icons';
import { messageMovePermissions } from './permissions';
import { useTopicPermissions } from './use-topic-permissions';

/** The "Move message" hover action, offered while the message may still be moved. */
export function MoveMessageButton({ message }: { message: Message }) {
  const { t } = useTranslation('search');
  const { actor, settings } = useTopicPermissions();
  const may = messageMovePermissions(message, settings, actor, Date.now() / 1000);
  if (!may.topic && !may.channel) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('move.button')}
      title={t('move.button')}
      onClick={() => openMoveMessageDialog(message)}
    >
      <MoveIcon />
    </button>
  );
}
