/**
 * What a message's actions menu asks of the server: its Markdown source (to quote or show), its
 * edit history, who has read it, collapsing it, and marking it and everything after it unread.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiConnection } from '../api/connection';
import type { Message } from '../api/model';
import {
  getMessageHistory,
  getReadReceipts,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
} from '../api/routes/messages';
import { applyFlagChangeLocally } from '../model/flag-changes';
import { useSessionCore } from '../model/session-core';
import { toApiNarrow, type Narrow } from '../narrow';
import { messageSourceQuery } from './message-actions';
import { allMessages, messageKeys, type MessageListData } from './messages';

export const messageMenuKeys = {
  all: ['message-menu'] as const,
  history: (messageId: number) => [...messageMenuKeys.all, 'history', messageId] as const,
  readReceipts: (messageId: number) =>
    [...messageMenuKeys.all, 'read-receipts', messageId] as const,
};

export function messageHistoryQuery(connection: ApiConnection, messageId: number) {
  return queryOptions({
    queryKey: messageMenuKeys.history(messageId),
    queryFn: ({ signal }) => getMessageHistory(connection, messageId, signal),
    select: (response) => response.message_history,
    // Each opening shows the history as it is now.
    gcTime: 0,
    staleTime: 0,
  });
}

export function useMessageHistory(messageId: number) {
  return useQuery(messageHistoryQuery(useSessionCore().connection, messageId));
}

export function readReceiptsQuery(connection: ApiConnection, messageId: number) {
  return queryOptions({
    queryKey: messageMenuKeys.readReceipts(messageId),
    queryFn: ({ signal }) => getReadReceipts(connection, messageId, signal),
    select: (response) => response.user_ids,
    gcTime: 0,
    staleTime: 0,
  });
}

export function useReadReceipts(messageId: number) {
  return useQuery(readReceiptsQuery(useSessionCore().connection, messageId));
}

/** The Markdown source of a message, on demand (for quoting, which fetches at the click). */
export function useFetchMessageSource(): (messageId: number) => Promise<string> {
  const { connection, queryClient } = useSessionCore();
  return useCallback(
    async (messageId: number) => {
      const response = await queryClient.fetchQuery(messageSourceQuery(connection, messageId));
      return response.raw_content ?? response.message.content;
    },
    [connection, queryClient],
  );
}

/** The most messages one request marks; the server may take fewer, and says so. */
export const MARK_UNREAD_BATCH = 5000;
/** Beyond this many batches the rest stays as it is (a runaway loop costs more than it saves). */
const MAX_BATCHES = 20;

/**
 * Marks a message and every later one of the narrow unread, in batches anchored after the last
 * message the previous batch reached, until the server reports the newest. The unread counts
 * change through the server's update_message_flags events. Resolves to how many changed.
 */
export async function markUnreadFromHere(
  connection: ApiConnection,
  narrow: Narrow,
  messageId: number,
): Promise<number> {
  let anchor = messageId;
  let includeAnchor = true;
  let updated = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const response = await updateMessageFlagsForNarrow(connection, {
      anchor,
      include_anchor: includeAnchor,
      num_before: 0,
      num_after: MARK_UNREAD_BATCH,
      narrow: toApiNarrow(narrow),
      op: 'remove',
      flag: 'read',
    });
    updated += response.updated_count;
    if (response.found_newest || response.last_processed_id === null) break;
    anchor = response.last_processed_id;
    includeAnchor = false;
  }
  return updated;
}

export function useMarkUnreadFromHere() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ narrow, messageId }: { narrow: Narrow; messageId: number }) =>
      markUnreadFromHere(connection, narrow, messageId),
  });
}

/** Collapses or expands one message (the `collapsed` flag); shown at once, undone on refusal. */
export function useToggleCollapsed() {
  const session = useSessionCore();
  return useMutation({
    mutationFn: async (message: Message) => {
      const op = message.flags.includes('collapsed') ? 'remove' : 'add';
      const change = (direction: 'add' | 'remove') =>
        applyFlagChangeLocally(session, {
          op: direction,
          flag: 'collapsed',
          messages: [message.id],
          all: false,
        });
      change(op);
      try {
        await updateMessageFlags(session.connection, {
          messages: [message.id],
          op,
          flag: 'collapsed',
        });
      } catch (error) {
        change(op === 'add' ? 'remove' : 'add');
        throw error;
      }
    },
  });
}

/** Finds a message among those loaded for a narrow's list (for keyboard actions on the selection). */
export function useLoadedMessageLookup(): (
  narrow: Narrow,
  messageId: number,
) => Message | undefined {
  const { queryClient } = useSessionCore();
  return useCallback(
    (narrow: Narrow, messageId: number) =>
      allMessages(queryClient.getQueryData<MessageListData>(messageKeys.list(narrow))).find(
        (message) => message.id === messageId,
      ),
    [queryClient],
  );
}
