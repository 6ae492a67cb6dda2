/**
 * The recipient bar that stays at the top of the feed while its conversation scrolls under it.
 * The feed's rows are absolutely placed slots, where `position: sticky` has nothing to stick in;
 * the bar of the conversation at the top of the screen is drawn instead as the one slot in the
 * canvas's flow, made sticky (see FeedCanvas), and pushed up by the next conversation's rows.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import type { FeedRow } from './build-rows';

export interface StuckRecipient {
  /** the row of the recipient bar */
  index: number;
  /** how far (px, 0 or less) the next conversation pushes it up */
  push: number;
}

interface RowPlace {
  index: number;
  start: number;
  end: number;
}

/**
 * The bar to keep at the top when the canvas is scrolled `top` px under the top of the screen,
 * given the rows' measured places: the last bar whose top has gone above the screen, or null
 * when the bar on screen is in its own place (or there is none).
 */
export function stuckRecipientAt(
  rows: readonly FeedRow[],
  places: readonly RowPlace[],
  top: number,
  barHeight: number,
): StuckRecipient | null {
  let stuck: RowPlace | null = null;
  let next: RowPlace | null = null;
  for (const place of places) {
    const kind = rows[place.index]?.kind;
    if (kind === undefined || kind === 'message') continue;
    if (place.start >= top) {
      next = place;
      break;
    }
    // A date gone above the screen ends the conversation before it; the bar after it follows.
    stuck = kind === 'recipient' ? place : null;
  }
  if (!stuck) return null;
  // The next conversation's date or bar reaching the bottom of the stuck bar pushes it up.
  const push = next ? Math.min(0, Math.round(next.start - top - barHeight)) : 0;
  return { index: stuck.index, push };
}

/** A bar's height before the stuck one is drawn and can be measured. */
const BAR_HEIGHT = 32;

/**
 * Which bar is stuck, kept up to date as the feed scrolls (the canvas sits directly in the feed's
 * scrolling box) and whenever the rows or their sizes change. The row's key comes along, so that
 * a stale index (rows prepended since) is not drawn as another row.
 */
export function useStuckRecipient(
  rows: readonly FeedRow[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  canvas: RefObject<HTMLDivElement | null>,
): StuckRecipient | null {
  const [stuck, setStuck] = useState<(StuckRecipient & { key: string }) | null>(null);
  const update = useCallback(() => {
    const inner = canvas.current;
    const outer = inner?.parentElement;
    if (!inner || !outer) return;
    const top = outer.getBoundingClientRect().top - inner.getBoundingClientRect().top;
    const bar = inner.querySelector<HTMLElement>(':scope > .message-slot-stuck');
    const found = stuckRecipientAt(
      rows,
      virtualizer.measurementsCache,
      top,
      bar?.offsetHeight ?? BAR_HEIGHT,
    );
    const next = found && { ...found, key: rows[found.index].key };
    setStuck((old) =>
      old?.key === next?.key && old?.index === next?.index && old?.push === next?.push ? old : next,
    );
  }, [rows, virtualizer, canvas]);
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(update, [update, totalSize]);
  useEffect(() => {
    const outer = canvas.current?.parentElement;
    outer?.addEventListener('scroll', update, { passive: true });
    return () => outer?.removeEventListener('scroll', update);
  }, [canvas, update]);
  return stuck && rows[stuck.index]?.key === stuck.key ? stuck : null;
}
