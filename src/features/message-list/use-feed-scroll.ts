/**
 * Scroll behaviour of the virtualised feed: open at the first unread message (or the bottom),
 * keep the view still when older messages are prepended, follow new messages only when the
 * reader is already at the bottom, and ask for more history near either end.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef } from 'react';
import type { FeedRow } from './build-rows';

const NEAR_EDGE_PX = 800;
const AT_BOTTOM_SLACK_PX = 48;

interface FeedScrollOptions {
  rows: FeedRow[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scroller: React.RefObject<HTMLDivElement | null>;
  loadOlder(): void;
  loadNewer(): void;
  onVisibleRowsChanged(): void;
  /** a permalink's message: the list opens with it in the middle */
  targetId?: number;
}

export function useFeedScroll({
  rows,
  virtualizer,
  scroller,
  loadOlder,
  loadNewer,
  onVisibleRowsChanged,
  targetId,
}: FeedScrollOptions) {
  const positioned = useRef(false);
  const atBottom = useRef(false);
  const previous = useRef<{ firstKey: string | null; lastKey: string | null }>({
    firstKey: null,
    lastKey: null,
  });
  const viewAnchor = useRef<{ key: string; delta: number } | null>(null);

  const rememberViewAnchor = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    // The measurements, not the rendered range: the virtualizer may not have seen this scroll yet.
    const first = virtualizer.measurementsCache.find((item) => item.end > element.scrollTop);
    if (first)
      viewAnchor.current = { key: String(first.key), delta: element.scrollTop - first.start };
    atBottom.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < AT_BOTTOM_SLACK_PX;
  }, [scroller, virtualizer]);

  const checkEdges = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    if (element.scrollTop < NEAR_EDGE_PX) loadOlder();
    if (element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_EDGE_PX) loadNewer();
  }, [scroller, loadOlder, loadNewer]);

  const onScroll = useCallback(() => {
    rememberViewAnchor();
    checkEdges();
    onVisibleRowsChanged();
  }, [rememberViewAnchor, checkEdges, onVisibleRowsChanged]);

  useLayoutEffect(() => {
    if (rows.length === 0) return;
    const firstKey = rows[0].key;
    const lastKey = rows[rows.length - 1].key;
    const before = previous.current;
    previous.current = { firstKey, lastKey };

    if (!positioned.current) {
      positioned.current = true;
      scrollToOpeningPosition(rows, virtualizer, targetId);
      // Look at the edges only once the opening scroll has landed, or we would fetch a page
      // of older history for a viewport that was never at the top.
      requestAnimationFrame(() => requestAnimationFrame(onScroll));
      return;
    } else if (before.firstKey !== firstKey && viewAnchor.current) {
      keepAnchorInPlace(rows, virtualizer, scroller.current, viewAnchor.current);
    } else if (before.lastKey !== lastKey && atBottom.current) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    }
    // Rows changed under a still viewport: new messages may be visible or an edge reached.
    requestAnimationFrame(() => {
      rememberViewAnchor();
      checkEdges();
      onVisibleRowsChanged();
    });
  }, [
    rows,
    virtualizer,
    scroller,
    rememberViewAnchor,
    checkEdges,
    onVisibleRowsChanged,
    onScroll,
    targetId,
  ]);

  return { onScroll };
}

/**
 * Where a list opens: at a permalink's message (in the middle), else at the first unread message
 * with the recipient bar (and date) above it for context, else at the newest message.
 */
export function openingRow(
  rows: FeedRow[],
  targetId: number | undefined,
): { index: number; align: 'start' | 'center' | 'end' } {
  const target =
    targetId === undefined
      ? -1
      : rows.findIndex((row) => row.kind === 'message' && row.message.id === targetId);
  if (target !== -1) return { index: target, align: 'center' };
  const firstUnread = rows.findIndex(
    (row) => row.kind === 'message' && !row.message.flags.includes('read'),
  );
  if (firstUnread === -1) return { index: rows.length - 1, align: 'end' };
  let index = firstUnread;
  while (index > 0 && rows[index - 1].kind !== 'message') index -= 1;
  return { index, align: 'start' };
}

function scrollToOpeningPosition(
  rows: FeedRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  targetId: number | undefined,
) {
  const { index, align } = openingRow(rows, targetId);
  virtualizer.scrollToIndex(index, { align });
}

function keepAnchorInPlace(
  rows: FeedRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  element: HTMLDivElement | null,
  anchor: { key: string; delta: number },
) {
  const index = rows.findIndex((row) => row.key === anchor.key);
  const measurement = virtualizer.measurementsCache[index];
  if (!element || index === -1 || !measurement) return;
  element.scrollTop = measurement.start + anchor.delta;
}
