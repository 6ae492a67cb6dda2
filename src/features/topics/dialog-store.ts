/**
 * The open rename or move dialog, kept outside the rows that open it: a recipient bar in the
 * virtualised feed may scroll away, or move with its topic, while its dialog is still open.
 */
import { create } from 'zustand';
import type { Message } from '../../api/model';

export type MoveDialogRequest =
  /** rename the whole topic */
  | { kind: 'rename'; streamId: number; topic: string; targetId: number }
  /** move the whole topic (to another channel, or topic) */
  | { kind: 'topic'; streamId: number; topic: string; targetId: number }
  /** move one message, the ones after it, or its whole topic */
  | { kind: 'message'; message: Message };

interface TopicDialogState {
  request: MoveDialogRequest | null;
  open(request: MoveDialogRequest): void;
  close(): void;
}

export const useTopicDialog = create<TopicDialogState>()((set) => ({
  request: null,
  open: (request) => set({ request }),
  close: () => set({ request: null }),
}));

/** Opens the "Move messages" dialog for one message (for the message actions menu). */
export const openMoveMessageDialog = (message: Message) =>
  useTopicDialog.getState().open({ kind: 'message', message });
