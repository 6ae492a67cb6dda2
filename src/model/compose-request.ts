/**
 * Requests to the compose box from elsewhere in the app: reply to a message, quote it, reply
 * privately, start a new topic or direct message from the keyboard. The compose box under the
 * message list takes the latest request (setting its destination, inserting text at the cursor
 * and taking focus); one mounted a moment later, after a navigation, still takes it, and a
 * request addressed to one view's box waits for that box.
 */
import { create } from 'zustand';

export type ComposeTo =
  /** `topic` null keeps what the topic field holds */
  | { type: 'stream'; streamId: number; topic: string | null }
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
  /**
   * The narrow key of the view whose compose box is to take it (a shortcut that first navigates
   * names the view it goes to); absent, the box on screen takes it. A box leaving the screen
   * while a navigation renders then does not take, and lose, a request meant for the next one.
   */
  box?: string;
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

/** Whether the compose box of the view with narrow key `boxKey` is the one to take `request`. */
export function isRequestFor(request: ComposeRequest, boxKey: string): boolean {
  return request.box === undefined || request.box === boxKey;
}

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
