import { describe, expect, it } from 'vitest';
import type { UnreadsState } from '../../model/unreads';
import { cycleChannel, nextUnreadDm, nextUnreadTopic } from './next-unread';

const unreads = (
  streams: UnreadsState['streams'],
  dms: UnreadsState['dms'] = {},
): UnreadsState => ({ streams, dms, mentions: [], oldUnreadsMissing: false });
const none = () => false;

describe('next unread topic (n)', () => {
  // Sidebar order: 3 (announce), 1 (general), 2 (design).
  const order = [3, 1, 2];
  const state = unreads({
    1: { lunch: [10, 40], dinner: [20], tea: [50] },
    2: { sketches: [30] },
  });

  it('starts with the first channel in sidebar order, newest topic first', () => {
    expect(nextUnreadTopic(state, order, none, null)).toEqual({ streamId: 1, topic: 'tea' });
  });

  it('goes to the next topic of the channel on screen, then to the next channels', () => {
    expect(nextUnreadTopic(state, order, none, { streamId: 1, topic: 'tea' })).toEqual({
      streamId: 1,
      topic: 'lunch',
    });
    expect(nextUnreadTopic(state, order, none, { streamId: 1, topic: 'dinner' })).toEqual({
      streamId: 2,
      topic: 'sketches',
    });
  });

  it('wraps around to channels before the current one, and skips muted topics', () => {
    const muted = (streamId: number, topic: string) => streamId === 1 && topic === 'tea';
    expect(nextUnreadTopic(state, order, muted, { streamId: 2, topic: 'sketches' })).toEqual({
      streamId: 1,
      topic: 'lunch',
    });
  });

  it('in a channel view, takes that channel’s unread topics first', () => {
    expect(nextUnreadTopic(state, order, none, { streamId: 2, topic: null })).toEqual({
      streamId: 2,
      topic: 'sketches',
    });
  });

  it('says there is none when the only unread topic is the one on screen', () => {
    const one = unreads({ 2: { sketches: [30] } });
    expect(nextUnreadTopic(one, order, none, { streamId: 2, topic: 'Sketches' })).toBeNull();
  });
});

describe('next unread direct message (p)', () => {
  const state = unreads({}, { '5': [1], '6,7': [2], '8': [] });

  it('follows the recent conversations order after the one on screen, wrapping', () => {
    const recent = ['8', '6,7', '9', '5'];
    expect(nextUnreadDm(state, recent, null)).toBe('6,7');
    expect(nextUnreadDm(state, recent, '6,7')).toBe('5');
    expect(nextUnreadDm(state, recent, '5')).toBe('6,7');
    expect(nextUnreadDm(state, recent, '6,7', (key) => key === '5')).toBeNull();
  });
});

describe('channel cycling (Shift+A, Shift+D)', () => {
  it('steps through the sidebar order and wraps', () => {
    expect(cycleChannel([3, 1, 2], 1, 1)).toBe(2);
    expect(cycleChannel([3, 1, 2], 2, 1)).toBe(3);
    expect(cycleChannel([3, 1, 2], 3, -1)).toBe(2);
    expect(cycleChannel([3, 1, 2], null, 1)).toBe(3);
    expect(cycleChannel([], null, 1)).toBeNull();
  });
});
