/**
 * Requests to the compose box from elsewhere in the app: reply to a message, quote it, reply
 * privately, start a new topic or direct message from the keyboard. The compose box under the
 * message list takes the latest request (setting its destination, inserting text at the cursor
 * and taking focus); one mounted a moment later, after a navigation, still takes it.
 */
import { create } from 'zustand';

export type ComposeTo =
  | { type: 'stream'; streamId: number; topic: string }
  /** the other participants (or the own id alone for a note to self) */
  | { type: 'direct'; userIds: number[] };

export interface ComposeRequest {
  seq: number;
  /** when it was made (ms); requests nobody took within REQUEST_LIFETIME_MS are dropped */
  at: number;
  /** the new destination; null keeps the current one */
  to: ComposeTo | null;
  /** text inserted at the cursor, on a line of its own (a quote), or null */
  insert: string | null;
  /** which field gets the focus */
  focus: 'content' | 'topic' | 'recipients';
}

export const REQUEST_LIFETIME_MS = 5_000;

interface ComposeRequests {
  latest: ComposeRequest | null;
  request(request: Omit<ComposeRequest, 'seq' | 'at'>): void;
  /** the compose box took the request with this sequence number */
  taken(seq: number): void;
}

let nextSeq = 1;

export const useComposeRequests = create<ComposeRequests>()((set, get) => ({
  latest: null,
  request: (request) => set({ latest: { ...request, seq: nextSeq++, at: Date.now() } }),
  taken: (seq) => {
    if (get().latest?.seq === seq) set({ latest: null });
  },
}));

/** `text` with `insert` placed at `caret` on a line of its own; the caret after the insertion. */
export function insertOnOwnLine(
  text: string,
  caret: number,
  insert: string,
): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  const inserted = `${lead}${insert}${trail}`;
  return { text: before + inserted + after, caret: before.length + lead.length + insert.length };
}
