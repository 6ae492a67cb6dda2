import { describe, expect, it } from 'vitest';
import type { PresenceEvent } from '../api/model';
import { eg } from '../test/eg';
import { presenceFromSnapshot, presenceStatus, reducePresence } from './presence';

const legacy = (userId: number, status: 'active' | 'idle', timestamp: number): PresenceEvent => ({
  id: 1,
  type: 'presence',
  user_id: userId,
  email: `user${userId}@example.com`,
  server_timestamp: timestamp,
  presence: { website: { client: 'website', status, timestamp, pushable: false } },
});

const initial = () =>
  presenceFromSnapshot(
    eg.registerResponse({
      presences: { 2: { active_timestamp: 1000, idle_timestamp: 1100 } },
      server_presence_offline_threshold_seconds: 140,
    }),
  );

describe('presence', () => {
  it('reads the slim snapshot, keyed by user id', () => {
    expect(initial().byUserId).toEqual({ 2: { active_timestamp: 1000, idle_timestamp: 1100 } });
  });

  it('reads legacy per-client records too', () => {
    const state = presenceFromSnapshot(
      eg.registerResponse({
        presences: {
          3: {
            website: { status: 'idle', timestamp: 500 },
            aggregated: { status: 'idle', timestamp: 500 },
          },
        } as never,
      }),
    );
    expect(state.byUserId[3]).toEqual({ active_timestamp: 0, idle_timestamp: 500 });
  });

  it('moves both times on an active report: being active means being connected', () => {
    const state = reducePresence(initial(), legacy(2, 'active', 2000));
    expect(state.byUserId[2]).toEqual({ active_timestamp: 2000, idle_timestamp: 2000 });
  });

  it('moves only the connection time on an idle report, and starts unknown users at zero', () => {
    const state = reducePresence(initial(), legacy(3, 'idle', 2000));
    expect(state.byUserId[3]).toEqual({ active_timestamp: 0, idle_timestamp: 2000 });
  });

  it('takes modern events as they come', () => {
    const state = reducePresence(initial(), {
      id: 1,
      type: 'presence',
      presences: { 2: { active_timestamp: 900, idle_timestamp: 3000 } },
    });
    expect(state.byUserId[2]).toEqual({ active_timestamp: 900, idle_timestamp: 3000 });
  });

  it('returns the same state for reports that change nothing', () => {
    const state = initial();
    expect(reducePresence(state, legacy(2, 'idle', 1100))).toBe(state);
  });

  it('takes a legacy report as the latest state: an idle one dated in the past shows the user offline', () => {
    // Sent when a user stops sharing presence: idle, dated past the offline threshold.
    const state = reducePresence(initial(), legacy(2, 'idle', 900));
    expect(state.byUserId[2]).toEqual({ active_timestamp: 900, idle_timestamp: 900 });
    expect(presenceStatus(state, 2, 1100)).toBe('offline');
  });

  it('tells active, idle and offline apart by the offline threshold', () => {
    const state = initial();
    expect(presenceStatus(state, 2, 1100)).toBe('active');
    expect(presenceStatus(state, 2, 1200)).toBe('idle');
    expect(presenceStatus(state, 2, 1240)).toBe('offline');
    expect(presenceStatus(state, 99, 1100)).toBe('offline');
  });
});
