import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import type { Narrow } from '../../narrow';
import { useMarkNarrowAsRead } from '../../queries/flags';

/** "Mark lunch as read": the row's conversation, at once (rolled back if refused). */
export function MarkReadButton({
  narrow,
  ids,
  name,
}: {
  narrow: Narrow;
  ids: readonly number[];
  name: string;
}) {
  const { t } = useTranslation('navigation');
  const markRead = useMarkNarrowAsRead(narrow);
  return (
    <span className="row-action">
      <button
        type="button"
        className="icon-button row-mark-read"
        aria-label={t('inbox.markNameRead', { name })}
        title={t('inbox.markRead')}
        onClick={() => markRead.mutate(ids)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d="M4 12.5l5 5L20 6.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      {markRead.isError && (
        <span role="alert" className="narrow-error">
          {errorText(markRead.error, t('inbox.markReadFailed'))}
        </span>
      )}
    </span>
  );
}
