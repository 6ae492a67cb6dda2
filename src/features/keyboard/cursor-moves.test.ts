import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { buildRows } from '../message-list/build-rows';
import {
  anchorMessageIndex,
  firstMessageIndex,
  keptSelectionIndex,
  lastMessageIndex,
  rowIndexOf,
  stepMessageIndex,
  unreadMessagesBetween,
} from './cursor-moves';

const at = new Date(2024, 4, 1, 12).getTime() / 1000;
const read = (id: number, subject = 'lunch') =>
  eg.streamMessage({ id, subject, timestamp: at, flags: ['read'] });
const unread = (id: number, subject = 'lunch') =>
  eg.streamMessage({ id, subject, timestamp: at, flags: [] });
const rowsOf = (...messages: ReturnType<typeof read>[]) =>
  buildRows(messages.map((message) => ({ message })));
const idAt = (rows: ReturnType<typeof rowsOf>, index: number) => {
  const row = rows[index];
  return row?.kind === 'message' ? row.message.id : null;
};

describe('the selected message', () => {
  it('opens at the first unread message, or else at the newest', () => {
    expect(
      idAt(
        rowsOf(read(1), unread(2), unread(3)),
        anchorMessageIndex(rowsOf(read(1), unread(2), unread(3))),
      ),
    ).toBe(2);
    const allRead = rowsOf(read(1), read(2));
    expect(idAt(allRead, anchorMessageIndex(allRead))).toBe(2);
  });

  it('steps over date and recipient rows to the next or previous message', () => {
    const rows = rowsOf(read(1, 'lunch'), read(2, 'dinner'), read(3, 'dinner'));
    const first = rowIndexOf(rows, 1);
    const second = stepMessageIndex(rows, first, 1);
    expect(idAt(rows, second)).toBe(2);
    expect(rows[second - 1].kind).toBe('recipient');
    expect(idAt(rows, stepMessageIndex(rows, second, -1))).toBe(1);
    expect(stepMessageIndex(rows, rowIndexOf(rows, 3), 1)).toBe(-1);
    expect(stepMessageIndex(rows, first, -1)).toBe(-1);
  });

  it('finds the first and last loaded messages, skipping local echoes', () => {
    const rows = buildRows([
      { message: read(1) },
      { message: read(2) },
      { message: read(99), echo: { localId: 'x' } as never },
    ]);
    expect(idAt(rows, firstMessageIndex(rows))).toBe(1);
    expect(idAt(rows, lastMessageIndex(rows))).toBe(2);
  });

  it('stays on its message when rows change, and moves to the nearest when it disappears', () => {
    const before = rowsOf(read(1), read(2), read(3));
    const index = rowIndexOf(before, 2);
    const older = rowsOf(read(0), read(1), read(2), read(3));
    expect(idAt(older, keptSelectionIndex(older, 2, index))).toBe(2);
    const deleted = rowsOf(read(1), read(3));
    expect(idAt(deleted, keptSelectionIndex(deleted, 2, index))).toBe(3);
    const lastGone = rowsOf(read(1), read(2));
    expect(idAt(lastGone, keptSelectionIndex(lastGone, 3, rowIndexOf(before, 3)))).toBe(2);
    expect(idAt(before, keptSelectionIndex(before, null, -1))).toBe(3);
  });

  it('collects the unread messages the cursor passes over', () => {
    const rows = rowsOf(read(1), unread(2), unread(3), unread(4));
    const passed = unreadMessagesBetween(rows, rowIndexOf(rows, 1), rowIndexOf(rows, 3));
    expect(passed.map((m) => m.id)).toEqual([2, 3]);
  });
});
