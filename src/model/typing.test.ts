import { describe, expect, it } from 'vitest';
import type { TypingEvent } from '../api/model';
import { dmNarrow, topicNarrow } from '../narrow';
import { emptyTyping, expireTyping, reduceTyping, typistsIn } from './typing';

const self = 1;
const context = (now: number) => ({ ownUserId: self, now, expiryMs: 15000 });
const ref = (user_id: number) => ({ user_id, email: `u${user_id}@example.com` });

const dmTyping = (op: 'start' | 'stop', sender = 2): TypingEvent => ({
  id: 1,
  type: 'typing',
  op,
  message_type: 'direct',
  sender: ref(sender),
  recipients: [ref(1), ref(2)],
});
const streamTyping = (op: 'start' | 'stop'): TypingEvent => ({
  id: 1,
  type: 'typing',
  op,
  message_type: 'stream',
  sender: ref(3),
  stream_id: 5,
  topic: 'lunch',
});

describe('reduceTyping', () => {
  it('shows a DM typist until stop', () => {
    const started = reduceTyping(emptyTyping, dmTyping('start'), context(1000));
    expect(typistsIn(started, dmNarrow([2], self), 2000)).toEqual([2]);
    const stopped = reduceTyping(started, dmTyping('stop'), context(3000));
    expect(typistsIn(stopped, dmNarrow([2], self), 3000)).toEqual([]);
    expect(stopped.byConversation).toEqual({});
  });

  it('tracks stream typing per topic', () => {
    const started = reduceTyping(emptyTyping, streamTyping('start'), context(0));
    expect(typistsIn(started, topicNarrow(5, 'lunch'), 1)).toEqual([3]);
    expect(typistsIn(started, topicNarrow(5, 'dinner'), 1)).toEqual([]);
  });

  it('expires typists whose stop was lost', () => {
    const started = reduceTyping(emptyTyping, dmTyping('start'), context(0));
    expect(typistsIn(started, dmNarrow([2], self), 15001)).toEqual([]);
    expect(expireTyping(started, 1000)).toBe(started);
    expect(expireTyping(started, 16000).byConversation).toEqual({});
  });

  it('ignores the own user and stops for people not typing', () => {
    expect(reduceTyping(emptyTyping, dmTyping('start', self), context(0))).toBe(emptyTyping);
    expect(reduceTyping(emptyTyping, dmTyping('stop'), context(0))).toBe(emptyTyping);
  });
});
