/**
 * What message actions add to a message list once: the shortcut keys on the selected message,
 * the dialogs, the brief status line, and resuming reading after "Mark as unread from here".
 */
import { useEffect, useRef } from 'react';
import { ROLE } from '../../api/model/user';
import { useOwnUserId, useRealmSetting, useUsersById } from '../../model/hooks';
import { useSessionCore } from '../../model/session-core';
import { selectedMessageIn, useMessageCursor } from '../../model/message-cursor';
import { narrowKey, type Narrow } from '../../narrow';
import { useLoadedMessageLookup } from '../../queries/message-menu';
import { useShortcutKeys } from '../keyboard/keys';
import { canEditContent } from '../message-list/permissions';
import { MessageDialogs } from './MessageDialogs';
import { useMessageActionsUi } from './store';
import { useRunMessageAction, type RunnableAction } from './use-message-action';

const STATUS_MS = 2500;

/** The single keys of the reference web app that act on the selected message. */
const KEY_ACTIONS: Readonly<Record<string, RunnableAction>> = {
  r: 'reply',
  Enter: 'reply',
  R: 'reply-privately',
  '>': 'quote',
  '@': 'mention',
  '*': 'star',
  '+': 'thumbs-up',
  ':': 'react',
  '-': 'collapse',
  U: 'mark-unread',
};

/** Keys that move through the feed: the person is reading again. */
const READING_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'PageUp',
  'PageDown',
  'Home',
  'End',
  ' ',
  'j',
  'k',
]);

export function MessageActionsLayer({
  narrow,
  onEdit,
  onReadingResumed,
}: {
  narrow: Narrow;
  onEdit(messageId: number): void;
  /** reading goes on: the list marks what is on screen (a short list may not scroll at all) */
  onReadingResumed(): void;
}) {
  const key = narrowKey(narrow);
  const { spectator } = useSessionCore();
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const editSettings = {
    allow_message_editing: useRealmSetting('allow_message_editing'),
    message_content_edit_limit_seconds: useRealmSetting('message_content_edit_limit_seconds'),
  };
  const run = useRunMessageAction();
  const lookup = useLoadedMessageLookup();
  useListShown(narrow);
  useResumeReadingOnScroll(key, onReadingResumed);

  useShortcutKeys((event) => {
    const ui = useMessageActionsUi.getState();
    if (ui.menu || ui.dialog) return false;
    const id = selectedMessageIn(useMessageCursor.getState(), key);
    if (id === null) return false;
    // Enter on a button or link is that control's; only elsewhere does it reply.
    const target = event.target instanceof Element ? event.target : null;
    if (event.key === 'Enter' && target && target !== document.body)
      if (!target.matches('[role="log"], article')) return false;
    const message = lookup(narrow, id);
    if (!message) return false;
    if (event.key === 'i') {
      ui.menuOpened(id, true);
      return true;
    }
    if (event.key === 'e') {
      const actor = { userId: ownUserId, role: users[ownUserId]?.role ?? ROLE.MEMBER };
      if (!canEditContent(message, actor, editSettings, Date.now() / 1000)) return false;
      onEdit(id);
      return true;
    }
    const action = KEY_ACTIONS[event.key];
    if (!action) return false;
    run(action, message);
    return true;
  }, !spectator);

  return (
    <>
      <MessageDialogs />
      <ActionStatus />
    </>
  );
}

/** Tells the actions' store which list is on screen; leaving it closes its menu and dialogs. */
function useListShown(narrow: Narrow) {
  const key = narrowKey(narrow);
  useEffect(() => {
    const ui = useMessageActionsUi.getState();
    ui.listShown(narrow);
    return () => {
      ui.listShown(null);
      ui.menuClosed();
      ui.dialogClosed();
      ui.readingResumed();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the narrow is identified by its key
  }, [key]);
}

/**
 * After "Mark as unread from here", reading resumes once the person scrolls by hand (wheel,
 * touch or keys), as upstream does.
 */
function useResumeReadingOnScroll(key: string, onReadingResumed: () => void) {
  const pausedHere = useMessageActionsUi((s) => s.readingPausedIn === key);
  const resumed = useRef(onReadingResumed);
  resumed.current = onReadingResumed;

  useEffect(() => {
    if (!pausedHere) return;
    const resume = () => {
      useMessageActionsUi.getState().readingResumed();
      requestAnimationFrame(() => resumed.current());
    };
    const onKey = (event: KeyboardEvent) => {
      if (READING_KEYS.has(event.key)) resume();
    };
    window.addEventListener('wheel', resume, { passive: true });
    window.addEventListener('touchmove', resume, { passive: true });
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('wheel', resume);
      window.removeEventListener('touchmove', resume);
      window.removeEventListener('keydown', onKey);
    };
  }, [pausedHere]);
}

/** "Link copied" and the like: announced politely, gone after a moment. */
function ActionStatus() {
  const status = useMessageActionsUi((s) => s.status);
  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(
      () => useMessageActionsUi.getState().statusCleared(status.seq),
      STATUS_MS,
    );
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <div className="message-actions-status" role="status" aria-live="polite">
      {status && <span>{status.text}</span>}
    </div>
  );
}
