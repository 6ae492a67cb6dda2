import { useSessionState } from './session-context';

/** A quiet banner while the event queue is reconnecting; it clears itself once events flow again. */
export function ConnectionBanner() {
  const status = useSessionState((s) => s.status);
  if (status !== 'reconnecting') return null;
  return (
    <div className="connection-banner" role="status">
      Reconnecting…
    </div>
  );
}
