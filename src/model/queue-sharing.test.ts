import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ParsedEvent } from '../api/parse-event';
import { accountStateFromSnapshot } from './account-state';
import { QueueSharing, type SharedSnapshot, type SharingHost } from './queue-sharing';
import { eg } from '../test/eg';

/** Web Locks as a browser keeps them: one holder per name, the others waiting in turn. */
function fakeLocks() {
  const queues = new Map<string, (() => void)[]>();
  const held = new Set<string>();
  return {
    request(name: string, callback: () => Promise<unknown> | unknown) {
      return new Promise((resolve, reject) => {
        const run = () => {
          held.add(name);
          Promise.resolve()
            .then(callback)
            .then(resolve, reject)
            .finally(() => {
              held.delete(name);
              queues.get(name)?.shift()?.();
            });
        };
        if (held.has(name)) {
          if (!queues.has(name)) queues.set(name, []);
          queues.get(name)!.push(run);
        } else run();
      });
    },
    query: async () => ({ held: [...held].map((name) => ({ name })) }),
  };
}

function tab(name: string, snapshot: SharedSnapshot | null = null) {
  const calls = {
    leader: 0,
    snapshots: [] as SharedSnapshot[],
    events: [] as ParsedEvent[][],
    statuses: [] as string[],
  };
  const host: SharingHost = {
    becameLeader: () => void calls.leader++,
    snapshot: () => snapshot,
    snapshotShared: (s) => void calls.snapshots.push(s),
    eventsShared: (_queue, events) => void calls.events.push(events),
    statusShared: (status) => void calls.statuses.push(status),
  };
  const sharing = new QueueSharing(`account-${key}`, host, name);
  return { sharing, calls };
}

let key = 0;
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('QueueSharing', () => {
  it('one tab leads and hands its state and events to the others; the next takes over', async () => {
    key++;
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks() });
    expect(QueueSharing.supported()).toBe(true);
    const state = accountStateFromSnapshot(eg.registerResponse({ queue_id: 'q1' }));
    const a = tab('a', { queueId: 'q1', lastEventId: 4, state });
    a.sharing.start();
    await vi.waitFor(() => expect(a.calls.leader).toBe(1));
    const b = tab('b');
    const c = tab('c');
    b.sharing.start();
    c.sharing.start();

    // Each newcomer gets the leader's state, addressed to it; the others are not leaders.
    await vi.waitFor(() => expect(b.calls.snapshots).toHaveLength(1));
    await vi.waitFor(() => expect(c.calls.snapshots).toHaveLength(1));
    expect(b.calls.snapshots[0]).toMatchObject({ queueId: 'q1', lastEventId: 4 });
    expect(b.calls.snapshots[0].state.ownUserId).toBe(state.ownUserId);
    expect([b.calls.leader, c.calls.leader]).toEqual([0, 0]);
    expect(a.sharing.hasOthers).toBe(true);

    const events = [{ id: 5, type: 'heartbeat' }] as ParsedEvent[];
    a.sharing.shareEvents('q1', events);
    a.sharing.shareStatus('reconnecting', null);
    await vi.waitFor(() => expect(c.calls.events).toEqual([events]));
    expect(b.calls.events).toEqual([events]);
    await vi.waitFor(() => expect(b.calls.statuses).toEqual(['reconnecting']));
    expect(a.calls.events).toEqual([]); // the leader does not hear itself

    // The leader goes: exactly one of the others takes the queue over, and knows the third.
    a.sharing.stop();
    await vi.waitFor(() => expect(b.calls.leader + c.calls.leader).toBe(1));
    const next = b.calls.leader ? b : c;
    expect(next.sharing.isLeader).toBe(true);
    await vi.waitFor(() => expect(next.sharing.hasOthers).toBe(true));
    b.sharing.stop();
    c.sharing.stop();
  });

  it('knows when another tab is in front, so that only one notifies and only when none is', async () => {
    key++;
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks() });
    // Neither tab in front as they open (each tells the other so at its hello).
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const a = tab('a');
    const b = tab('b');
    a.sharing.start();
    b.sharing.start();
    await vi.waitFor(() => expect(a.sharing.isLeader).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(a.sharing.anyInFront()).toBe(false);
    // A tab comes to the front (in this one window, both hear it; each tells the other).
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    window.dispatchEvent(new Event('focus'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Seen from a, once its own window is not in front: b said it is.
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    expect(a.sharing.anyInFront()).toBe(true);
    // b closes: nobody is in front any more.
    b.sharing.stop();
    await vi.waitFor(() => expect(a.sharing.anyInFront()).toBe(false));
    a.sharing.stop();
  });

  it('is not used where the browser has no Web Locks', () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    expect(QueueSharing.supported()).toBe(false);
  });
});
