import type { Message } from '../../api/model';
import { editIndicator } from './edit-indicator';
import { formatFullDateTime } from './format';
import { useFixedT } from '../../i18n/use-fixed-t';

/** "(edited)" or "(moved)" after a message that was, with the time it last happened. */
export function EditMark({ message }: { message: Message }) {
  const t = useFixedT('messages');
  const indicator = editIndicator(message);
  if (!indicator) return null;
  const time = formatFullDateTime(indicator.timestamp);
  return (
    <span
      className="message-edited"
      data-edit-kind={indicator.kind}
      title={
        indicator.kind === 'edited' ? t('item.editedAt', { time }) : t('item.movedAt', { time })
      }
    >
      {indicator.kind === 'edited' ? t('item.edited') : t('item.moved')}
    </span>
  );
}
