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
  const { narrowKey, selectedId, select, lastIndex, selectIndex, selectByClick } =
    useCursorSelection(narrow, rows, virtualizer);
  const markViewRead = useMarkViewRead(narrow, seen);
  const opened = useRef(false);
  const endRequested = useRef(false);

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
    const id = messageIdAt(rows, index);
    const current = useMessageCursor.getState();
    if (id !== null && (current.narrow !== narrowKey || current.messageId !== id))
      select(narrowKey, id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on new rows only
  }, [rows, narrowKey, hasNewer]);

  const step = useStepThroughMessages({
    rows,
    selectedId,
    selectIndex,
    scroller,
    virtualizer,
    loadNewer,
    loadOlder,
    seen,
  });

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
  }, [hasNewer, jumpToNewest, rows, selectIndex, markViewRead]);

  useShortcutKeys((event) => {
    if (rows.length === 0) return false;
    return runCursorKey(event.key, {
      step,
      goToStart: () => {
        const first = firstMessageIndex(rows);
        if (first !== -1) selectIndex(first, 'start');
        loadOlder();
      },
      goToEnd,
      scrollPage: (direction) => scrollPage(scroller.current, direction),
    });
  });

  return { selectedId, selectByClick };
}

/** The keymap of the message list; returns whether the key was used. */
function runCursorKey(
  key: string,
  actions: {
    step(direction: 1 | -1): void;
    goToStart(): void;
    goToEnd(): void;
    scrollPage(direction: 1 | -1): void;
  },
): boolean {
  switch (key) {
    case 'j':
    case 'ArrowDown':
      actions.step(1);
      return true;
    case 'k':
    case 'ArrowUp':
      actions.step(-1);
      return true;
    case 'Home':
      actions.goToStart();
      return true;
    case 'End':
    case 'G':
      actions.goToEnd();
      return true;
    case 'PageDown':
    case 'J':
      actions.scrollPage(1);
      return true;
    case 'PageUp':
    case 'K':
      actions.scrollPage(-1);
      return true;
    default:
      return false;
  }
}

function scrollPage(element: HTMLDivElement | null, direction: 1 | -1) {
  if (!element) return;
  element.scrollBy({ top: direction * element.clientHeight * PAGE_FRACTION });
}

function messageIdAt(rows: readonly FeedRow[], index: number): number | null {
  const row = rows[index];
  return row?.kind === 'message' ? row.message.id : null;
}

/**
 * The selected message of this narrow and the ways to change it: by row (scrolling it into
 * view) or by a click on a message. `lastIndex` remembers the row, to keep a place when the
 * selected message goes away.
 */
function useCursorSelection(
  narrow: Narrow,
  rows: FeedRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
) {
  const narrowKey = keyOf(narrow);
  const selectedId = useMessageCursor((cursor) => selectedMessageIn(cursor, narrowKey));
  const select = useMessageCursor((cursor) => cursor.select);
  const lastIndex = useRef(-1);

  const selectIndex = useCallback(
    (index: number, align: 'auto' | 'start' | 'end' = 'auto') => {
      const id = messageIdAt(rows, index);
      if (id === null) return;
      lastIndex.current = index;
      select(narrowKey, id);
      virtualizer.scrollToIndex(index, { align });
    },
    [rows, narrowKey, select, virtualizer],
  );

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

  return { narrowKey, selectedId, select, lastIndex, selectIndex, selectByClick };
}

/**
 * Reports the loaded messages passed over as seen; "Last message" marks the whole conversation
 * read, loaded or not, as the reference app does.
 */
function useMarkViewRead(narrow: Narrow, seen: (messages: Message[]) => void) {
  const spectator = useIsSpectator();
  const unreadInNarrow = useUnreadIdsIn(narrow);
  const { mutate: markNarrowRead } = useMarkNarrowAsRead(narrow);
  return useCallback(
    (loaded: Message[]) => {
      seen(loaded);
      const conversation = ['stream', 'topic', 'dm'].includes(narrow.kind);
      if (conversation && !spectator && unreadInNarrow.length > 0) markNarrowRead(unreadInNarrow);
    },
    [seen, narrow.kind, spectator, unreadInNarrow, markNarrowRead],
  );
}

/**
 * One step up or down the messages: from the selection, or from the edge of the screen when the
 * selection was scrolled away; past the loaded ones it loads more. Going down reports the
 * unread messages passed over as seen.
 */
function useStepThroughMessages({
  rows,
  selectedId,
  selectIndex,
  scroller,
  virtualizer,
  loadNewer,
  loadOlder,
  seen,
}: Pick<
  MessageCursorOptions,
  'rows' | 'scroller' | 'virtualizer' | 'loadNewer' | 'loadOlder' | 'seen'
> & {
  selectedId: number | null;
  selectIndex(index: number): void;
}) {
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

  return useCallback(
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
}
