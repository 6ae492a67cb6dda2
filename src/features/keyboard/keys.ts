/**
 * Shared pieces of keyboard handling: shortcuts never fire while the person is typing in a field
 * or while a modifier other than Shift is held (those belong to the browser).
 */
import { useEffect, useRef } from 'react';

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color'].includes(type);
}

/** Keys pressed inside a dialog or a menu belong to it, not to the page behind. */
export function isInOverlay(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest(
      'dialog, [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]',
    ) !== null
  );
}

/** Whether a keydown is a candidate for a single-key shortcut. */
export function isShortcutEvent(event: KeyboardEvent): boolean {
  return (
    !event.defaultPrevented &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.altKey &&
    !event.isComposing &&
    !isTypingTarget(event.target) &&
    !isInOverlay(event.target)
  );
}

/**
 * Calls `handler` for shortcut keydowns on the window (see isShortcutEvent). The handler returns
 * true when it used the key; the event's default is then prevented.
 */
export function useShortcutKeys(handler: (event: KeyboardEvent) => boolean, enabled = true): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcutEvent(event)) return;
      if (latest.current(event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
