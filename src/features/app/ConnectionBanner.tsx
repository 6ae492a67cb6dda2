import { useTranslation } from 'react-i18next';
import { useSessionState } from '../../model/session-context';

/** A quiet banner while the event queue is reconnecting; it clears itself once events flow again. */
export function ConnectionBanner() {
  const { t } = useTranslation('navigation');
  const status = useSessionState((s) => s.status);
  if (status !== 'reconnecting') return null;
  return (
    <div className="connection-banner" role="status">
      {t('reconnecting')}
    </div>
  );
}
