import { useMemo } from 'react';
import {
  useOwnUserId,
  useStreamsById,
  useSubscriptionsById,
  useUsersById,
} from '../../model/hooks';
import type { SearchDirectory } from './search-query';

/** The people and channels the search language resolves names against. */
export function useSearchDirectory(): SearchDirectory {
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const streams = useStreamsById();
  const subscriptions = useSubscriptionsById();
  return useMemo(
    () => ({ ownUserId, users, streams: { ...streams, ...subscriptions } }),
    [ownUserId, users, streams, subscriptions],
  );
}
