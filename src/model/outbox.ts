/**
 * Messages the user sent that the server has not echoed back yet (local echo). The outbox lives
 * outside the per-queue store: a message typed before a reconnect must not vanish with the queue.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export type OutboxDestination =
  { type: 'stream'; streamId: number; topic: string } | { type: 'direct'; userIds: number[] };

export interface OutboxMessage {
  localId: string;
  destination: OutboxDestination;
  content: string;
  /** Unix seconds, for ordering and display */
  timestamp: number;
  status: 'sending' | 'sent' | 'failed';
  /** set once the server accepted the message */
  messageId?: number;
  error?: string;
}

export interface OutboxState {
  messages: readonly OutboxMessage[];
  sendStarted(message: Omit<OutboxMessage, 'status'>): void;
  sendAccepted(localId: string, messageId: number): void;
  sendFailed(localId: string, error: string): void;
  retryStarted(localId: string): void;
  sendCancelled(localId: string): void;
  /** the message events carrying these local ids arrived: the real messages replace the echoes */
  echoesArrived(localIds: readonly string[]): void;
  /** a new queue's history includes every accepted message, so only unaccepted echoes remain */
  queueReplaced(): void;
}

export type OutboxStore = StoreApi<OutboxState>;

export function createOutboxStore(): OutboxStore {
  return createStore<OutboxState>()((set, get) => {
    const update = (localId: string, changes: Partial<OutboxMessage>) =>
      set({
        messages: get().messages.map((m) => (m.localId === localId ? { ...m, ...changes } : m)),
      });
    return {
      messages: [],
      sendStarted: (message) =>
        set({ messages: [...get().messages, { ...message, status: 'sending' }] }),
      sendAccepted: (localId, messageId) => update(localId, { status: 'sent', messageId }),
      sendFailed: (localId, error) => update(localId, { status: 'failed', error }),
      retryStarted: (localId) => update(localId, { status: 'sending', error: undefined }),
      sendCancelled: (localId) =>
        set({ messages: get().messages.filter((m) => m.localId !== localId) }),
      echoesArrived: (localIds) => {
        if (!get().messages.some((m) => localIds.includes(m.localId))) return;
        set({ messages: get().messages.filter((m) => !localIds.includes(m.localId)) });
      },
      queueReplaced: () => set({ messages: get().messages.filter((m) => m.status !== 'sent') }),
    };
  });
}

let localIdCounter = 0;
/** Unique within this page; the server echoes it back untouched. */
export function newLocalId(): string {
  localIdCounter += 1;
  return `${Date.now().toString(36)}.${localIdCounter}`;
}
