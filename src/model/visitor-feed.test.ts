import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/errors';
import type { WebPublicEventHandlers } from '../api/extensions/web-public-events';
import type { ParsedEvent } from '../api/parse-event';
import {
  VisitorFeed,
  type PageVisibility,
  type VisitorFeedApi,
  type VisitorFeedState,
} from './visitor-feed';

/** One stream the fake server opened: the test drives it. */
interface FakeStream {
  handlers: WebPublicEventHandlers;
  signal: AbortSignal;
  open(): void;
  send(events: unknown[]): void;
  end(): void;
  fail(error: unknown): void;
}

/** A server that announces what the test says and lets the test drive every stream. */
class FakeServer implements VisitorFeedApi {
  streams: FakeStream[] = [];
  constructor(public announced: string[] | Error) {}

  async extensions() {
    if (this.announced instanceof Error) throw this.announced;
    return this.announced;
  }

  follow(handlers: WebPublicEventHandlers, signal: AbortSignal) {
    return new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      this.streams.push({
        handlers,
        signal,
        open: () => handlers.opened(),
        send: (events) => handlers.batch(events),
        end: resolve,
        fail: reject,
      });
    });
  }

  get last(): FakeStream {
    return this.streams[this.streams.length - 1];
  }
}

class FakeVisibility implements PageVisibility {
  shown = true;
  private listeners = new Set<() => void>();
  visible = () => this.shown;
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(shown: boolean) {
    this.shown = shown;
    for (const l of this.listeners) l();
  }
}

const apiError = (code: string, status: number) =>
  new ApiRequestError({ kind: 'api', status, code, msg: code, extra: {} });

function setup(announced: string[] | Error) {
  const server = new FakeServer(announced);
  const visibility = new FakeVisibility();
  const received: ParsedEvent[][] = [];
  let refreshes = 0;
  let refused = 0;
  const states: VisitorFeedState[] = [];
  const feed = new VisitorFeed(
    server,
    {
      eventsReceived: (events) => received.push(events),
      refresh: () => refreshes++,
      refused: () => refused++,
    },
    { visibility, random: () => 1, baseDelayMs: 1000, maxDelayMs: 8000, silenceMs: 75_000 },
  );
  feed.subscribe((state) => states.push(state));
  return {
    server,
    visibility,
    feed,
    received,
    states,
    refreshes: () => refreshes,
    refused: () => refused,
  };
}

