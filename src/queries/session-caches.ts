/**
 * The React Query side of an account session: the model's session announces events and lost
 * queues through ServerDataCaches, and this module keeps the caches in step. It lives here, not
 * in src/model, because the model sits beneath the query layer.
 */
import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { ParsedEvent } from '../api/parse-event';
import { AccountSession } from '../model/session';
import type { ServerDataCaches } from '../model/session-core';
import { loadedEventCaching, type ApplyEvents } from './event-caching';
import { messageKeys } from './messages';
import { topicKeys } from './topics';

/** The conversations whose messages are kept between visits: the ones read most recently. */
const KEPT_CONVERSATIONS = 12;

/*
 * The code that applies events to the caches (apply-event.ts) is its own chunk, loaded with the
 * first event or once the person first uses the page (AppShell), not with the first view: until
 * something happens, nothing needs it.
 */
let loadingApply: Promise<ApplyEvents> | null = null;

export function loadEventCaching(): Promise<ApplyEvents> {
  loadingApply ??= import('./apply-event').then(
    (module) => module.applyEventsToQueryCache,
    (error: unknown) => {
      // Offline, say: the next event tries again.
      loadingApply = null;
      throw error;
    },
  );
  return loadingApply;
}

/** `applyEvents` given (tests) applies each batch at once; otherwise once it has loaded. */
export function reactQueryCaches(
  queryClient: QueryClient,
  applyEvents?: ApplyEvents,
): ServerDataCaches {
  const queueReplaced = (keepShown = false) => {
    if (keepShown) void queryClient.invalidateQueries({ queryKey: messageKeys.all });
    else void queryClient.resetQueries({ queryKey: messageKeys.all });
    void queryClient.invalidateQueries({ queryKey: topicKeys.all });
  };
  // Batches that came before the code to apply them wait for it, in order.
  let waiting = 0;
  let queue: Promise<void> = Promise.resolve();
  const eventsReceived = (events: readonly ParsedEvent[], ownUserId: number) => {
    const apply = applyEvents ?? loadedEventCaching();
    if (apply && waiting === 0) {
      apply(queryClient, events, ownUserId);
      return;
    }
    waiting += 1;
    queue = queue.then(async () => {
      try {
        (await loadEventCaching())(queryClient, events, ownUserId);
      } catch {
        // Without the code the caches cannot follow: they are fetched again, as after a lost queue.
        queueReplaced();
      } finally {
        waiting -= 1;
      }
    });
  };
  return {
    eventsReceived,
    queueReplaced,
    refreshMessages: () => void queryClient.invalidateQueries({ queryKey: messageKeys.all }),
    keep: () => {
      const cache = queryClient.getQueryCache();
      const recent = new Set(
        cache
          .findAll({ queryKey: messageKeys.all, predicate: (q) => q.state.status === 'success' })
          .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)
          .slice(0, KEPT_CONVERSATIONS),
      );
      return dehydrate(queryClient, {
        shouldDehydrateQuery: (query) =>
          recent.has(query) ||
          (query.state.status === 'success' && query.queryKey[0] === topicKeys.all[0]),
        shouldDehydrateMutation: () => false,
      });
    },
    restore: (kept, refetch = false) => {
      const state = kept as DehydratedState;
      const missing = state.queries.filter(
        (q) => queryClient.getQueryState(q.queryKey)?.data === undefined,
      );
      hydrate(queryClient, { ...state, queries: missing });
      if (refetch)
        for (const q of missing)
          void queryClient.invalidateQueries({ queryKey: q.queryKey, exact: true });
    },
    subscribe: (listener) =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') listener();
      }),
  };
}

/** A session whose events and lost queues reach `queryClient`'s caches. */
export function createAccountSession(
  email: string,
  apiKey: string,
  queryClient: QueryClient,
  options: ConstructorParameters<typeof AccountSession>[4] = {},
): AccountSession {
  return new AccountSession(email, apiKey, queryClient, reactQueryCaches(queryClient), options);
}
