/**
 * Where the selected message goes when the reader moves it: pure functions over the feed's rows,
 * so the keyboard behaviour is tested without a browser. Local echoes are not selectable: they
 * have no server id for the per-message actions yet.
 */
import type { FeedRow } from '../message-list/build-rows';

type MessageRow = Extract<FeedRow, { kind: 'message' }>;

function isSelectable(row: FeedRow | undefined): row is MessageRow {
  return row?.kind === 'message' && !row.echo;
}

/** The row index of a message, or -1. */
export function rowIndexOf(rows: readonly FeedRow[], messageId: number | null): number {
  if (messageId === null) return -1;
  return rows.findIndex((row) => isSelectable(row) && row.message.id === messageId);
}

/** The message a list opens at: its first unread message, or else the newest. */
export function anchorMessageIndex(rows: readonly FeedRow[]): number {
  const firstUnread = rows.findIndex(
    (row) => isSelectable(row) && !row.message.flags.includes('read'),
  );
  return firstUnread !== -1 ? firstUnread : lastMessageIndex(rows);
}

export function firstMessageIndex(rows: readonly FeedRow[]): number {
  return rows.findIndex(isSelectable);
}

export function lastMessageIndex(rows: readonly FeedRow[]): number {
  for (let index = rows.length - 1; index >= 0; index -= 1)
    if (isSelectable(rows[index])) return index;
  return -1;
}

/** The next (+1) or previous (-1) message from row `from`; -1 at the end of the loaded rows. */
export function stepMessageIndex(rows: readonly FeedRow[], from: number, step: 1 | -1): number {
  for (let index = from + step; index >= 0 && index < rows.length; index += step)
    if (isSelectable(rows[index])) return index;
  return -1;
}

/**
 * The selection kept when the rows change under it: the same message if still there; else (it
 * was deleted or moved away) the message now nearest its old position; else the anchor.
 */
export function keptSelectionIndex(
  rows: readonly FeedRow[],
  messageId: number | null,
  previousIndex: number,
): number {
  const same = rowIndexOf(rows, messageId);
  if (same !== -1) return same;
  if (messageId !== null && previousIndex >= 0) {
    const from = Math.min(previousIndex, rows.length) - 1;
    const after = stepMessageIndex(rows, from, 1);
    if (after !== -1) return after;
    const before = stepMessageIndex(rows, Math.min(previousIndex, rows.length), -1);
    if (before !== -1) return before;
  }
  return anchorMessageIndex(rows);
}

/** The unread messages in rows `from` to `to` (inclusive): read once the cursor passes over them. */
export function unreadMessagesBetween(rows: readonly FeedRow[], from: number, to: number) {
  const passed = [];
  for (let i = Math.max(0, from); i <= to && i < rows.length; i += 1) {
    const row = rows[i];
    if (isSelectable(row) && !row.message.flags.includes('read')) passed.push(row.message);
  }
  return passed;
}
