/**
 * The message list's wiring, apart from what it draws: paging at either end, marking what is on
 * screen as read, the message mutations its rows call, and clicks on links inside messages.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, type MouseEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import { errorText } from '../../api/errors';
import { narrowKey, type Narrow } from '../../narrow';
import { useStarMessage } from '../../queries/flags';
import {
  useDeleteMessage,
  useToggleReaction,
  type ReactionRef,
} from '../../queries/message-actions';
import { useSession } from '../../model/session-context';
import { isReadingPaused } from '../message-actions/store';
import type { FeedRow } from './build-rows';
import { openUpload } from './uploads';
import type { useFeedRows } from './use-feed-items';

type FeedQuery = ReturnType<typeof useFeedRows>['query'];

/** Fetches the page before or after the loaded messages, unless one is already on its way. */
export function useLoadMore(query: FeedQuery) {
  const {
    hasPreviousPage,
    isFetchingPreviousPage,
    fetchPreviousPage,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  } = query;
  const loadOlder = useCallback(() => {
    if (hasPreviousPage && !isFetchingPreviousPage) void fetchPreviousPage();
  }, [hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage]);
  const loadNewer = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { loadOlder, loadNewer };
}

/** Reports the messages whose end is on screen as seen, while the window has focus. */
export function useMarkVisibleRead(
  narrow: Narrow,
  rows: FeedRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  scroller: RefObject<HTMLDivElement | null>,
) {
  const session = useSession();
  return useCallback(() => {
    const element = scroller.current;
    if (!element || !document.hasFocus()) return;
    // After "Mark as unread from here" the messages stay unread until the person scrolls.
    if (isReadingPaused(narrowKey(narrow))) return;
    const top = element.scrollTop;
    const bottom = top + element.clientHeight;
    const seen: Message[] = [];
    for (const item of virtualizer.measurementsCache) {
      if (item.end <= top || item.start >= bottom) continue;
      const row = rows[item.index];
      // A message counts as seen once its end is on screen.
      if (row?.kind === 'message' && item.end <= bottom + 2 && item.end > top)
        seen.push(row.message);
    }
    session.readBatcher.seen(seen);
  }, [rows, virtualizer, session, narrow, scroller]);
}

/** Reports messages as seen, for the keyboard cursor as it moves past them. */
export function useReportSeen() {
  const session = useSession();
  return useCallback((messages: Message[]) => session.readBatcher.seen(messages), [session]);
}

/** Coming back to the window reads what is on screen. */
export function useMarkReadOnWindowFocus(markVisibleRead: () => void) {
  useEffect(() => {
    window.addEventListener('focus', markVisibleRead);
    return () => window.removeEventListener('focus', markVisibleRead);
  }, [markVisibleRead]);
}

/** Starring, deleting and reacting, as stable callbacks for the memoised message rows. */
export function useMessageMutations() {
  // A refused star is rolled back in place: the message shows its old state again.
  const { mutate: toggleStar } = useStarMessage();

  /** Deletes a message; the answer is null, or what went wrong in words. */
  const { mutateAsync: deleteMessage } = useDeleteMessage();
  const removeMessage = useCallback(
    async (message: Message): Promise<string | null> => {
      try {
        await deleteMessage(message.id);
        return null;
      } catch (error) {
        return errorText(error, String(error));
      }
    },
    [deleteMessage],
  );

  // A refused reaction is rolled back in place; the console keeps why, for bug reports.
  const { mutate: changeReaction } = useToggleReaction();
  const toggleReaction = useCallback(
    (message: Message, reaction: ReactionRef, add: boolean) =>
      changeReaction(
        { message, reaction, add },
        { onError: (error) => console.warn('reaction not changed', error) },
      ),
    [changeReaction],
  );
  return { toggleStar, removeMessage, toggleReaction };
}

/**
 * A click in the list selects its message. Stream and topic links inside messages navigate within
 * the app instead of reloading it. Uploaded files open through a temporary URL, since a plain link
 * cannot carry credentials.
 */
export function useInternalLinkClicks(selectByClick: (target: EventTarget) => void) {
  const session = useSession();
  const navigate = useNavigate();
  return function openInternalLink(event: MouseEvent) {
    selectByClick(event.target);
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (event.defaultPrevented) return; // handled inside the message (spoilers, image viewer)
    const upload = (event.target as Element).closest?.('a[data-upload]');
    if (upload) {
      event.preventDefault();
      openUpload(session, upload.getAttribute('data-upload')!);
      return;
    }
    const link = (event.target as Element).closest?.('a[data-internal]');
    if (!link) return;
    event.preventDefault();
    navigate(link.getAttribute('href')!);
  };
}
