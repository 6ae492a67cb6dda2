import { describe, expect, it } from 'vitest';
import type { UpdateMessageFlagsEvent } from '../api/model';
import { eg } from '../test/eg';
import {
  dmUnreadCount,
  reduceUnreads,
  streamUnreadCount,
  topicUnreadCount,
  unreadDetailsFor,
  unreadsFromSnapshot,
  type UnreadsState,
} from './unreads';

const self = eg.selfUser.user_id;
const context = { ownUserId: self, now: 0 };

function snapshotState(): UnreadsState {
  return unreadsFromSnapshot(
    {
      count: 6,
      pms: [
        { other_user_id: 2, sender_id: 2, unread_message_ids: [11, 12] },
        { other_user_id: self, sender_id: self, unread_message_ids: [13] },
      ],
      streams: [
        { stream_id: 5, topic: 'lunch', unread_message_ids: [1, 3] },
        { stream_id: 5, topic: 'dinner', unread_message_ids: [2] },
      ],
      huddles: [{ user_ids_string: `${self},2,3`, unread_message_ids: [20] }],
      mentions: [3],
      old_unreads_missing: false,
    },
    self,
  );
}

const flags = (
  op: 'add' | 'remove',
  messages: number[],
  extra: Partial<UpdateMessageFlagsEvent> = {},
): UpdateMessageFlagsEvent => ({
  id: 1,
  type: 'update_message_flags',
  op,
  flag: 'read',
  messages,
  all: false,
  ...extra,
});

describe('unreads from the register snapshot', () => {
  it('reads pms, huddles, streams and mentions', () => {
    const state = snapshotState();
    expect(state.streams[5]).toEqual({ lunch: [1, 3], dinner: [2] });
    expect(state.dms).toEqual({ '2': [11, 12], [String(self)]: [13], '2,3': [20] });
    expect(state.mentions).toEqual([3]);
    expect(streamUnreadCount(state, 5)).toBe(3);
    expect(topicUnreadCount(state, 5, 'lunch')).toBe(2);
    expect(dmUnreadCount(state, [2, 3])).toBe(1);
  });
});

describe('reduceUnreads', () => {
  it('adds an unread stream message and its mention', () => {
    const message = eg.streamMessage({ id: 30, stream_id: 5, subject: 'lunch' });
    const state = reduceUnreads(snapshotState(), eg.messageEvent(message, ['mentioned']), context);
    expect(state.streams[5].lunch).toEqual([1, 3, 30]);
    expect(state.mentions).toEqual([3, 30]);
  });

  it('adds an unread DM under its canonical conversation', () => {
    const message = eg.dmMessage({ id: 31, from: eg.thirdUser, to: [eg.selfUser, eg.otherUser] });
    const state = reduceUnreads(snapshotState(), eg.messageEvent(message, []), context);
    expect(state.dms['2,3']).toEqual([20, 31]);
  });

  it('ignores a message that arrives already read', () => {
    const before = snapshotState();
    const message = eg.streamMessage({ id: 32, stream_id: 5 });
    expect(reduceUnreads(before, eg.messageEvent(message, ['read']), context)).toBe(before);
  });

  it('removes messages marked read, dropping empty topics and mentions', () => {
    const state = reduceUnreads(snapshotState(), flags('add', [2, 3, 13]), context);
    expect(state.streams[5]).toEqual({ lunch: [1] });
    expect(state.dms[String(self)]).toBeUndefined();
    expect(state.mentions).toEqual([]);
  });

  it('clears everything on mark-all-as-read', () => {
    const state = reduceUnreads(snapshotState(), flags('add', [], { all: true }), context);
    expect(state).toMatchObject({ streams: {}, dms: {}, mentions: [] });
  });

  it('restores messages marked unread from message_details', () => {
    const state = reduceUnreads(
      unreadsFromSnapshot(
        { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
        self,
      ),
      flags('remove', [40, 41], {
        message_details: {
          '40': { type: 'stream', stream_id: 5, topic: 'lunch', mentioned: true },
          '41': { type: 'private', user_ids: [3, 2] },
        },
      }),
      context,
    );
    expect(state.streams[5].lunch).toEqual([40]);
    expect(state.dms['2,3']).toEqual([41]);
    expect(state.mentions).toEqual([40]);
  });

  it('returns the same state for flags other than read and for ids that are not unread', () => {
    const before = snapshotState();
    expect(reduceUnreads(before, flags('add', [1], { flag: 'starred' }), context)).toBe(before);
    expect(reduceUnreads(before, flags('add', [999]), context)).toBe(before);
  });

  it('removes deleted messages', () => {
    const state = reduceUnreads(
      snapshotState(),
      { id: 1, type: 'delete_message', message_ids: [1, 11], message_type: 'stream' },
      context,
    );
    expect(state.streams[5].lunch).toEqual([3]);
    expect(state.dms['2']).toEqual([12]);
  });

  it('follows unread messages moved to another topic and stream', () => {
    const state = reduceUnreads(
      snapshotState(),
      {
        id: 1,
        type: 'update_message',
        user_id: 2,
        message_id: 1,
        message_ids: [1, 3],
        edit_timestamp: 0,
        rendering_only: false,
        stream_id: 5,
        new_stream_id: 6,
        orig_subject: 'lunch',
        subject: 'food',
        propagate_mode: 'change_all',
      },
      context,
    );
    expect(state.streams[5]).toEqual({ dinner: [2] });
    expect(state.streams[6]).toEqual({ food: [1, 3] });
    expect(state.mentions).toEqual([3]);
  });

  it('updates mentions when an edit adds or removes a mention', () => {
    const edit = {
      id: 1,
      type: 'update_message' as const,
      user_id: 2,
      message_id: 1,
      message_ids: [1],
      edit_timestamp: 0,
      rendering_only: false,
    };
    const mentioned = reduceUnreads(snapshotState(), { ...edit, flags: ['mentioned'] }, context);
    expect(mentioned.mentions).toEqual([1, 3]);
    const unmentioned = reduceUnreads(
      mentioned,
      { ...edit, message_id: 3, message_ids: [3], flags: [] },
      context,
    );
    expect(unmentioned.mentions).toEqual([1]);
  });
});

describe('unreadDetailsFor', () => {
  it('describes unread ids so that a remove-read event restores them exactly', () => {
    const before = snapshotState();
    const details = unreadDetailsFor(before, [3, 20], self);
    expect(details).toEqual({
      '3': { type: 'stream', stream_id: 5, topic: 'lunch', mentioned: true },
      '20': { type: 'private', user_ids: [2, 3], mentioned: false },
    });
    const read = reduceUnreads(before, flags('add', [3, 20]), context);
    const restored = reduceUnreads(
      read,
      flags('remove', [3, 20], { message_details: details }),
      context,
    );
    expect(restored).toEqual(before);
  });
});
