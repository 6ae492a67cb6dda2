/**
 * View state of message actions: which message's menu is open, which dialog shows, the brief
 * status line ("Link copied"), and whether reading is paused after "Mark as unread from here".
 * One small store, so the menu of a row, the keyboard shortcuts and the dialogs agree.
 */
import { create } from 'zustand';
import type { Narrow } from '../../narrow';

export type MessageDialogKind = 'edit-history' | 'read-receipts' | 'source';

interface MessageActionsUi {
  /** the list on screen (set by MessageActionsLayer), for actions that need the narrow */
  narrow: Narrow | null;
  /** the message whose menu is open; `fromKeyboard` moves the focus into the menu */
  menu: { messageId: number; fromKeyboard: boolean } | null;
  dialog: { kind: MessageDialogKind; messageId: number } | null;
  status: { text: string; seq: number } | null;
  /**
   * A narrowKey whose list does not mark messages read while on screen: "Mark as unread from
   * here" pauses reading until the person scrolls or leaves, as the reference web app does.
   */
  readingPausedIn: string | null;
  listShown(narrow: Narrow | null): void;
  menuOpened(messageId: number, fromKeyboard: boolean): void;
  menuClosed(): void;
  dialogOpened(kind: MessageDialogKind, messageId: number): void;
  dialogClosed(): void;
  statusShown(text: string): void;
  statusCleared(seq: number): void;
  readingPaused(narrowKey: string): void;
  readingResumed(): void;
}

let statusSeq = 0;

export const useMessageActionsUi = create<MessageActionsUi>()((set, get) => ({
  narrow: null,
  menu: null,
  dialog: null,
  status: null,
  readingPausedIn: null,
  listShown: (narrow) => set({ narrow }),
  menuOpened: (messageId, fromKeyboard) => set({ menu: { messageId, fromKeyboard } }),
  menuClosed: () => set({ menu: null }),
  dialogOpened: (kind, messageId) => set({ dialog: { kind, messageId }, menu: null }),
  dialogClosed: () => set({ dialog: null }),
  statusShown: (text) => set({ status: { text, seq: ++statusSeq } }),
  statusCleared: (seq) => {
    if (get().status?.seq === seq) set({ status: null });
  },
  readingPaused: (narrowKey) => set({ readingPausedIn: narrowKey }),
  readingResumed: () => {
    if (get().readingPausedIn !== null) set({ readingPausedIn: null });
  },
}));

/** Whether the list of `narrowKey` should leave messages on screen unread for now. */
export function isReadingPaused(narrowKey: string): boolean {
  return useMessageActionsUi.getState().readingPausedIn === narrowKey;
}
