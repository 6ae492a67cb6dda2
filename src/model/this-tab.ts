/** This page's name among the tabs of the browser (the outbox's owner, queue sharing). */
export const THIS_TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** Whether tabs of this browser can share one event queue (Web Locks and BroadcastChannel). */
export function queueSharingSupported(): boolean {
  return (
    typeof BroadcastChannel !== 'undefined' &&
    typeof navigator !== 'undefined' &&
    'locks' in navigator &&
    navigator.locks !== undefined
  );
}
