/**
 * Where the code that applies events to the caches (apply-event.ts, a chunk of its own) makes
 * itself known once it has loaded, however it came: with the first event (session-caches.ts) or
 * with a view that uses it directly (the message list). From then on events apply at once.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ParsedEvent } from '../api/parse-event';

export type ApplyEvents = (
  queryClient: QueryClient,
  events: readonly ParsedEvent[],
  ownUserId: number,
) => void;

let loadedApply: ApplyEvents | null = null;

export function eventCachingLoaded(apply: ApplyEvents): void {
  loadedApply = apply;
}

/** The code once loaded, or null. */
export const loadedEventCaching = (): ApplyEvents | null => loadedApply;