/** Lets promises settle, without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('VisitorFeed', () => {
  it('streams where the server announces web_public_events, and polls nothing meanwhile', async () => {
    const t = setup(['mail_log', 'web_public_events']);
    void t.feed.start();
    await settle();
    expect(t.server.streams).toHaveLength(1);
    t.server.last.open();
    expect(t.feed.state).toEqual({ kind: 'streaming' });
    // Opening fetches once, for what happened before the stream.
    expect(t.refreshes()).toBe(1);
    t.server.last.send([{ id: 0, type: 'heartbeat' }]);
    t.server.last.send([
      { id: 1, type: 'delete_message', message_type: 'stream', message_ids: [7], stream_id: 5 },
    ]);
    expect(t.received.map((batch) => batch.map((e) => e.type))).toEqual([
      ['heartbeat'],
      ['delete_message'],
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.refreshes()).toBe(1);
    t.feed.stop();
    expect(t.server.last.signal.aborted).toBe(true);
  });

  it('polls every 10 s while the page is visible, every 30 s while it is hidden, where the extension is not announced', async () => {
    const t = setup(['mail_log']);
    void t.feed.start();
    await settle();
    expect(t.server.streams).toEqual([]);
    expect(t.feed.state).toEqual({ kind: 'polling', retryAt: null });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(t.refreshes()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.refreshes()).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(t.refreshes()).toBe(3);

    t.visibility.set(false);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(t.refreshes()).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.refreshes()).toBe(4);

    // Back in sight after 25 s hidden: the last fetch is older than 10 s, so one comes at once.
    await vi.advanceTimersByTimeAsync(25_000);
    t.visibility.set(true);
    await settle();
    expect(t.refreshes()).toBe(5);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.refreshes()).toBe(6);
    expect(t.server.streams).toEqual([]);
    t.feed.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.refreshes()).toBe(6);
  });

  it('polls where the extensions cannot be learnt (a server that does not answer them)', async () => {
    const t = setup(new Error('no server_settings here'));
    void t.feed.start();
    await settle();
    expect(t.feed.state).toEqual({ kind: 'polling', retryAt: null });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.refreshes()).toBe(1);
    t.feed.stop();
  });

  it('falls back to polling when the stream fails, and tries it again with back-off', async () => {
    const t = setup(['web_public_events']);
    void t.feed.start();
    await settle();
    t.server.last.fail(new ApiRequestError({ kind: 'network', message: 'offline' }));
    await settle();
    expect(t.feed.state).toEqual({ kind: 'polling', retryAt: Date.now() + 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.server.streams).toHaveLength(2);
    t.server.last.fail(apiError('TOO_MANY_VISITORS', 503));
    await settle();
    await vi.advanceTimersByTimeAsync(1999);
    expect(t.server.streams).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.server.streams).toHaveLength(3);
    // Still down: polling goes on every 10 s in the meantime.
    t.server.last.fail(new ApiRequestError({ kind: 'network', message: 'offline' }));
    await settle();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(t.server.streams).toHaveLength(3);
    expect(t.refreshes()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.server.streams).toHaveLength(4);
    t.server.last.fail(new ApiRequestError({ kind: 'network', message: 'offline' }));
    await settle();
    expect(t.feed.state).toEqual({ kind: 'polling', retryAt: Date.now() + 8000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(t.refreshes()).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(t.server.streams).toHaveLength(5);

    t.server.last.open();
    expect(t.feed.state).toEqual({ kind: 'streaming' });
    expect(t.refreshes()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.refreshes()).toBe(2);
    t.feed.stop();
  });

  it('reconnects after the server ends a stream, and fetches what it may have missed', async () => {
    const t = setup(['web_public_events']);
    void t.feed.start();
    await settle();
    t.server.last.open();
    await vi.advanceTimersByTimeAsync(40_000);
    t.server.last.send([{ id: 1, type: 'heartbeat' }]);
    await vi.advanceTimersByTimeAsync(20_000);
    t.server.last.end();
    await settle();
    expect(t.feed.state.kind).toBe('polling');
    await vi.advanceTimersByTimeAsync(1000);
    t.server.last.open();
    expect(t.server.streams).toHaveLength(2);
    expect(t.refreshes()).toBe(2);
    t.feed.stop();
  });

  it('takes a stream that falls silent for broken', async () => {
    const t = setup(['web_public_events']);
    void t.feed.start();
    await settle();
    t.server.last.open();
    await vi.advanceTimersByTimeAsync(74_999);
    expect(t.server.streams[0].signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.server.streams[0].signal.aborted).toBe(true);
    expect(t.feed.state.kind).toBe('polling');
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.server.streams).toHaveLength(2);
    t.feed.stop();
  });

  it('stops when visitors are refused, and polls without retrying once the stream is gone', async () => {
    const refusedHere = setup(['web_public_events']);
    void refusedHere.feed.start();
    await settle();
    refusedHere.server.last.fail(apiError('UNAUTHORIZED', 401));
    await settle();
    expect(refusedHere.feed.state).toEqual({ kind: 'stopped' });
    expect(refusedHere.refused()).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refusedHere.server.streams).toHaveLength(1);
    expect(refusedHere.refreshes()).toBe(0);

    const switchedOff = setup(['web_public_events']);
    void switchedOff.feed.start();
    await settle();
    switchedOff.server.last.fail(apiError('NOT_FOUND', 404));
    await settle();
    expect(switchedOff.feed.state).toEqual({ kind: 'polling', retryAt: null });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(switchedOff.server.streams).toHaveLength(1);
    expect(switchedOff.refreshes()).toBe(12);
    switchedOff.feed.stop();
  });
});
