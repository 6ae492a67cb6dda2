/**
 * On a phone a message's actions are out of sight until the message is tapped: which message a
 * tap in the feed opens the actions of. A tap on something that acts by itself (a link, a
 * button, a field, an image preview, a spoiler) does only that.
 */
import { useEffect, useState, type MouseEvent, type RefObject } from 'react';
import { isPhoneNow } from '../../components/use-is-phone';

const ACTS_BY_ITSELF = [
  'a',
  'button',
  'input',
  'textarea',
  'select',
  'label',
  'summary',
  'video',
  'audio',
  '[role="button"]',
  '[contenteditable]',
  '.message-editor',
  '.message-actions',
  '.reactions',
].join(', ');

/**
 * The id of the message whose body or header was tapped, 'inside' for a tap on something that
 * acts inside a message (the actions stay as they are), or null for a tap elsewhere in the feed.
 */
export function tappedMessage(target: EventTarget, handled: boolean): number | 'inside' | null {
  if (!(target instanceof Element)) return null;
  const article = target.closest('article[data-message-id]');
  if (!article) return null;
  if (handled || target.closest(ACTS_BY_ITSELF)) return 'inside';
  // Selecting text with a long press is not a tap.
  const selection = window.getSelection();
  if (selection && !selection.isCollapsed && article.contains(selection.anchorNode))
    return 'inside';
  return Number(article.getAttribute('data-message-id'));
}

/** The message whose actions show after a tap, given the one showing them before. */
export function actionsAfterTap(
  current: number | null,
  tapped: number | 'inside' | null,
): number | null {
  if (tapped === 'inside') return current;
  if (tapped === null) return null;
  // A second tap on the same message puts its actions away again.
  return tapped === current ? null : tapped;
}

/** The message whose actions a tap put on screen, and the click handler of the feed's rows. */
export function useMessageTaps(rows: RefObject<HTMLElement | null>) {
  const [actionsId, setActionsId] = useState<number | null>(null);
  const onTap = (event: MouseEvent) => {
    // Clicks in popovers (menus, the emoji picker) reach the rows through React's tree: not taps.
    if (!isPhoneNow() || !rows.current?.contains(event.target as Node)) return;
    const tapped = tappedMessage(event.target, event.defaultPrevented);
    setActionsId((current) => actionsAfterTap(current, tapped));
  };
  // Actions shown under a message at the bottom of the screen are scrolled into sight.
  useEffect(() => {
    if (actionsId === null) return;
    const actions = rows.current?.querySelector('[data-actions-open] .message-actions');
    actions?.scrollIntoView({ block: 'nearest' });
  }, [actionsId, rows]);
  return { actionsId, onTap };
}
