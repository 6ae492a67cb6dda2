import type { ApiEvent, Bus, Delivery, EventDelivery } from './types.js';

/**
 * Where one visitor's events go. The HTTP layer writes each batch out as a Server-Sent Event;
 * this module never sees a socket.
 */
export interface VisitorSink {
  /** one batch of events, serialized once for every visitor as a JSON array */
  send(json: string): void;
  /** ends the stream, after a last batch when one is given */
  end(json?: string): void;
  /** bytes written that the client has not taken yet */
  readonly backlog: number;
}

/** What a batch of publications becomes for an organization's visitors. */
export interface VisitorSelection {
  events: ApiEvent[];
  /** the organization no longer lets visitors in: this event goes out last and the streams end */
  last?: ApiEvent;
}

/**
 * What may flow to visitors, and in what shape: domain knowledge the plumbing is handed
 * (lib/web-public-events.ts), as QueueManager is handed events already addressed.
 */
export interface VisitorSelector {
  /** the first visitor of an organization arrives: learn what choosing for it needs */
  watch(realmId: number): Promise<void>;
  /** its last visitor left */
  unwatch(realmId: number): void;
  /** the events of one organization's publications, in order, that its visitors may have */
  select(realmId: number, deliveries: EventDelivery[]): Promise<VisitorSelection>;
}

export interface VisitorStreamOptions {
  /** streams open at once in this process, at most */
  maxConnections: number;
  heartbeatMs: number;
  /** bytes a visitor may leave unread before it is dropped (it reconnects and fetches again) */
  maxBacklog?: number;
}

interface RealmVisitors {
  visitors: Set<VisitorSink>;
  /** visitors connecting, waiting for `ready` */
  arriving: number;
  ready: Promise<void>;
}

const DEFAULT_MAX_BACKLOG = 1 << 20;

/**
 * The visitors (people reading web-public channels without an account) this process streams
 * to. It subscribes to the bus beside QueueManager, so that with several processes each one
 * serves the visitors connected to it from every publication; there is no queue to keep, as a
 * visitor that loses its stream fetches what it shows again.
 *
 * Publications are handled one batch after another, in bus order, and only while visitors are
 * connected: what the selector reads for a batch (the channels' current state) is read after the
 * commit that made it.
 */
export class VisitorStreams {
  private readonly realms = new Map<number, RealmVisitors>();
  /** visitors connected or connecting */
  private count = 0;
  private nextEventId = 0;
  private work: Promise<void> = Promise.resolve();
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(
    bus: Bus,
    private readonly selector: VisitorSelector,
    private readonly opts: VisitorStreamOptions,
  ) {
    bus.subscribe((deliveries) => this.published(deliveries));
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Visitors connected (or connecting) to this process. */
  get size(): number {
    return this.count;
  }

  /** Whether one more visitor would be taken now. */
  get hasRoom(): boolean {
    return !this.closed && this.count < this.opts.maxConnections;
  }

  get heartbeatSeconds(): number {
    return Math.round(this.opts.heartbeatMs / 1000);
  }

  /**
   * Streams the organization's selected events to `sink` from now on, a heartbeat first.
   * Returns what to call when the visitor goes away, or null when every place is taken.
   */
  async connect(realmId: number, sink: VisitorSink): Promise<(() => void) | null> {
    if (!this.hasRoom) return null;
    this.count++;
    let entry = this.realms.get(realmId);
    if (!entry) {
      entry = { visitors: new Set(), arriving: 0, ready: this.selector.watch(realmId) };
      this.realms.set(realmId, entry);
    }
    entry.arriving++;
    try {
      await entry.ready;
    } catch (error) {
      entry.arriving--;
      this.count--;
      this.forgetIfEmpty(realmId, entry);
      throw error;
    }
    entry.arriving--;
    if (this.closed) {
      this.count--;
      sink.end();
      return null;
    }
    entry.visitors.add(sink);
    sink.send(this.frame([{ type: 'heartbeat' }]));
    let gone = false;
    return () => {
      if (gone) return;
      gone = true;
      this.drop(realmId, sink);
    };
  }

  /** Ends every stream (the server is stopping); visitors reconnect to another process. */
  close() {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const [realmId, entry] of [...this.realms])
      for (const sink of [...entry.visitors]) this.drop(realmId, sink, true);
  }

  private drop(realmId: number, sink: VisitorSink, end = false, last?: string) {
    const entry = this.realms.get(realmId);
    if (!entry?.visitors.delete(sink)) return;
    this.count--;
    if (end) sink.end(last);
    this.forgetIfEmpty(realmId, entry);
  }

  private forgetIfEmpty(realmId: number, entry: RealmVisitors) {
    if (entry.visitors.size || entry.arriving || this.realms.get(realmId) !== entry) return;
    this.realms.delete(realmId);
    this.selector.unwatch(realmId);
  }

  /** The events as one JSON array, each with an id of this process's sequence. */
  private frame(events: ApiEvent[]): string {
    return JSON.stringify(events.map((event) => ({ id: this.nextEventId++, ...event })));
  }

  private published(deliveries: Delivery[]) {
    if (this.realms.size === 0) return;
    const byRealm = new Map<number, EventDelivery[]>();
    for (const d of deliveries) {
      if (d.control || !this.realms.has(d.realmId)) continue;
      let list = byRealm.get(d.realmId);
      if (!list) byRealm.set(d.realmId, (list = []));
      list.push(d);
    }
    if (byRealm.size === 0) return;
    this.work = this.work.then(() => this.deliver(byRealm)).catch(() => {});
  }

  private async deliver(byRealm: Map<number, EventDelivery[]>) {
    for (const [realmId, deliveries] of byRealm) {
      const entry = this.realms.get(realmId);
      if (!entry || this.closed) continue;
      let selection: VisitorSelection;
      try {
        await entry.ready;
        selection = await this.selector.select(realmId, deliveries);
      } catch {
        // Events that cannot be judged are not sent; the visitors reconnect and fetch again.
        for (const sink of [...entry.visitors]) this.drop(realmId, sink, true);
        continue;
      }
      if (selection.events.length) {
        const json = this.frame(selection.events);
        for (const sink of [...entry.visitors]) this.send(realmId, sink, json);
      }
      if (selection.last) {
        const last = this.frame([selection.last]);
        for (const sink of [...entry.visitors]) this.drop(realmId, sink, true, last);
      }
    }
  }

  private send(realmId: number, sink: VisitorSink, json: string) {
    if (sink.backlog > (this.opts.maxBacklog ?? DEFAULT_MAX_BACKLOG)) {
      this.drop(realmId, sink, true);
      return;
    }
    sink.send(json);
  }

  /** A heartbeat to every visitor, so that proxies and the client know the stream is alive. */
  private beat() {
    if (this.count === 0) return;
    const json = this.frame([{ type: 'heartbeat' }]);
    for (const [realmId, entry] of [...this.realms])
      for (const sink of [...entry.visitors]) this.send(realmId, sink, json);
  }
}
