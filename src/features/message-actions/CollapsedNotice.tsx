/**
 * A collapsed message: its content is out of view, as in the reference web app, leaving one line
 * with a "Show more" button that expands it (for everyone of the person's devices: it is a flag).
 */
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { useToggleCollapsed } from '../../queries/message-menu';

export function CollapsedNotice({ message }: { message: Message }) {
  const { t } = useTranslation('messages');
  const { mutate: toggleCollapsed } = useToggleCollapsed();
  return (
    <p className="message-collapsed">
      <span>{t('collapsed.marker')}</span>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => toggleCollapsed(message)}
      >
        {t('collapsed.showMore')}
      </button>
    </p>
  );
}
