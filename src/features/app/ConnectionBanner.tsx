import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerRestarted } from '../../model/hooks';
import { useSessionState } from '../../model/session-context';

/** A second without the server, before a start from the kept state says it is offline. */
const OFFLINE_AFTER_MS = 1000;

/**
 * What the connection to the server has to say: a quiet banner while the event queue is
 * reconnecting (it clears itself once events flow again), one that says the app is offline when
 * it started from what the browser kept and the server cannot be reached, and the restart offer.
 */
export function ConnectionBanner() {
  const { t } = useTranslation('navigation');
  const status = useSessionState((s) => s.status);
  const restored = useSessionState((s) => s.restored);
  const offline = useAfter(restored && status !== 'connected', OFFLINE_AFTER_MS);
  return (
    <>
      {offline ? (
        <div className="connection-banner connection-banner-offline" role="status">
          {t('offline')}
        </div>
      ) : (
        status === 'reconnecting' && (
          <div className="connection-banner" role="status">
            {t('reconnecting')}
          </div>
        )
      )}
      <RestartBanner />
    </>
  );
}

/** `condition`, once it has held for `ms` (so that a quick answer shows no banner at all). */
function useAfter(condition: boolean, ms: number): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!condition) {
      setHeld(false);
      return;
    }
    const timer = setTimeout(() => setHeld(true), ms);
    return () => clearTimeout(timer);
  }, [condition, ms]);
  return condition && held;
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
