import crypto from 'node:crypto';
import { constantTimeEqual } from '../domain/password.js';
import { EventQueue, type AdaptedEvents, type QueueOptions, type QueueState } from './queue.js';
import type {
  ApiEvent,
  Bus,
  ClientGone,
  ControlDelivery,
  Delivery,
  EventDelivery,
} from './types.js';
import type { EventQueues, QueueRefusal } from './event-queues.js';
import { eventsJson } from './queue.js';
import type { RawJson } from '../domain/raw-json.js';

/** A queue as a graceful restart carries it over (events/persist.ts). */
export interface SavedQueue {
  opts: QueueOptions;
  state: QueueState;
}

/**
 * The queues this process owns, and their delivery. Actions publish on the bus; every process
 * delivers each publication to the queues it owns.
 */
export class QueueManager implements EventQueues {
  private queues = new Map<string, EventQueue>();
  private byUser = new Map<number, Set<EventQueue>>();
  private publicStreamQueues = new Set<EventQueue>();
  private gcTimer: NodeJS.Timeout;
  /**
   * Counts the `reauthenticate` and `drop` controls this process has applied: credentials read
   * from the database before one of them are not remembered after it (rememberCredentials).
   */
  private revocations = 0;
  /** the server is stopping and keeps its queues: fetches are not parked (stopWaiting) */
  private stopping = false;

  /**
   * `processTag` names this process inside queue ids, so a proxy can route GET /events by queue
   * id; a process that takes over the queues of the one before it (restore) takes its tag too.
   */
  constructor(
    readonly bus: Bus,
    private readonly idleMs: number,
    readonly processTag = crypto.randomBytes(3).toString('hex'),
  ) {
    bus.subscribe((deliveries) => this.deliver(deliveries));
    this.gcTimer = setInterval(() => this.collectGarbage(), Math.min(60_000, idleMs / 2));
    this.gcTimer.unref();
  }

  async create(opts: QueueOptions): Promise<{ id: string; lastEventId: number }> {
    return this.createQueue(opts);
  }

  createQueue(opts: QueueOptions): EventQueue {
    return this.add(new EventQueue(this.processTag, opts));
  }

  async fetch(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    waitMs: number,
    gone: ClientGone,
  ): Promise<RawJson | QueueRefusal> {
    const queue = this.queues.get(queueId);
    if (!queue) return 'missing';
    if (queue.opts.userId !== userId) return 'not-yours';
    queue.lastAccess = Date.now();
    if (lastEventId !== undefined) queue.acknowledge(lastEventId);
    let events = queue.pending();
    if (!events.length && waitMs > 0) events = await queue.wait(waitMs, gone);
    return eventsJson(events);
  }

  async remove(queueId: string, userId: number): Promise<QueueRefusal | null> {
    const queue = this.queues.get(queueId);
    if (!queue) return 'missing';
    if (queue.opts.userId !== userId) return 'not-yours';
    this.delete(queue);
    return null;
  }

  private add(queue: EventQueue): EventQueue {
    const { opts } = queue;
    this.queues.set(queue.id, queue);
    let set = this.byUser.get(opts.userId);
    if (!set) this.byUser.set(opts.userId, (set = new Set()));
    set.add(queue);
    if (opts.allPublicStreams) this.publicStreamQueues.add(queue);
    if (this.stopping) queue.stopWaiting();
    return queue;
  }

  /**
   * Takes over the queues the previous process saved when it stopped, with their ids, events and
   * event ids, and adds `restartEvent` to each that asked for its type. A queue idle for longer
   * than the idle timeout is left out, as the collector would have dropped it. Returns how many
   * were restored.
   */
  restore(saved: SavedQueue[], restartEvent: ApiEvent, now = Date.now()): number {
    let restored = 0;
    for (const { opts, state } of saved) {
      if (now - state.lastAccess > this.idleMs || this.queues.has(state.id)) continue;
      const queue = this.add(new EventQueue(this.processTag, opts, state));
      // One object for every queue, serialized once (eventsJson).
      if (queue.wantsType(restartEvent.type)) queue.push(restartEvent, true);
      restored++;
    }
    return restored;
  }

  /** Every queue's options and state, for a graceful shutdown that keeps them. */
  saved(): SavedQueue[] {
    return [...this.queues.values()].map((queue) => ({ opts: queue.opts, state: queue.state() }));
  }

  /**
   * For a graceful shutdown that keeps the queues: parked long-polls are answered now and later
   * ones at once, so that closing waits for none; events still reach the queues.
   */
  stopWaiting() {
    this.stopping = true;
    for (const queue of this.queues.values()) queue.stopWaiting();
  }

