/**
 * Tells the server this person is here: at once, then every ping interval, "active" when they
 * touched the page lately and it has focus, "idle" otherwise. Others see it as a presence dot.
 */
import { useEffect } from 'react';
import { useReportPresence } from '../../queries/presence';
import { useIsSpectator } from '../../model/session-context';

/** How often to report: the reference server's ping interval (server_presence_ping_interval_seconds). */
const PING_INTERVAL_MS = 60_000;
/** Without input for this long, a focused page counts as idle. */
const ACTIVE_WINDOW_MS = 5 * 60_000;

export function presenceFor(
  hasFocus: boolean,
  lastInputMs: number,
  nowMs: number,
): 'active' | 'idle' {
  return hasFocus && nowMs - lastInputMs < ACTIVE_WINDOW_MS ? 'active' : 'idle';
}

export function usePresenceReporter() {
  const reportPresence = useReportPresence();
  const spectator = useIsSpectator();

  useEffect(() => {
    if (spectator) return; // a visitor has no presence
    let lastInput = Date.now();
    let inputSinceReport = true;
    const touched = () => {
      lastInput = Date.now();
      inputSinceReport = true;
    };
    const events = ['keydown', 'pointerdown', 'wheel', 'focus'] as const;
    for (const name of events) window.addEventListener(name, touched, { passive: true });
    const report = () => {
      const status = presenceFor(document.hasFocus(), lastInput, Date.now());
      const newInput = inputSinceReport;
      inputSinceReport = false;
      // A missed report only makes this person look away for a while; the next one fixes it.
      reportPresence({ status, newUserInput: newInput });
    };
    report();
    const timer = setInterval(report, PING_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      for (const name of events) window.removeEventListener(name, touched);
    };
  }, [reportPresence, spectator]);
}
