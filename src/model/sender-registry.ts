/**
 * Each session's outbox sender once made (outbox-sender.ts makes it, send.ts stops it): in a
 * module of its own so that the page's first script can stop a sender whose code it never
 * loaded.
 */
import type { SessionCore } from './session-core';

export interface Stoppable {
  stop(): void;
}

/** Each session's sender; null for a session that stopped. */
const senders = new WeakMap<SessionCore, Stoppable | null>();

/** The session's sender: undefined before it is made, null once the session stopped. */
export function registeredSender(session: SessionCore): Stoppable | null | undefined {
  return senders.get(session);
}

/** Records the session's sender; false when the session has stopped (the sender must too). */
export function registerSender(session: SessionCore, sender: Stoppable): boolean {
  if (senders.has(session)) return false;
  senders.set(session, sender);
  return true;
}

/** Stops the session's sender, and any made after now. */
export function stopOutboxSender(session: SessionCore): void {
  senders.get(session)?.stop();
  senders.set(session, null);
}
