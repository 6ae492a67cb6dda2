/** Message history per narrow, as React Query infinite queries paged around an anchor. */
import {
  infiniteQueryOptions,
  queryOptions,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiConnection } from '../api/connection';
import type { Anchor, Message } from '../api/model';
import { getMessages } from '../api/routes/messages';
import { useSessionCore } from '../model/session-core';
import { feedNarrow, toApiNarrow, toApiNarrowAt, type MessageTarget, type Narrow } from '../narrow';

export const PAGE_SIZE = 50;
/** Pages fetched while scrolling are larger: fewer re-layouts when reading far back. */
export const SCROLL_PAGE_SIZE = 200;

export interface MessagePage {
  messages: Message[];
  foundOldest: boolean;
  foundNewest: boolean;
  /** for the first page: the message the list opened at (first unread, or newest) */
  anchor: number;
  /** whether the anchor message itself was found (a permalink's message may be gone) */
  foundAnchor?: boolean;
}

export interface MessagePageParam {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export type MessageListData = InfiniteData<MessagePage, MessagePageParam>;

export const messageKeys = {
  all: ['messages'] as const,
  lists: () => [...messageKeys.all, 'list'] as const,
  list: (narrow: Narrow) => [...messageKeys.lists(), narrow] as const,
  /** a list opened at a message (a permalink): apart from the list opened at the first unread */
  listAt: (narrow: Narrow, target: MessageTarget) =>
    [...messageKeys.list(narrow), 'at', target.messageId, target.follow] as const,
  /** under the feed's list, so that events reach it like any other list */
  recent: () => [...messageKeys.list(feedNarrow), 'recent'] as const,
};

export const firstPageParam: MessagePageParam = {
  anchor: 'first_unread',
  numBefore: PAGE_SIZE,
  numAfter: PAGE_SIZE,
  includeAnchor: true,
};

/** The first page of a list opened at a message: that message in the middle. */
export function firstPageParamAt(target: MessageTarget | undefined): MessagePageParam {
  return target ? { ...firstPageParam, anchor: target.messageId } : firstPageParam;
}

export function messageListQuery(
  connection: ApiConnection,
  narrow: Narrow,
  target?: MessageTarget,
) {
  // Every page asks with `with`, so that all come from the conversation the message is in now.
  const apiNarrow = toApiNarrowAt(narrow, target);
  return infiniteQueryOptions({
    queryKey: target ? messageKeys.listAt(narrow, target) : messageKeys.list(narrow),
    queryFn: async ({ pageParam, signal }): Promise<MessagePage> => {
      const response = await getMessages(
        connection,
        {
          anchor: pageParam.anchor,
          num_before: pageParam.numBefore,
          num_after: pageParam.numAfter,
          include_anchor: pageParam.includeAnchor,
          narrow: apiNarrow,
        },
        signal,
      );
      return {
        messages: response.messages,
        foundOldest: response.found_oldest,
        foundNewest: response.found_newest,
        anchor: response.anchor,
        foundAnchor: response.found_anchor,
      };
    },
    initialPageParam: firstPageParamAt(target),
    getPreviousPageParam: (first): MessagePageParam | undefined =>
      first.foundOldest || first.messages.length === 0
        ? undefined
        : {
            anchor: first.messages[0].id,
            numBefore: SCROLL_PAGE_SIZE,
            numAfter: 0,
            includeAnchor: false,
          },
    getNextPageParam: (last): MessagePageParam | undefined =>
      last.foundNewest || last.messages.length === 0
        ? undefined
        : {
            anchor: last.messages[last.messages.length - 1].id,
            numBefore: 0,
            numAfter: SCROLL_PAGE_SIZE,
            includeAnchor: false,
          },
    // A bounded window of pages: reading far back drops the newest pages (refetched on the way
    // down), so the work per page stays constant however long the history is.
    maxPages: 8,
    // Events keep loaded lists current; refetching would only lose the scroll position.
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
}

export function allMessages(data: { pages: MessagePage[] } | undefined): Message[] {
  return data ? data.pages.flatMap((page) => page.messages) : [];
}

/** Whether the list reaches the present, so that new messages can be appended to it. */
export function reachesNewest(data: { pages: MessagePage[] }): boolean {
  return data.pages.length > 0 && data.pages[data.pages.length - 1].foundNewest;
}

const RECENT_WINDOW = 400;

/**
 * The newest messages everywhere, for recent conversations. Kept under the feed narrow's list
 * key, so the event-to-cache function appends new messages to it like to any other list and the
 * view stays live.
 */
export function recentMessagesQuery(connection: ApiConnection) {
  return queryOptions({
    queryKey: messageKeys.recent(),
    queryFn: async ({ signal }): Promise<MessageListData> => {
      const response = await getMessages(
        connection,
        { anchor: 'newest', num_before: RECENT_WINDOW, num_after: 0, narrow: [] },
        signal,
      );
      const page = {
        messages: response.messages,
        foundOldest: response.found_oldest,
        foundNewest: true,
        anchor: response.anchor,
      };
      return {
        pages: [page],
        pageParams: [
          { anchor: 'newest', numBefore: RECENT_WINDOW, numAfter: 0, includeAnchor: true },
        ],
      };
    },
    staleTime: Infinity,
  });
}

/**
 * "Last message" far from the present: rather than page through everything in between, the
 * list's loaded history becomes the newest page (as the reference app re-anchors at the newest
 * message). Older history loads again on scrolling up.
 */
export async function jumpToNewest(
  queryClient: QueryClient,
  connection: ApiConnection,
  narrow: Narrow,
): Promise<void> {
  const pageParam: MessagePageParam = {
    anchor: 'newest',
    numBefore: PAGE_SIZE,
    numAfter: 0,
    includeAnchor: true,
  };
  const response = await getMessages(connection, {
    anchor: pageParam.anchor,
    num_before: pageParam.numBefore,
    num_after: pageParam.numAfter,
    include_anchor: pageParam.includeAnchor,
    narrow: toApiNarrow(narrow),
  });
  const page: MessagePage = {
    messages: response.messages,
    foundOldest: response.found_oldest,
    foundNewest: true,
    anchor: response.anchor,
  };
  await queryClient.cancelQueries({ queryKey: messageKeys.list(narrow), exact: true });
  queryClient.setQueryData<MessageListData>(messageKeys.list(narrow), {
    pages: [page],
    pageParams: [pageParam],
  });
}

/** jumpToNewest for the session's lists. */
export function useJumpToNewest(narrow: Narrow): () => Promise<void> {
  const session = useSessionCore();
  return useCallback(
    () => jumpToNewest(session.queryClient, session.connection, narrow),
    [session, narrow],
  );
}
