import { useState, type KeyboardEvent, type RefObject } from 'react';

/** The emoji in the row above or below, nearest in column: rows differ between sections. */
function verticalNeighbour(body: HTMLElement | null, index: number, down: boolean): number {
  const buttons = [...(body?.querySelectorAll<HTMLElement>('[data-emoji-index]') ?? [])];
  const current = buttons[index]?.getBoundingClientRect();
  if (!current) return index;
  const step = down ? 1 : -1;
  let rowTop: number | null = null;
  let best = index;
  let bestDistance = Infinity;
  for (let i = index + step; i >= 0 && i < buttons.length; i += step) {
    const box = buttons[i].getBoundingClientRect();
    if (Math.abs(box.top - current.top) < 2) continue;
    rowTop ??= box.top;
    if (Math.abs(box.top - rowTop) >= 2) break;
    const distance = Math.abs(box.left - current.left);
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  }
  return best;
}

/**
 * The grid's one focusable emoji (roving tabindex) and its arrow, Home and End keys; ArrowUp
 * from the top row goes back to the search box.
 */
export function useGridCursor(
  body: RefObject<HTMLDivElement | null>,
  search: RefObject<HTMLInputElement | null>,
  count: number,
) {
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(0, count - 1));

  const focusEmoji = (index: number) => {
    const clamped = Math.max(0, Math.min(count - 1, index));
    setActive(clamped);
    requestAnimationFrame(() =>
      body.current?.querySelector<HTMLElement>(`[data-emoji-index="${clamped}"]`)?.focus(),
    );
  };

  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, () => number> = {
      ArrowRight: () => activeIndex + 1,
      ArrowLeft: () => activeIndex - 1,
      ArrowDown: () => verticalNeighbour(body.current, activeIndex, true),
      ArrowUp: () => verticalNeighbour(body.current, activeIndex, false),
      Home: () => 0,
      End: () => count - 1,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    if (
      event.key === 'ArrowUp' &&
      verticalNeighbour(body.current, activeIndex, false) === activeIndex
    ) {
      search.current?.focus();
      return;
    }
    focusEmoji(move());
  };

  return { activeIndex, setActive, focusEmoji, onGridKey };
}
