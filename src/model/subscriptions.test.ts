import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import { reduceSubscriptions, subscriptionsFromSnapshot } from './subscriptions';

const design = eg.subscription({
  stream_id: 9,
  name: 'design',
  color: '#aaaaaa',
  subscribers: [1, 2],
});

function initial() {
  return subscriptionsFromSnapshot(
    eg.registerResponse({ subscriptions: [eg.generalStream, design], streams: [eg.generalStream] }),
  );
}

describe('reduceSubscriptions', () => {
  it('adds subscriptions', () => {
    const sub = eg.subscription({ stream_id: 12, name: 'new' });
    const state = reduceSubscriptions(initial(), {
      id: 1,
      type: 'subscription',
      op: 'add',
      subscriptions: [sub],
    });
    expect(state.subscriptions[12].name).toBe('new');
    expect(state.streams[12]).toBeDefined();
  });

  it('removes subscriptions but keeps the stream visible', () => {
    const state = reduceSubscriptions(initial(), {
      id: 1,
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ stream_id: 9, name: 'design' }],
    });
    expect(state.subscriptions[9]).toBeUndefined();
    expect(state.streams[9]).toBeDefined();
  });

  it('updates a property, keeping is_muted and in_home_view in step', () => {
    const colored = reduceSubscriptions(initial(), {
      id: 1,
      type: 'subscription',
      op: 'update',
      stream_id: 9,
      property: 'color',
      value: '#123456',
    });
    expect(colored.subscriptions[9].color).toBe('#123456');
    const muted = reduceSubscriptions(colored, {
      id: 2,
      type: 'subscription',
      op: 'update',
      stream_id: 9,
      property: 'in_home_view',
      value: false,
    });
    expect(muted.subscriptions[9]).toMatchObject({ is_muted: true, in_home_view: false });
    const again = reduceSubscriptions(muted, {
      id: 3,
      type: 'subscription',
      op: 'update',
      stream_id: 9,
      property: 'is_muted',
      value: true,
    });
    expect(again).toBe(muted);
  });

  it('adds and removes peers', () => {
    const added = reduceSubscriptions(initial(), {
      id: 1,
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [9],
      user_ids: [3],
    });
    expect(added.subscriptions[9].subscribers).toEqual([1, 2, 3]);
    const removed = reduceSubscriptions(added, {
      id: 2,
      type: 'subscription',
      op: 'peer_remove',
      stream_ids: [9],
      user_ids: [1],
    });
    expect(removed.subscriptions[9].subscribers).toEqual([2, 3]);
    expect(
      reduceSubscriptions(removed, {
        id: 3,
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [9],
        user_ids: [1],
      }),
    ).toBe(removed);
  });

  it('returns the same state for unknown streams', () => {
    const before = initial();
    expect(
      reduceSubscriptions(before, {
        id: 1,
        type: 'subscription',
        op: 'update',
        stream_id: 404,
        property: 'color',
        value: '#fff',
      }),
    ).toBe(before);
    expect(
      reduceSubscriptions(before, {
        id: 1,
        type: 'subscription',
        op: 'remove',
        subscriptions: [{ stream_id: 404, name: 'x' }],
      }),
    ).toBe(before);
  });

  it('renames a stream on a stream update', () => {
    const state = reduceSubscriptions(initial(), {
      id: 1,
      type: 'stream',
      op: 'update',
      stream_id: 9,
      property: 'name',
      value: 'design-team',
    });
    expect(state.subscriptions[9].name).toBe('design-team');
    expect(state.streams[9].name).toBe('design-team');
  });

  it('applies all three privacy flags of an invite_only update', () => {
    const state = reduceSubscriptions(initial(), {
      id: 1,
      type: 'stream',
      op: 'update',
      stream_id: 9,
      property: 'invite_only',
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
    });
    expect(state.subscriptions[9].invite_only).toBe(true);
    expect(state.subscriptions[9].history_public_to_subscribers).toBe(false);
    expect(state.streams[9].history_public_to_subscribers).toBe(false);
  });

  it('forgets an archived (deleted) stream and its subscription', () => {
    const state = reduceSubscriptions(initial(), {
      id: 1,
      type: 'stream',
      op: 'delete',
      streams: [{ stream_id: 9 }],
    });
    expect(state.subscriptions[9]).toBeUndefined();
    expect(state.streams[9]).toBeUndefined();
  });
});
