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

/**
 * The reducer finds unread messages through an index handed from each state to the next; this
 * checks it against a plain model of where every unread message is, over long random runs that
 * also go back and continue from older states (which then have no index of their own).
 */
describe('reduceUnreads over random runs', () => {
  type Where = { stream: number; topic: string } | { dm: string };
  type Model = Map<number, Where>;

  function expected(model: Model) {
    const streams: Record<number, Record<string, number[]>> = {};
    const dms: Record<string, number[]> = {};
    for (const id of [...model.keys()].sort((a, b) => a - b)) {
      const at = model.get(id)!;
      if ('dm' in at) (dms[at.dm] ??= []).push(id);
      else ((streams[at.stream] ??= {})[at.topic] ??= []).push(id);
    }
    return { streams, dms };
  }

  /** mulberry32: a small seeded generator; `pick(n)` is 0 to n - 1. */
  function random(seed: number) {
    let x = seed >>> 0;
    return (n: number) => {
      x = (x + 0x6d2b79f5) >>> 0;
      let t = x;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    };
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('agrees with a plain model (seed %i)', (seed) => {
    const pick = random(seed);
    const topics = ['a', 'b', 'c'];
    const history: { state: UnreadsState; model: Model; mentions: Set<number> }[] = [
      { state: snapshotState(), model: new Map(), mentions: new Set([3]) },
    ];
    // The snapshot's own unread messages, in the model.
    const first = history[0];
    for (const [topic, ids] of Object.entries(first.state.streams[5]))
      for (const id of ids) first.model.set(id, { stream: 5, topic });
    for (const [dm, ids] of Object.entries(first.state.dms))
      for (const id of ids) first.model.set(id, { dm });
    let nextId = 100;
    for (let step = 0; step < 600; step++) {
      // Mostly the newest state; sometimes an older one, as a rolled-back optimistic read does.
      const from = pick(4) === 0 ? history[pick(history.length)] : history[history.length - 1];
      let { state } = from;
      const model = new Map(from.model);
      const mentions = new Set(from.mentions);
      const forget = (id: number) => {
        model.delete(id);
        mentions.delete(id);
      };
      const known = [...model.keys()];
      const someIds = () =>
        Array.from({ length: 1 + pick(4) }, () =>
          known.length && pick(4) ? known[pick(known.length)] : nextId + 50 + pick(50),
        );
      const kind = pick(7);
      if (kind <= 1) {
        const id = nextId++;
        if (kind === 0) {
          const stream = 5 + pick(3);
          const topic = topics[pick(3)];
          const message = eg.streamMessage({ id, stream_id: stream, subject: topic, flags: [] });
          state = reduceUnreads(state, eg.messageEvent(message, []), context);
          model.set(id, { stream, topic });
        } else {
          const other = 2 + pick(2);
          const from = eg.user({ user_id: other });
          const message = eg.dmMessage({ id, from, flags: [] });
          state = reduceUnreads(state, eg.messageEvent(message, []), context);
          model.set(id, { dm: String(other) });
        }
      } else if (kind === 2) {
        const ids = someIds();
        state = reduceUnreads(state, flags('add', ids), context);
        for (const id of ids) forget(id);
      } else if (kind === 3) {
        const ids = someIds();
        state = reduceUnreads(
          state,
          { id: 1, type: 'delete_message', message_ids: ids, message_type: 'stream' },
          context,
        );
        for (const id of ids) forget(id);
      } else if (kind === 4) {
        const ids = someIds();
        const fromStream = 5 + pick(3);
        const toStream = 5 + pick(3);
        const toTopic = topics[pick(3)];
        state = reduceUnreads(
          state,
          {
            id: 1,
            type: 'update_message',
            user_id: 2,
            message_id: ids[0],
            message_ids: ids,
            edit_timestamp: 0,
            rendering_only: false,
            stream_id: fromStream,
            new_stream_id: toStream,
            orig_subject: 'x',
            subject: toTopic,
            propagate_mode: 'change_all',
          },
          context,
        );
        for (const id of ids) {
          const at = model.get(id);
          if (at && 'stream' in at && at.stream === fromStream)
            model.set(id, { stream: toStream, topic: toTopic });
        }
      } else if (kind === 5) {
        // An edit adds or removes a mention: it counts only while the message is unread.
        const id = pick(2) ? someIds()[0] : 1 + pick(nextId - 1);
        const mentioned = pick(2) === 0;
        state = reduceUnreads(
          state,
          {
            id: 1,
            type: 'update_message',
            user_id: 2,
            message_id: id,
            message_ids: [id],
            edit_timestamp: 0,
            rendering_only: false,
            flags: mentioned ? ['mentioned'] : [],
          },
          context,
        );
        if (mentioned && model.has(id)) mentions.add(id);
        if (!mentioned) mentions.delete(id);
      } else {
        // Marked unread again: a message that was read comes back with its details.
        const id = 1 + pick(nextId - 1); // a message that exists
        if (!model.has(id)) {
          const stream = 5 + pick(3);
          const topic = topics[pick(3)];
          state = reduceUnreads(
            state,
            flags('remove', [id], {
              message_details: { [id]: { type: 'stream', stream_id: stream, topic } },
            }),
            context,
          );
          model.set(id, { stream, topic });
        }
      }
      const want = expected(model);
      expect(state.streams).toEqual(want.streams);
      expect(state.dms).toEqual(want.dms);
      expect(state.mentions).toEqual([...mentions].sort((a, b) => a - b));
      history.push({ state, model, mentions });
    }
  });
});
