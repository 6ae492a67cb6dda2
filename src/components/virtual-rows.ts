/**
 * Helpers for long lists that render only their visible rows (@tanstack/react-virtual), when the
 * list shares its scroll container with other content: the people list in the right sidebar and
 * the administration's table of users.
 *
 * A box without layout (a hidden sidebar, or a test's DOM, which has none) reports a height of 0,
 * and the virtualizer would then render no rows at all. These helpers assume a viewport's height
 * instead, and the estimated height of a row that measures 0, so that the first screenful of rows
 * is always there; a real size replaces the guess as soon as the browser reports one.
 */
import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  type Range,
  type Rect,
  type Virtualizer,
} from '@tanstack/react-virtual';

/** `observeElementRect`, with the window's height for a box that has no height yet. */
export function observeRectOrViewport<T extends Element, E extends Element>(
  instance: Virtualizer<T, E>,
  onRect: (rect: Rect) => void,
) {
  return observeElementRect(instance, (rect) =>
    onRect(
      rect.height > 0
        ? rect
        : { width: rect.width, height: instance.targetWindow?.innerHeight ?? 0 },
    ),
  );
}

/** `measureElement`, with the row's estimate for a row that has no height yet. */
export function measureOrEstimate<T extends Element, E extends Element>(
  element: E,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<T, E>,
): number {
  const size = measureElement(element, entry, instance);
  return size > 0 ? size : instance.options.estimateSize(instance.indexFromElement(element));
}

/**
 * The visible rows and their overscan, and also `pinned` ones wherever they are: a row that has
 * the focus, or that an open card or dialog returns the focus to, must stay in the document.
 */
export function keepingRows(pinned: readonly number[]): (range: Range) => number[] {
  return (range) => {
    const rows = defaultRangeExtractor(range);
    const first = rows[0] ?? 0;
    const last = rows[rows.length - 1] ?? -1;
    const extra = pinned.filter((i) => i >= 0 && i < range.count && (i < first || i > last));
    return extra.length === 0 ? rows : [...new Set([...rows, ...extra])].sort((a, b) => a - b);
  };
}

/** The nearest ancestor that scrolls; the document's scrolling element if none does. */
export function scrollParentOf(element: Element | null): HTMLElement {
  for (let node = element?.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') return node;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/**
 * Where `element` starts in the scrolled content of `scroller` (the virtualizer's
 * `scrollMargin`), in whole pixels; 0 while either has no layout box to measure.
 */
export function offsetWithin(scroller: Element | null, element: Element | null): number {
  if (!scroller || !element) return 0;
  if (scroller.getClientRects().length === 0 || element.getClientRects().length === 0) return 0;
  const top = element.getBoundingClientRect().top;
  const origin = scroller.getBoundingClientRect().top + scroller.clientTop - scroller.scrollTop;
  return Math.round(top - origin);
}
