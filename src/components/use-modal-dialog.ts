/**
 * The life of a native modal <dialog>, shared by every dialog of the app: opened with
 * showModal() (the browser traps the focus and makes the page behind inert), the first control
 * matching `initialFocus` focused, Escape closing it through `onClose` so React state follows,
 * and on unmount closed with the focus back where it was before.
 */
import { useEffect, useRef, type RefObject } from 'react';

export function useModalDialog(
  dialog: RefObject<HTMLDialogElement | null>,
  onClose: () => void,
  initialFocus: string | null = 'input:not([disabled]), select:not([disabled]), button',
) {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  const focusRef = useRef(initialFocus);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    if (focusRef.current) element.querySelector<HTMLElement>(focusRef.current)?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeRef.current();
    };
    element.addEventListener('cancel', onCancel);
    return () => {
      element.removeEventListener('cancel', onCancel);
      if (element.open && typeof element.close === 'function') element.close();
      if (before?.isConnected) before.focus();
    };
  }, [dialog]);
}
