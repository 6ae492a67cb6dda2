/**
 * The selected message of the feed on screen and the keys that move it, as in the reference app:
 * the list opens with its anchor selected (first unread, or newest); j/k and the arrow keys step
 * through messages, scrolling the selection into view; Home and End go to the first loaded and
 * the newest message; PageUp/PageDown (and Shift+K/J) scroll. Passing over unread messages
 * downwards reports them as seen to the same read batcher that marks visible messages read.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import type { Message } from '../../api/model';
import { useUnreadIdsIn } from '../../model/hooks';
import { selectedMessageIn, useMessageCursor } from '../../model/message-cursor';
import { narrowKey as keyOf, type Narrow } from '../../narrow';
import { useMarkNarrowAsRead } from '../../queries/flags';
import { useIsSpectator } from '../../model/session-context';
import type { FeedRow } from '../message-list/build-rows';
import {
  anchorMessageIndex,
  firstMessageIndex,
  keptSelectionIndex,
  lastMessageIndex,
  rowIndexOf,
  stepMessageIndex,
  unreadMessagesBetween,
} from './cursor-moves';
import { useShortcutKeys } from './keys';

interface MessageCursorOptions {
  narrow: Narrow;
  rows: FeedRow[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scroller: React.RefObject<HTMLDivElement | null>;
  loadOlder(): void;
  loadNewer(): void;
  /** whether newer history than the loaded rows exists */
  hasNewer: boolean;
  /** replaces the loaded history by the newest page */
  jumpToNewest(): Promise<void>;
  /** messages the reader passed over (the read batcher) */
  seen(messages: Message[]): void;
}

const PAGE_FRACTION = 0.9;

