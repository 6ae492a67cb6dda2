import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisBus } from './redis-bus.js';
import { MemoryBus, untypedEvent, type Bus, type EventDelivery } from './types.js';
import type { VisitorSelector, VisitorSink } from './visitor-streams.js';
import { VisitorStreams } from './visitor-streams.js';

/** A sink that records what it was sent. */
class Sink implements VisitorSink {
  sent: any[][] = [];
  ended = false;
  backlog = 0;
  send(json: string) {
    this.sent.push(JSON.parse(json));
  }
  end(json?: string) {
    if (json !== undefined) this.send(json);
    this.ended = true;
  }
  get events() {
    return this.sent.flat().filter((e) => e.type !== 'heartbeat');
  }
}

/** Passes `visible` events of organization 1 on, and records what it was asked. */
class Selector implements VisitorSelector {
  watched: number[] = [];
  unwatched: number[] = [];
  fail = false;
  async watch(realmId: number) {
    this.watched.push(realmId);
  }
  unwatch(realmId: number) {
    this.unwatched.push(realmId);
  }
  async select(_realmId: number, deliveries: EventDelivery[]) {
    if (this.fail) throw new Error('the database is gone');
    const events = deliveries.map((d) => d.event).filter((e) => e.type === 'visible');
    const closing = deliveries.some((d) => d.event.type === 'closing');
    return closing ? { events, last: { type: 'closed' } } : { events };
  }
}

const delivery = (type: string, n = 0, realmId = 1): EventDelivery => ({
  realmId,
  userIds: [],
  event: untypedEvent({ type, n }),
});

const hubs: VisitorStreams[] = [];
const buses: Bus[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.close();
  for (const bus of buses.splice(0)) await bus.close();
});

function hub(bus: Bus, selector = new Selector(), max = 10, heartbeatMs = 60_000) {
  const visitors = new VisitorStreams(bus, selector, { maxConnections: max, heartbeatMs });
  hubs.push(visitors);
  return { visitors, selector };
}

describe('VisitorStreams', () => {
  it('sends each organization its selected events, in order, a heartbeat first', async () => {
    const bus = new MemoryBus();
    const { visitors, selector } = hub(bus);
    const one = new Sink();
    const other = new Sink();
    await visitors.connect(1, one);
    await visitors.connect(2, other);
    expect(one.sent).toEqual([[{ id: expect.any(Number), type: 'heartbeat' }]]);
    await bus.publish([delivery('visible', 1), delivery('hidden', 2), delivery('visible', 3)]);
    await bus.publish([delivery('visible', 4), delivery('visible', 5, 2)]);
    await vi.waitFor(() => expect(one.events.map((e) => e.n)).toEqual([1, 3, 4]));
    expect(other.events.map((e) => e.n)).toEqual([5]);
    expect(selector.watched).toEqual([1, 2]);
  });

  it('takes no visitor past its limit, and frees the place of one who leaves', async () => {
    const bus = new MemoryBus();
    const { visitors, selector } = hub(bus, new Selector(), 2);
    const leave = await visitors.connect(1, new Sink());
    expect(await visitors.connect(1, new Sink())).not.toBeNull();
    expect(visitors.hasRoom).toBe(false);
    expect(await visitors.connect(1, new Sink())).toBeNull();
    leave!();
    leave!();
    expect(visitors.size).toBe(1);
    expect(await visitors.connect(1, new Sink())).not.toBeNull();
    expect(selector.unwatched).toEqual([]);
  });

  it('forgets an organization when its last visitor leaves, and does no work without visitors', async () => {
    const bus = new MemoryBus();
    const { visitors, selector } = hub(bus);
    const select = vi.spyOn(selector, 'select');
    (await visitors.connect(1, new Sink()))!();
    expect(selector.unwatched).toEqual([1]);
    await bus.publish([delivery('visible')]);
    expect(select).not.toHaveBeenCalled();
  });

  it('ends every stream of an organization after its last event, or when events cannot be judged', async () => {
    const bus = new MemoryBus();
    const { visitors, selector } = hub(bus);
    const a = new Sink();
    const b = new Sink();
    await visitors.connect(1, a);
    await visitors.connect(2, b);
    await bus.publish([delivery('closing')]);
    await vi.waitFor(() => expect(a.ended).toBe(true));
    expect(a.sent.at(-1)).toEqual([{ id: expect.any(Number), type: 'closed' }]);
    expect(b.ended).toBe(false);
    selector.fail = true;
    await bus.publish([delivery('visible', 1, 2)]);
    await vi.waitFor(() => expect(b.ended).toBe(true));
    expect(b.events).toEqual([]);
    expect(visitors.size).toBe(0);
  });

  it('drops a visitor too far behind, and beats for the others', async () => {
    const bus = new MemoryBus();
    const { visitors } = hub(bus, new Selector(), 10, 50);
    const slow = new Sink();
    const quick = new Sink();
    await visitors.connect(1, slow);
    await visitors.connect(1, quick);
    slow.backlog = 2 << 20;
    await vi.waitFor(() => expect(quick.sent.length).toBeGreaterThan(2));
    expect(slow.ended).toBe(true);
    expect(visitors.size).toBe(1);
  });

  it('ends every stream when the server stops', async () => {
    const { visitors } = hub(new MemoryBus());
    const sink = new Sink();
    await visitors.connect(1, sink);
    visitors.close();
    expect(sink.ended).toBe(true);
    expect(await visitors.connect(1, new Sink())).toBeNull();
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = net.connect(Number(port || 6379), hostname);
  socket.once('connect', () => (socket.end(), resolve(true)));
  socket.once('error', () => resolve(false));
});

describe.skipIf(!redisUp)('VisitorStreams of several processes, through Redis', () => {
  it("reaches a visitor of one process with another process's publication", async () => {
    const here = await RedisBus.connect(REDIS_URL);
    const there = await RedisBus.connect(REDIS_URL);
    buses.push(here, there);
    const { visitors } = hub(there);
    const sink = new Sink();
    await visitors.connect(1, sink);
    await here.publish([delivery('visible', 7), delivery('hidden', 8)]);
    await vi.waitFor(() => expect(sink.events.map((e) => e.n)).toEqual([7]));
  });
});
