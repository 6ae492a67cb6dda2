/**
 * The "Message actions" (⋮) button of a message and its menu: a role=menu popover, placed in
 * the window (the feed's rows are transformed, which would trap a fixed popover), moved through
 * with the arrow keys, closed with Escape, which gives the focus back to the button.
 */
import { messageMovePermissions } from '../topics/permissions';
import { useTopicPermissions } from '../topics/use-topic-permissions';
import { Fragment, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { useOwnUserId, useRealmSetting } from '../../model/hooks';
import { menuItems, type MessageActionId } from './menu-items';
import { useMessageActionsUi } from './store';
import { useRunMessageAction } from './use-message-action';

interface MessageActionsMenuProps {
  message: Message;
  canEdit: boolean;
  canDelete: boolean;
  onEdit(): void;
  onDelete(): void;
}

export function MessageActionsMenu(props: MessageActionsMenuProps) {
  const { message } = props;
  const { t } = useTranslation('messages');
  const open = useMessageActionsUi((s) => s.menu?.messageId === message.id);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="icon-button message-menu-button"
        aria-label={t('menu.label')}
        title={t('menu.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          const ui = useMessageActionsUi.getState();
          if (open) ui.menuClosed();
          else ui.menuOpened(message.id, false);
        }}
      >
        <MoreIcon />
      </button>
      {open && <MenuPopover {...props} button={button} />}
    </>
  );
}

type ButtonRef = React.RefObject<HTMLButtonElement | null>;
type MenuRef = React.RefObject<HTMLDivElement | null>;

function MenuPopover({
  message,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  button,
}: MessageActionsMenuProps & { button: ButtonRef }) {
  const { t } = useTranslation('messages');
  const run = useRunMessageAction();
  const menu = useRef<HTMLDivElement>(null);
  const groups = useMenuGroups(message, canEdit, canDelete);

  const close = (refocus: boolean) => {
    useMessageActionsUi.getState().menuClosed();
    if (refocus) button.current?.focus();
  };
  const position = usePopoverPlacement(button, menu, () => close(false));

  const choose = (id: MessageActionId) => {
    close(true);
    if (id === 'edit') onEdit();
    else if (id === 'delete') onDelete();
    else run(id, message);
  };

  return createPortal(
    <div
      ref={menu}
      role="menu"
      aria-label={t('menu.label')}
      className="message-menu"
      style={position ?? { top: 0, left: 0, visibility: 'hidden' }}
      onKeyDown={(event) => onMenuKey(event, menu, close)}
    >
      {groups.map((group, groupIndex) => (
        <Fragment key={group[0].id}>
          {groupIndex > 0 && <div role="separator" className="message-menu-separator" />}
          {group.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={item.id === 'delete' ? 'message-menu-item danger' : 'message-menu-item'}
              onClick={() => choose(item.id)}
            >
              {item.label}
            </button>
          ))}
        </Fragment>
      ))}
    </div>,
    document.body,
  );
}

/** The menu's items for this message and this person, in groups between separators. */
function useMenuGroups(message: Message, canEdit: boolean, canDelete: boolean) {
  const ownUserId = useOwnUserId();
  const allowEditHistory = useRealmSetting('allow_edit_history') !== false;
  const readReceipts = useRealmSetting('enable_read_receipts') === true;
  const { actor, settings } = useTopicPermissions();
  const movable = messageMovePermissions(message, settings, actor, Date.now() / 1000);
  return menuItems(message, {
    ownUserId,
    canEdit,
    canDelete,
    canMove: movable.topic || movable.channel,
    allowEditHistory,
    readReceipts,
  });
}

/**
 * Where the popover sits (null until measured), and the ways it goes away: a click elsewhere, or
 * its message scrolled out of sight. The first item takes the focus once it is placed.
 */
function usePopoverPlacement(button: ButtonRef, menu: MenuRef, dismiss: () => void) {
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  // Placed beside the button: below it when it fits, else above; always inside the window.
  const place = () => {
    const anchor = button.current?.getBoundingClientRect();
    const box = menu.current?.getBoundingClientRect();
    if (!anchor || !box) return;
    const margin = 8;
    const below = anchor.bottom + 4;
    const top =
      below + box.height <= window.innerHeight - margin
        ? below
        : Math.max(margin, anchor.top - 4 - box.height);
    const left = Math.min(
      Math.max(margin, anchor.right - box.width),
      window.innerWidth - box.width - margin,
    );
    setPosition((old) => (old && old.top === top && old.left === left ? old : { top, left }));
  };
  // Placed once; scrolling places it again (below).
  useLayoutEffect(place, [button, menu]);

  // The first item takes the focus once placed (a hidden element cannot take it).
  const placed = position !== null;
  useLayoutEffect(() => {
    if (placed) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [placed, menu]);

  useDismissOnOutsideOrScroll(button, menu, dismiss, place);
  return position;
}

/**
 * A click elsewhere closes the menu, and so does scrolling its message out of sight; the focus
 * stays where the person put it. While the message stays in sight, the menu follows it: the feed
 * also scrolls by itself (rows measured, new messages), and that must not shut a menu the person
 * just opened.
 */
function useDismissOnOutsideOrScroll(
  button: ButtonRef,
  menu: MenuRef,
  dismiss: () => void,
  follow: () => void,
) {
  useLayoutEffect(() => {
    const onPointer = (event: Event) => {
      const target = event.target as Node;
      if (menu.current?.contains(target) || button.current?.contains(target)) return;
      dismiss();
    };
    const onScroll = (event: Event) => {
      const target = event.target;
      if (menu.current?.contains(target as Node)) return;
      const anchor = button.current?.getBoundingClientRect();
      // In sight: wholly inside the element that scrolled (the feed, which the composer and the
      // header border), or inside the window when something else scrolled.
      const area =
        target instanceof Element && button.current && target.contains(button.current)
          ? target.getBoundingClientRect()
          : { top: 0, bottom: window.innerHeight };
      const gone =
        !anchor ||
        !button.current?.isConnected ||
        anchor.top < area.top ||
        anchor.bottom > area.bottom;
      if (gone) dismiss();
      else follow();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('scroll', onScroll, true);
    };
  });
}

/** Arrows, Home and End move through the items; Escape and Tab close the menu. */
function onMenuKey(
  event: KeyboardEvent<HTMLDivElement>,
  menu: MenuRef,
  close: (refocus: boolean) => void,
) {
  // The menu owns the keyboard while open: no shortcut of the page reacts.
  event.stopPropagation();
  const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const index = items.indexOf(document.activeElement as HTMLElement);
  const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
  switch (event.key) {
    case 'ArrowDown':
      focusAt(index + 1);
      break;
    case 'ArrowUp':
      focusAt(index < 0 ? -1 : index - 1);
      break;
    case 'Home':
      focusAt(0);
      break;
    case 'End':
      focusAt(-1);
      break;
    case 'Escape':
      close(true);
      break;
    case 'Tab':
      close(true);
      break;
    default:
      return;
  }
  event.preventDefault();
}

function MoreIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
      <circle cx="12" cy="5" r="1.8" />
      <circle cx="12" cy="12" r="1.8" />
      <circle cx="12" cy="19" r="1.8" />
    </svg>
  );
}
