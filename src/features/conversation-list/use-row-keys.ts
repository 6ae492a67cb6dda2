/**
 * Arrow keys (and j/k) move between the rows of a virtualised list of conversations, as in the
 * reference app's Inbox and Recent conversations; Enter opens the focused row (it is a link).
 * From anywhere outside a field, the first arrow press focuses the first row.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, type KeyboardEvent } from 'react';
import { useShortcutKeys } from '../keyboard/keys';

const STEP: Record<string, 1 | -1> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 };

export function useRowKeys(
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  list: React.RefObject<HTMLDivElement | null>,
  count: number,
) {
  const focusRow = useCallback(
    (index: number, attempts = 4) => {
      if (index < 0 || index >= count) return;
      const target = list.current?.querySelector<HTMLElement>(
        `[data-index="${index}"] [data-row-focus]`,
      );
      if (target) {
        target.focus();
        target.scrollIntoView({ block: 'nearest' });
        return;
      }
      // Not rendered yet: bring it into the virtualised window, then try again.
      virtualizer.scrollToIndex(index, { align: 'auto' });
      if (attempts > 0) requestAnimationFrame(() => focusRow(index, attempts - 1));
    },
    [count, list, virtualizer],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const step = STEP[event.key];
      if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
      const row = (event.target as Element).closest('[data-index]');
      if (!row || !(event.target as Element).hasAttribute('data-row-focus')) return;
      event.preventDefault();
      focusRow(Number(row.getAttribute('data-index')) + step);
    },
    [focusRow],
  );

  useShortcutKeys((event) => {
    if (!STEP[event.key] || count === 0) return false;
    focusRow(0);
    return true;
  });

  return { onKeyDown };
}
