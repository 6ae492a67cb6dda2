import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/errors';
import type { RegisterResponse } from '../api/model';
import type { ParsedEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import { connectionStatus, EventPoller, type PollerApi, type PollerState } from './poller';

type Step = { events: unknown[] } | { error: ApiRequestError } | 'hang';

/** A fake API answering from scripts; it records each call. */
class FakePollerApi implements PollerApi {
  registers: (RegisterResponse | ApiRequestError)[] = [];
  polls: Step[] = [];
  calls: string[] = [];
  /** whether each fetch asked to be answered at once */
  dontBlock: boolean[] = [];

  async register() {
    this.calls.push('register');
    const next =
      this.registers.shift() ?? eg.registerResponse({ queue_id: `q${this.calls.length}` });
    if (next instanceof ApiRequestError) throw next;
    return next;
  }

  getEvents(queueId: string, lastEventId: number, signal: AbortSignal, dontBlock?: boolean) {
    this.calls.push(`events ${queueId} ${lastEventId}`);
    this.dontBlock.push(dontBlock ?? false);
    const step = this.polls.shift() ?? 'hang';
    if (step === 'hang') {
      return new Promise<unknown[]>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    }
    if ('error' in step) return Promise.reject(step.error);
    return Promise.resolve(step.events);
  }
}

const apiError = (code: string, status = 400, extra: Record<string, unknown> = {}) =>
  new ApiRequestError({ kind: 'api', status, code, msg: code, extra });
const networkError = () => new ApiRequestError({ kind: 'network', message: 'offline' });

function setup(options: { failApply?: boolean } = {}) {
  const api = new FakePollerApi();
  const snapshots: RegisterResponse[] = [];
  const batches: ParsedEvent[][] = [];
  const states: PollerState[] = [];
  let failApply = options.failApply ?? false;
  const poller = new EventPoller(
    api,
    {
      snapshotReceived: (register) => snapshots.push(register),
      eventsReceived: (events) => {
        if (failApply) {
          failApply = false;
          throw new Error('reducer blew up');
        }
        batches.push(events);
      },
    },
    { baseDelayMs: 1000, maxDelayMs: 8000, random: () => 1, now: () => 0 },
  );
  poller.subscribe((state) => states.push(state));
  return { api, poller, snapshots, batches, states };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('EventPoller', () => {
  it('registers, then long-polls from last_event_id onwards', async () => {
    const { api, poller, snapshots, batches } = setup();
    api.registers.push(eg.registerResponse({ queue_id: 'abc', last_event_id: 4 }));
    api.polls.push({
      events: [
        { id: 5, type: 'heartbeat' },
        { id: 6, type: 'heartbeat' },
      ],
    });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots).toHaveLength(1);
    expect(batches[0].map((e) => e.id)).toEqual([5, 6]);
    expect(api.calls).toEqual(['register', 'events abc 4', 'events abc 6']);
    expect(poller.state).toEqual({ kind: 'polling', queueId: 'abc' });
    poller.stop();
    await done;
    expect(poller.state).toEqual({ kind: 'stopped', reason: 'requested' });
  });

  it('backs off with growing delays on network errors, then resumes the same queue', async () => {
    const { api, poller, states } = setup();
    api.registers.push(eg.registerResponse({ queue_id: 'abc', last_event_id: 0 }));
    api.polls.push({ error: networkError() }, { error: networkError() }, { events: [] });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(poller.state).toMatchObject({ kind: 'backing-off', attempt: 1, retryAt: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(poller.state).toMatchObject({ kind: 'backing-off', attempt: 2, retryAt: 2000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(poller.state.kind).toBe('polling');
    expect(api.calls.filter((c) => c === 'register')).toHaveLength(1);
    expect(states.map((s) => s.kind)).toEqual(['polling', 'backing-off', 'backing-off', 'polling']);
    poller.stop();
    await done;
  });

  it('after a failure, asks for an answer at once, so that being back shows without waiting for an event', async () => {
    const { api, poller } = setup();
    api.registers.push(eg.registerResponse({ queue_id: 'abc', last_event_id: 0 }));
    // The retry finds nothing new: a long-poll would park until the next event or heartbeat.
    api.polls.push({ error: networkError() }, { events: [] });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(poller.state.kind).toBe('polling');
    // The first fetch long-polls, the retry does not, and the one after long-polls again.
    expect(api.dontBlock).toEqual([false, true, false]);
    poller.stop();
    await done;
  });

  it('registers again and rebuilds when the queue is lost', async () => {
    const { api, poller, snapshots, states } = setup();
    api.polls.push({ error: apiError('BAD_EVENT_QUEUE_ID') });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots).toHaveLength(2);
    expect(states.map((s) => s.kind)).toEqual(['polling', 'registering', 'polling']);
    expect(connectionStatus({ kind: 'registering', afterLoss: true }, true)).toBe('reconnecting');
    poller.stop();
    await done;
  });

  it('registers again when applying events fails', async () => {
    const { api, poller, snapshots } = setup({ failApply: true });
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
    api.polls.push({ events: [{ id: 0, type: 'heartbeat' }] });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(snapshots).toHaveLength(2);
    expect(errorLog).toHaveBeenCalled();
    poller.stop();
    await done;
  });

  it('waits at least retry-after when rate limited', async () => {
    const { api, poller } = setup();
    api.polls.push({ error: apiError('RATE_LIMIT_HIT', 429, { 'retry-after': 30 }) });
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(poller.state).toMatchObject({ kind: 'backing-off', retryAt: 30000 });
    poller.stop();
    await done;
  });

  it('caps the delay and retries a failing register', async () => {
    const { api, poller } = setup();
    api.registers.push(...Array.from({ length: 6 }, () => networkError()));
    const done = poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 8000);
    expect(poller.state).toMatchObject({ kind: 'backing-off', attempt: 6, retryAt: 8000 });
    poller.stop();
    await done;
  });

  it('stops for good when the credentials stop working', async () => {
    const { api, poller } = setup();
    api.polls.push({ error: apiError('USER_DEACTIVATED', 401) });
    await poller.start();
    expect(poller.state).toEqual({ kind: 'stopped', reason: 'USER_DEACTIVATED' });
  });
});
