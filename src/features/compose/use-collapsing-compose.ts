/**
 * On a phone the compose box is folded into one button until it is wanted, as in the reference's
 * mobile web: a tap, a compose request (reply, quote, C, X) or focus opens it; sending, Escape
 * in an empty box and its close button fold it again. A box left with a draft in it starts open.
 * On a desktop the box is always open, and none of this shows.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useIsPhone } from '../../components/use-is-phone';
import { isInOverlay } from '../keyboard/keys';
import type { ComposeFields } from './use-compose-fields';

/** The first field still to fill, where a tap on the folded box puts the cursor. */
function fieldToFill(fields: ComposeFields): string {
  if (fields.mode === 'direct')
    return fields.recipients.length ? 'compose-content' : 'compose-recipients';
  if (!fields.stream) return 'compose-stream';
  if (!fields.topic.trim()) return 'compose-topic';
  return 'compose-content';
}

/** An Escape the box's fields and popups do not take for themselves (a suggestion list, a dialog). */
function isEscapeForBox(event: KeyboardEvent<HTMLElement>): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented) return false;
  const target = event.target as HTMLElement;
  return target.getAttribute('aria-expanded') !== 'true' && !isInOverlay(target);
}

/** `onFold` runs as the box folds: what was under way in it (typing, a preview) ends. */
export function useCollapsingCompose(fields: ComposeFields, onFold: () => void) {
  const isPhone = useIsPhone();
  const [open, setOpen] = useState(() => fields.content.trim() !== '');
  // Where the focus goes once the box has been drawn open or folded: a new object each time.
  const [focus, setFocus] = useState<{ id: string | null } | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!focus) return;
    if (focus.id) document.getElementById(focus.id)?.focus();
    else button.current?.focus();
  }, [focus]);

  const collapse = () => {
    onFold();
    setOpen(false);
    if (isPhone) setFocus({ id: null });
  };

  return {
    isPhone,
    collapsed: isPhone && !open,
    button,
    /** a tap on the folded box: open it, the cursor in the first field to fill */
    expand: () => {
      setOpen(true);
      setFocus({ id: fieldToFill(fields) });
    },
    /** a compose request opens the box and puts the cursor where it says */
    opened: () => setOpen(true),
    collapse,
    /** the open box: focus inside keeps it open, Escape in it empty folds it */
    formProps: {
      onFocus: () => setOpen(true),
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        if (isPhone && isEscapeForBox(event) && fields.contentRef.current.trim() === '') collapse();
      },
    },
  };
}

export type CollapsingCompose = ReturnType<typeof useCollapsingCompose>;
