/**
 * The selected message of the message list on screen: the one keyboard actions (reply, edit,
 * star, react, the actions menu) apply to, shown with a visible outline. Not account state: it
 * belongs to the view, so it is a small store of its own and is cleared when the narrow changes.
 */
import { create } from 'zustand';

export interface MessageCursor {
  /** narrowKey of the list the selection belongs to */
  narrow: string | null;
  messageId: number | null;
  select(narrow: string, messageId: number | null): void;
  clear(): void;
}

export const useMessageCursor = create<MessageCursor>()((set) => ({
  narrow: null,
  messageId: null,
  select: (narrow, messageId) => set({ narrow, messageId }),
  clear: () => set({ narrow: null, messageId: null }),
}));

/** The selected message id for the list of `narrow` (a narrowKey), or null. */
export function selectedMessageIn(cursor: MessageCursor, narrow: string): number | null {
  return cursor.narrow === narrow ? cursor.messageId : null;
}
