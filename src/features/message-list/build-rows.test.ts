import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import { buildRows } from './build-rows';

const day = (d: number, hour = 12) => new Date(2024, 4, d, hour).getTime() / 1000;

describe('buildRows', () => {
  it('starts with a date and a recipient bar, and collapses consecutive messages by one sender', () => {
    const a = eg.streamMessage({ id: 1, timestamp: day(1), sender_id: 2 });
    const b = eg.streamMessage({ id: 2, timestamp: day(1), sender_id: 2 });
    const c = eg.streamMessage({ id: 3, timestamp: day(1), sender_id: 3 });
    const rows = buildRows([a, b, c].map((message) => ({ message })));
    expect(rows.map((r) => r.kind)).toEqual(['date', 'recipient', 'message', 'message', 'message']);
    expect(
      rows.filter((r) => r.kind === 'message').map((r) => r.kind === 'message' && r.showSender),
    ).toEqual([true, false, true]);
  });

  it('adds a recipient bar when the topic or conversation changes, and shows the sender again', () => {
    const a = eg.streamMessage({ id: 1, timestamp: day(1), subject: 'lunch' });
    const b = eg.streamMessage({ id: 2, timestamp: day(1), subject: 'dinner' });
    const c = eg.dmMessage({ id: 3, timestamp: day(1) });
    const rows = buildRows([a, b, c].map((message) => ({ message })));
    expect(rows.map((r) => r.kind)).toEqual([
      'date',
      'recipient',
      'message',
      'recipient',
      'message',
      'recipient',
      'message',
    ]);
  });

  it('separates days with a date row and a fresh recipient bar', () => {
    const a = eg.streamMessage({ id: 1, timestamp: day(1) });
    const b = eg.streamMessage({ id: 2, timestamp: day(2) });
    expect(buildRows([a, b].map((message) => ({ message }))).map((r) => r.kind)).toEqual([
      'date',
      'recipient',
      'message',
      'date',
      'recipient',
      'message',
    ]);
  });

  it('keys local echoes by their local id', () => {
    const message = eg.streamMessage({ id: -1, timestamp: day(1) });
    const echo = {
      localId: 'abc',
      destination: { type: 'stream' as const, streamId: 5, topic: 'lunch' },
      content: 'x',
      timestamp: day(1),
      status: 'sending' as const,
    };
    const rows = buildRows([{ message, echo }]);
    expect(rows[2]).toMatchObject({ kind: 'message', key: 'echo:abc', echo });
  });
});
