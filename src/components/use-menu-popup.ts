/**
 * A ⋮ button's popup menu, as the WAI-ARIA menu button pattern describes it: the button toggles
 * it (and ArrowDown opens it), opening focuses the first item, a click outside closes it, arrows
 * move between items and wrap, Home and End jump, Escape closes and gives focus back to the
 * button, Tab lets focus leave. Items are anything with a `menuitem*` role, so a row of colour
 * swatches (`menuitemradio`) moves with the rest.
 */
import {
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';

const ITEMS = '[role^="menuitem"]';

export interface MenuPopupOptions {
  /** Left and right arrows move too: for a menu with a row of items side by side. */
  arrowsAcross?: boolean;
}

export function useMenuPopup({ arrowsAcross = false }: MenuPopupOptions = {}) {
  const [open, setOpen] = useState(false);
  // Opens upwards in the lower part of the window, so the edge of a scrolling list does not cut
  // it off.
  const [upwards, setUpwards] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    root.current?.querySelector<HTMLElement>(ITEMS)?.focus();
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onButtonClick = (event: ReactMouseEvent) => {
    // A row link around the button must not navigate.
    event.preventDefault();
    event.stopPropagation();
    const box = root.current?.getBoundingClientRect();
    setUpwards(!!box && box.top > window.innerHeight * 0.6);
    setOpen((o) => !o);
  };

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLElement>) => {
    const items = [...(root.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const steps: Record<string, number> = arrowsAcross
      ? { ArrowDown: 1, ArrowUp: -1, ArrowRight: 1, ArrowLeft: -1 }
      : { ArrowDown: 1, ArrowUp: -1 };
    const step = steps[event.key];
    if (step !== undefined) {
      event.preventDefault();
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      items[event.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return { open, setOpen, upwards, root, button, close, onButtonClick, onButtonKey, onMenuKey };
}
