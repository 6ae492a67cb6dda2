import { afterEach, describe, expect, it, vi } from 'vitest';
import { eg } from '../test/eg';
import { fakeSession } from '../test/fake-session';
import { ReadBatcher } from './flag-changes';

const STREAM = eg.generalStream.stream_id;

function withUnread(ids: number[]) {
  return eg.registerResponse({
    unread_msgs: {
      count: ids.length,
      pms: [],
      streams: [{ stream_id: STREAM, topic: 'lunch', unread_message_ids: ids }],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
  });
}

afterEach(() => vi.useRealTimers());

describe('ReadBatcher', () => {
  it('marks what was scrolled past in one request, and unmarks it when the server refuses', async () => {
    vi.useFakeTimers();
    const { fake, session, store } = fakeSession(withUnread([51, 52]));
    fake.respondError('BAD_REQUEST', 'Invalid message(s)').respond({});
    const batcher = new ReadBatcher(session, 400);
    const seen = [51, 52].map((id) =>
      eg.streamMessage({ id, stream_id: STREAM, subject: 'lunch' }),
    );

    batcher.seen(seen.slice(0, 1));
    batcher.seen(seen.slice(1));
    vi.advanceTimersByTime(400);
    expect(store().unreads.streams[STREAM]?.lunch).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(fake.last.body.get('messages')).toBe('[51,52]');

    await vi.waitFor(() => expect(store().unreads.streams[STREAM]?.lunch).toEqual([51, 52]));
    // Refused once, the same messages are marked again the next time they are seen.
    batcher.seen(seen);
    vi.advanceTimersByTime(400);
    expect(fake.requests).toHaveLength(2);
    batcher.dispose();
  });

  it('marks a message again once it was made unread after being read ("Mark as unread")', async () => {
    vi.useFakeTimers();
    const { fake, session } = fakeSession(withUnread([61]));
    fake.respond({ messages: [61] }).respond({ messages: [61] });
    const batcher = new ReadBatcher(session, 400);
    const unread = eg.streamMessage({ id: 61, stream_id: STREAM, subject: 'lunch', flags: [] });

    batcher.seen([unread]);
    vi.advanceTimersByTime(400);
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(0);
    // Unread again (the server's event), and seen again: a second request.
    batcher.seen([unread]);
    vi.advanceTimersByTime(400);
    expect(fake.requests).toHaveLength(2);
    batcher.dispose();
  });
});
