/**
 * Messages the user sent that the server has not echoed back yet (local echo). The outbox lives
 * outside the per-queue store: a message typed before a reconnect must not vanish with the queue.
 * A message waits here while the server cannot be reached, is sent in order once it can
 * (OutboxSender, send.ts), and is kept in the browser meanwhile (offline-cache.ts), so that a
 * reload or a closed tab loses none.
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
  /**
   * waiting: for the server, to be sent in order when it can be reached; sending: a request is
   * out; sent: accepted, its event not here yet; failed: refused, for the user to retry or drop
   */
  status: 'waiting' | 'sending' | 'sent' | 'failed';
  /** set once the server accepted the message */
  messageId?: number;
  error?: string;
  /**
   * A request for it went out and no answer came back (the connection broke, the page closed):
   * the server may have it, so it is looked for there before being sent again.
   */
  mayHaveArrived?: boolean;
}

export interface OutboxState {
  messages: readonly OutboxMessage[];
  /** the user sent it: it waits its turn (OutboxSender) */
  sendStarted(message: Omit<OutboxMessage, 'status'>): void;
  /** its request is going out */
  requestStarted(localId: string): void;
  /** its request got no answer: it waits again, and may already be on the server */
  requestInterrupted(localId: string): void;
  sendAccepted(localId: string, messageId: number): void;
  sendFailed(localId: string, error: string): void;
  retryStarted(localId: string): void;
  sendCancelled(localId: string): void;
  /** the message events carrying these local ids arrived: the real messages replace the echoes */
  echoesArrived(localIds: readonly string[]): void;
  /** a new queue's history includes every accepted message, so only unaccepted echoes remain */
  queueReplaced(): void;
  /** messages kept from an earlier page of this account (offline-cache.ts), in their order */
  restored(messages: readonly OutboxMessage[]): void;
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
        set({ messages: [...get().messages, { ...message, status: 'waiting' }] }),
      requestStarted: (localId) => update(localId, { status: 'sending' }),
      requestInterrupted: (localId) => update(localId, { status: 'waiting', mayHaveArrived: true }),
      sendAccepted: (localId, messageId) =>
        update(localId, { status: 'sent', messageId, mayHaveArrived: false }),
      sendFailed: (localId, error) => update(localId, { status: 'failed', error }),
      retryStarted: (localId) => update(localId, { status: 'waiting', error: undefined }),
      sendCancelled: (localId) =>
        set({ messages: get().messages.filter((m) => m.localId !== localId) }),
      echoesArrived: (localIds) => {
        if (!get().messages.some((m) => localIds.includes(m.localId))) return;
        set({ messages: get().messages.filter((m) => !localIds.includes(m.localId)) });
      },
      queueReplaced: () => set({ messages: get().messages.filter((m) => m.status !== 'sent') }),
      restored: (messages) => {
        const known = new Set(get().messages.map((m) => m.localId));
        const added = messages.filter((m) => !known.has(m.localId));
        if (added.length === 0) return;
        set({
          messages: [...added, ...get().messages].sort(
            (a, b) => a.timestamp - b.timestamp || a.localId.localeCompare(b.localId),
          ),
        });
      },
    };
  });
}

let localIdCounter = 0;
/**
 * Unique within this browser; the server echoes it back untouched. Ids sort in the order they
 * were made (the time, then a counter of fixed width), which is the order of sending.
 */
export function newLocalId(): string {
  localIdCounter += 1;
  return `${Date.now().toString(36)}.${localIdCounter.toString(36).padStart(5, '0')}`;
}