export function useMessageCursorKeys({
  narrow,
  rows,
  virtualizer,
  scroller,
  loadOlder,
  loadNewer,
  hasNewer,
  jumpToNewest,
  seen,
}: MessageCursorOptions) {
  const narrowKey = keyOf(narrow);
  const selectedId = useMessageCursor((cursor) => selectedMessageIn(cursor, narrowKey));
  const select = useMessageCursor((cursor) => cursor.select);
  const opened = useRef(false);
  const lastIndex = useRef(-1);
  const endRequested = useRef(false);

  // "Last message" marks the whole conversation read, loaded or not, as the reference app does.
  const spectator = useIsSpectator();
  const unreadInNarrow = useUnreadIdsIn(narrow);
  const { mutate: markNarrowRead } = useMarkNarrowAsRead(narrow);
  const markViewRead = (loaded: Message[]) => {
    seen(loaded);
    const conversation = ['stream', 'topic', 'dm'].includes(narrow.kind);
    if (conversation && !spectator && unreadInNarrow.length > 0) markNarrowRead(unreadInNarrow);
  };

  const idAt = (index: number) => {
    const row = rows[index];
    return row?.kind === 'message' ? row.message.id : null;
  };

  // The list opens at its anchor; later the selection follows its message through row changes.
  useEffect(() => {
    if (rows.length === 0) return;
    let index: number;
    if (!opened.current) {
      opened.current = true;
      index = anchorMessageIndex(rows);
    } else if (endRequested.current && !hasNewer) {
      endRequested.current = false;
      index = lastMessageIndex(rows);
      virtualizer.scrollToIndex(index, { align: 'end' });
      markViewRead(unreadMessagesBetween(rows, 0, index));
    } else {
      index = keptSelectionIndex(rows, selectedId, lastIndex.current);
    }
    lastIndex.current = index;
    const id = idAt(index);
    const current = useMessageCursor.getState();
    if (id !== null && (current.narrow !== narrowKey || current.messageId !== id))
      select(narrowKey, id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on new rows only
  }, [rows, narrowKey, hasNewer]);

  /** Whether row `index` is at least partly on screen. */
  const isOnScreen = useCallback(
    (index: number) => {
      const element = scroller.current;
      const item = virtualizer.measurementsCache[index];
      if (!element || !item) return false;
      return item.end > element.scrollTop && item.start < element.scrollTop + element.clientHeight;
    },
    [scroller, virtualizer],
  );

  /** The first (or last) message on screen, where a selection scrolled out of view resumes. */
  const edgeOfScreen = useCallback(
    (fromTop: boolean) => {
      const element = scroller.current;
      if (!element) return -1;
      const top = element.scrollTop;
      const bottom = top + element.clientHeight;
      const visible = virtualizer.measurementsCache.filter(
        (item) => item.end > top && item.start < bottom && rows[item.index]?.kind === 'message',
      );
      const item = fromTop ? visible[0] : visible[visible.length - 1];
      return item ? item.index : -1;
    },
    [scroller, virtualizer, rows],
  );

  const selectIndex = useCallback(
    (index: number, align: 'auto' | 'start' | 'end' = 'auto') => {
      const id = idAt(index);
      if (id === null) return;
      lastIndex.current = index;
      select(narrowKey, id);
      virtualizer.scrollToIndex(index, { align });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- idAt reads the current rows
    [rows, narrowKey, select, virtualizer],
  );

  const step = useCallback(
    (direction: 1 | -1) => {
      let from = rowIndexOf(rows, selectedId);
      // Scrolled away with the mouse: continue from what is on screen, as the reference app's
      // pointer follows the scroll.
      if (from === -1 || !isOnScreen(from)) {
        const resume = edgeOfScreen(direction === 1);
        if (resume !== -1) {
          selectIndex(resume);
          return;
        }
        from = Math.max(from, anchorMessageIndex(rows));
      }
      const next = stepMessageIndex(rows, from, direction);
      if (next === -1) {
        if (direction === 1) loadNewer();
        else loadOlder();
        return;
      }
      // Show the recipient bar above the first message of a conversation when going up.
      const context = direction === -1 && rows[next - 1]?.kind === 'recipient' ? next - 1 : next;
      selectIndex(next);
      if (context !== next) virtualizer.scrollToIndex(context, { align: 'auto' });
      if (direction === 1) seen(unreadMessagesBetween(rows, from, next));
    },
    [
      rows,
      selectedId,
      isOnScreen,
      edgeOfScreen,
      selectIndex,
      loadNewer,
      loadOlder,
      seen,
      virtualizer,
    ],
  );

  const goToEnd = useCallback(() => {
    if (hasNewer) {
      endRequested.current = true;
      void jumpToNewest().catch(() => {
        endRequested.current = false;
      });
      return;
    }
    const last = lastMessageIndex(rows);
    if (last === -1) return;
    selectIndex(last, 'end');
    markViewRead(unreadMessagesBetween(rows, 0, last));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- markViewRead reads current props
  }, [hasNewer, jumpToNewest, rows, selectIndex, seen, unreadInNarrow, markNarrowRead]);

  const scrollPage = useCallback(
    (direction: 1 | -1) => {
      const element = scroller.current;
      if (!element) return;
      element.scrollBy({ top: direction * element.clientHeight * PAGE_FRACTION });
    },
    [scroller],
  );

  useShortcutKeys((event) => {
    if (rows.length === 0) return false;
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        step(1);
        return true;
      case 'k':
      case 'ArrowUp':
        step(-1);
        return true;
      case 'Home': {
        const first = firstMessageIndex(rows);
        if (first !== -1) selectIndex(first, 'start');
        loadOlder();
        return true;
      }
      case 'End':
      case 'G':
        goToEnd();
        return true;
      case 'PageDown':
      case 'J':
        scrollPage(1);
        return true;
      case 'PageUp':
      case 'K':
        scrollPage(-1);
        return true;
      default:
        return false;
    }
  });

  /** A click on a message selects it. */
  const selectByClick = useCallback(
    (target: EventTarget) => {
      const article = (target as Element).closest?.('article[data-message-id]');
      if (!article) return;
      const id = Number(article.getAttribute('data-message-id'));
      const index = rowIndexOf(rows, id);
      if (index === -1) return;
      lastIndex.current = index;
      select(narrowKey, id);
    },
    [rows, narrowKey, select],
  );

  return { selectedId, selectByClick };
}