  get(queueId: string, userId: number): EventQueue | undefined {
    const queue = this.queues.get(queueId);
    return queue && queue.opts.userId === userId ? queue : undefined;
  }

  /** The queue by id, whoever owns it. */
  byId(queueId: string): EventQueue | undefined {
    return this.queues.get(queueId);
  }

  delete(queue: EventQueue) {
    queue.interrupt();
    this.queues.delete(queue.id);
    this.byUser.get(queue.opts.userId)?.delete(queue);
    if (this.byUser.get(queue.opts.userId)?.size === 0) this.byUser.delete(queue.opts.userId);
    this.publicStreamQueues.delete(queue);
  }

  /** Drops every queue of a user in this process (the `drop` control does it in every one). */
  deleteUserQueues(userId: number) {
    for (const q of [...(this.byUser.get(userId) ?? [])]) this.delete(q);
  }

  /** Where revocations stand now: pass it to rememberCredentials. */
  get revocationCount(): number {
    return this.revocations;
  }

  /**
   * The person a `GET /events` names, when its queue has verified these very headers before and
   * nothing revoked them since: a long-poll, the most frequent request by far, then reads nothing
   * from the database. `null` sends the request through the usual authentication.
   */
  authenticateByQueue(queueId: string, authorization: string, host: string) {
    const verified = this.queues.get(queueId)?.credentials;
    if (!verified || verified.host !== host) return null;
    if (!constantTimeEqual(verified.authorization, authorization)) return null;
    return { realm: verified.realm, user: verified.user };
  }

  /**
   * Remembers on the queue the headers a poll was just authenticated with against the database,
   * unless a revocation was applied since `revocationsBefore` was read (before that database
   * read): credentials that may predate a key change are never kept.
   */
  rememberCredentials(
    queueId: string,
    credentials: EventQueue['credentials'] & object,
    revocationsBefore: number,
  ) {
    const queue = this.queues.get(queueId);
    if (!queue || queue.opts.userId !== credentials.user.id) return;
    if (queue.opts.realmId !== credentials.realm.id) return;
    if (this.revocations !== revocationsBefore) return;
    queue.credentials = credentials;
  }

  private control(d: ControlDelivery) {
    if (d.control !== 'drop-all-public-streams') this.revocations++;
    for (const userId of d.userIds) {
      for (const q of this.queuesOf(userId)) {
        if (q.opts.realmId !== d.realmId) continue;
        if (d.control === 'drop') this.delete(q);
        else if (d.control === 'reauthenticate') q.credentials = null;
        else if (q.opts.allPublicStreams) this.delete(q);
      }
    }
  }

  queuesOf(userId: number): EventQueue[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  get size() {
    return this.queues.size;
  }

  /** Queues with a long-poll (GET /events) parked on them, waiting for an event. */
  get parkedPolls(): number {
    let parked = 0;
    for (const queue of this.queues.values()) if (queue.isWaiting) parked++;
    return parked;
  }

  private deliver(deliveries: Delivery[]) {
    for (const d of deliveries) {
      if (d.control) {
        this.control(d);
        continue;
      }
      const reached = new Set<EventQueue>();
      const adapted: AdaptedEvents = new Map();
      for (const userId of d.userIds) {
        for (const q of this.byUser.get(userId) ?? []) {
          if (q.opts.realmId !== d.realmId) continue;
          reached.add(q);
          q.accept(d, userId, adapted);
        }
      }
      if (d.publicStreamId !== undefined && this.publicStreamQueues.size) {
        // The same read copy for every queue that follows all public channels.
        const asRead: EventDelivery = {
          ...d,
          perUser: undefined,
          event: { ...d.event, flags: ['read'] },
        };
        const adaptedAsRead: AdaptedEvents = new Map();
        for (const q of this.publicStreamQueues) {
          if (reached.has(q) || q.opts.realmId !== d.realmId) continue;
          q.accept(asRead, q.opts.userId, adaptedAsRead);
        }
      }
    }
  }

  collectGarbage(now = Date.now()) {
    for (const q of [...this.queues.values()]) {
      if (!q.isWaiting && now - q.lastAccess > this.idleMs) this.delete(q);
    }
  }

  close() {
    clearInterval(this.gcTimer);
    for (const q of [...this.queues.values()]) this.delete(q);
  }
}

/** The queues of this process's memory, for tests that look inside them. */
export function localQueues(ctx: { queues: EventQueues }): QueueManager {
  const queues = ctx.queues as Partial<QueueManager>;
  if (typeof queues.queuesOf !== 'function') throw new Error('the queues are not in memory');
  return ctx.queues as QueueManager;
}
