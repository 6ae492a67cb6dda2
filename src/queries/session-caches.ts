/**
 * The React Query side of an account session: the model's session announces events and lost
 * queues through ServerDataCaches, and this module keeps the caches in step. It lives here, not
 * in src/model, because the model sits beneath the query layer.
 */
import type { QueryClient } from '@tanstack/react-query';
import { AccountSession } from '../model/session';
import type { ServerDataCaches } from '../model/session-core';
import { applyEventsToQueryCache } from './apply-event';
import { messageKeys } from './messages';
import { topicKeys } from './topics';

export function reactQueryCaches(queryClient: QueryClient): ServerDataCaches {
  return {
    eventsReceived: (events, ownUserId) => applyEventsToQueryCache(queryClient, events, ownUserId),
    queueReplaced: () => {
      void queryClient.resetQueries({ queryKey: messageKeys.all });
      void queryClient.invalidateQueries({ queryKey: topicKeys.all });
    },
    refreshMessages: () => void queryClient.invalidateQueries({ queryKey: messageKeys.all }),
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
