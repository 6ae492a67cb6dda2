import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerRestarted } from '../../model/hooks';
import { useSessionState } from '../../model/session-context';

/**
 * What the connection to the server has to say: a quiet banner while the event queue is
 * reconnecting (it clears itself once events flow again), and the restart offer.
 */
export function ConnectionBanner() {
  const { t } = useTranslation('navigation');
  const status = useSessionState((s) => s.status);
  return (
    <>
      {status === 'reconnecting' && (
        <div className="connection-banner" role="status">
          {t('reconnecting')}
        </div>
      )}
      <RestartBanner />
    </>
  );
}

/**
 * After the server restarted (perhaps with a new version, whose web client is newer than this
 * page), an offer to reload; the page goes on working until then, and the offer can be dismissed.
 */
export function RestartBanner() {
  const { t } = useTranslation('navigation');
  const restarted = useServerRestarted();
  const [dismissed, setDismissed] = useState<typeof restarted>(null);
  if (!restarted || dismissed === restarted) return null;
  return (
    <div className="restart-banner" role="status">
      <span>{t('restart.message')}</span>
      <button
        type="button"
        className="button button-small button-primary"
        onClick={() => location.reload()}
      >
        {t('restart.reload')}
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => setDismissed(restarted)}
      >
        {t('restart.later')}
      </button>
    </div>
  );
}
