/**
 * What the page's first script knows of sending. The sender itself (outbox-sender.ts) loads with
 * the compose box; here it is loaded for a message that waits without one, kept from an earlier
 * visit or put back for a retry.
 */
import { registeredSender } from './sender-registry';
import type { SessionCore } from './session-core';

/**
 * Makes the session's sender once a message waits in the outbox without one. Its code may fail
 * to load (no server, and not kept by the service worker yet): it is tried again at the next
 * change of the outbox or of the connection.
 */
export function sendWhenWaiting(session: SessionCore): () => void {
  let loading = false;
  const check = () => {
    if (loading || registeredSender(session) !== undefined) return;
    if (!session.outbox.getState().messages.some((m) => m.status === 'waiting')) return;
    loading = true;
    import('./outbox-sender')
      .then(({ outboxSenderFor }) => outboxSenderFor(session))
      .catch(() => {})
      .finally(() => (loading = false));
  };
  const unsubscribe = [session.outbox.subscribe(check), session.state.subscribe(check)];
  check();
  return () => unsubscribe.forEach((stop) => stop());
}

/** A failed message goes back to wait its turn (the sender is made if it was not). */
export function retrySend(session: SessionCore, localId: string): void {
  session.outbox.getState().retryStarted(localId);
}
