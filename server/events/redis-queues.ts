import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { RawJson } from '../domain/raw-json.js';
import type { QueueNarrow } from '../domain/message-facts.js';
import type { EventQueues, QueueRefusal } from './event-queues.js';
import {
  queueEvents,
  type AdaptedEvents,
  type ClientCapabilities,
  type QueueOptions,
  type QueueView,
  type VerifiedCredentials,
} from './queue.js';
import { REDIS_SCRIPTS, type QueueCommands } from './redis-queue-scripts.js';
import type {
  ApiEvent,
  Bus,
  ClientGone,
  ControlDelivery,
  Delivery,
  EventDelivery,
} from './types.js';
import { loadRedis } from '../db/ioredis.js';

/**
 * Event queues kept in Redis, so that several server processes share them: any process answers
 * `GET /events` and `DELETE /events` for any queue, and a queue outlives the process that made
 * it. Used when REDIS_URL is set; a single process keeps its queues in memory (QueueManager).
 *
 * - A queue is a hash (its owner, options, next event id, last access and epoch) and a list of
 *   its events as JSON, each with its id; the ids of each person's queues are a set, and those
 *   that follow every public channel another, per organization.
 * - The process that publishes an event shapes it for each queue it reaches and appends it, in
 *   one script per queue that numbers the events; then it names the queues on a channel, and
 *   the processes holding a long-poll of one of them answer it.
 * - A delivery that fails (Redis unreachable) leaves gaps in unknown queues. Rather than let a
 *   client miss an event silently, the process raises the epoch once Redis answers again: every
 *   queue made before is then refused with BAD_EVENT_QUEUE_ID, and its client registers anew.
 * - The reference server's lifetime: a queue untouched for the idle time is collected, by
 *   whichever process looks first.
 */

/** What a queue keeps of its options: everything but the compiled narrow. */
interface StoredOptions {
  userId: number;
  realmId: number;
  eventTypes: string[] | null;
  rawNarrow: unknown;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  capabilities: ClientCapabilities;
}

/** Compiles a queue's narrow as the client gave it (register.ts), for queues of other processes. */
export type CompileNarrow = (realmId: number, userId: number, raw: unknown) => Promise<QueueNarrow>;

export interface RedisQueuesOptions {
  idleMs: number;
  compileNarrow: CompileNarrow;
  /** names every key and channel, so that deployments (or tests) can share one Redis */
  keyPrefix?: string;
  log?: { warn(fields: object, message: string): void };
}

interface Waiter {
  userId: number;
  /** reads the queue's events and answers with them if there are any */
  look(): void;
  finish(events: string[]): void;
}

const HEARTBEAT = '"type":"heartbeat"}';

/** An event's JSON without its opening brace, made once for all the queues that store it. */
const bodies = new WeakMap<ApiEvent, string>();
function bodyOf(event: ApiEvent): string {
  let body = bodies.get(event);
  if (body === undefined) bodies.set(event, (body = JSON.stringify(event).slice(1)));
  return body;
}

export class RedisQueues implements EventQueues {
  readonly bus: Bus;
  readonly processTag = crypto.randomBytes(3).toString('hex');
  private readonly prefix: string;
  private readonly waiting = new Map<string, Waiter>();
  /** queues' options, read once each (they never change) */
  private readonly views = new Map<string, Promise<(QueueView & StoredOptions) | null>>();
  private readonly credentials = new Map<string, VerifiedCredentials>();
  private revocations = 0;
  private stopping = false;
  /** a delivery failed: the epoch goes up as soon as Redis answers */
  private lost = false;
  private counted = 0;
  private readonly gcTimer: NodeJS.Timeout;

  private constructor(
    private readonly redis: Redis & QueueCommands,
    private readonly subscriber: Redis,
    private readonly inner: Bus,
    private readonly options: RedisQueuesOptions,
  ) {
    this.prefix = options.keyPrefix ?? 'parley:';
    this.bus = {
      publish: (deliveries) => this.publish(deliveries),
      subscribe: (handler) => inner.subscribe(handler),
      close: () => inner.close(),
    };
    inner.subscribe((deliveries) => {
      for (const d of deliveries) if (d.control) this.controlled(d);
    });
    subscriber.on('message', (_channel: string, ids: string) => {
      for (const id of ids.split(',')) this.waiting.get(id)?.look();
    });
    redis.on('ready', () => void this.raiseEpochIfLost());
    const every = Math.min(60_000, options.idleMs / 2);
    this.gcTimer = setInterval(() => void this.collectGarbage().catch(() => {}), every);
    this.gcTimer.unref();
  }

  static async connect(url: string, inner: Bus, options: RedisQueuesOptions): Promise<RedisQueues> {
    const Redis = await loadRedis();
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const subscriber = new Redis(url, { lazyConnect: true });
    for (const [name, script] of Object.entries(REDIS_SCRIPTS))
      redis.defineCommand(name, { lua: script.lua, numberOfKeys: script.keys });
    await redis.connect();
    await subscriber.connect();
    const queues = new RedisQueues(redis as Redis & QueueCommands, subscriber, inner, options);
    await subscriber.subscribe(`${queues.prefix}wake`);
    return queues;
  }

  private key = (queueId: string) => `${this.prefix}q:${queueId}`;
  private userSet = (realmId: number, userId: number) => `${this.prefix}u:${realmId}:${userId}`;
  private publicSet = (realmId: number) => `${this.prefix}p:${realmId}`;
  private get accessed() {
    return `${this.prefix}accessed`;
  }
  private get epoch() {
    return `${this.prefix}epoch`;
  }

  async create(opts: QueueOptions): Promise<{ id: string; lastEventId: number }> {
    const id = `${this.processTag}:${crypto.randomBytes(12).toString('base64url')}`;
    const stored: StoredOptions = {
      userId: opts.userId,
      realmId: opts.realmId,
      eventTypes: opts.eventTypes ? [...opts.eventTypes] : null,
      rawNarrow: opts.rawNarrow ?? [],
      applyMarkdown: opts.applyMarkdown,
      clientGravatar: opts.clientGravatar,
      allPublicStreams: opts.allPublicStreams,
      capabilities: opts.capabilities,
    };
    await reachable(() =>
      this.redis.parleyCreate(
        this.key(id),
        this.userSet(opts.realmId, opts.userId),
        opts.allPublicStreams ? this.publicSet(opts.realmId) : `${this.prefix}none`,
        this.accessed,
        this.epoch,
        id,
        JSON.stringify(stored),
        Date.now(),
        opts.allPublicStreams ? 1 : 0,
        opts.userId,
        opts.realmId,
      ),
    );
    this.views.set(id, Promise.resolve({ id, opts, ...stored }));
    this.counted++;
    return { id, lastEventId: -1 };
  }

  async fetch(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    waitMs: number,
    gone: ClientGone,
  ): Promise<RawJson | QueueRefusal> {
    const [status, ...events] = await reachable(() =>
      this.redis.parleyFetch(
        this.key(queueId),
        this.accessed,
        this.epoch,
        queueId,
        userId,
        lastEventId ?? '',
        Date.now(),
        this.prefix,
      ),
    );
    if (status !== 'ok') return status as QueueRefusal;
    if (events.length || waitMs <= 0 || this.stopping) return eventsJson(events);
    return eventsJson(await this.park(queueId, userId, waitMs, gone));
  }

  /** Waits in this process for the queue's first events, or a heartbeat after `waitMs`. */
  private park(queueId: string, userId: number, waitMs: number, gone: ClientGone) {
    this.waiting.get(queueId)?.finish([]); // a newer fetch replaces an older one
    return new Promise<string[]>((resolve) => {
      let done = false;
      const finish = (events: string[]) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unwatch();
        if (this.waiting.get(queueId) === waiter) this.waiting.delete(queueId);
        resolve(events);
      };
      const read = () => this.redis.lrange(`${this.key(queueId)}:e`, 0, -1);
      const waiter: Waiter = {
        userId,
        finish,
        look: () =>
          void read().then(
            (events) => events.length && finish(events),
            () => {}, // Redis away: the heartbeat or the client's next poll tries again
          ),
      };
      const timer = setTimeout(() => {
        void this.redis
          .parleyPush(this.key(queueId), HEARTBEAT)
          .then(read)
          .then(finish, () => finish([]));
      }, waitMs);
      const unwatch = gone.watch(() => finish([]));
      this.waiting.set(queueId, waiter);
      // An event appended between the fetch and now woke nobody: look once, parked.
      waiter.look();
    });
  }

  async remove(queueId: string, userId: number): Promise<QueueRefusal | null> {
    const status = await reachable(() =>
      this.redis.parleyDelete(this.key(queueId), this.accessed, queueId, userId, this.prefix),
    );
    this.forget(queueId);
    return status === 'ok' ? null : (status as QueueRefusal);
  }

  private forget(queueId: string) {
    this.waiting.get(queueId)?.finish([]);
    this.views.delete(queueId);
    this.credentials.delete(queueId);
  }

  authenticateByQueue(queueId: string, authorization: string, host: string) {
    const verified = this.credentials.get(queueId);
    if (!verified || verified.host !== host) return null;
    if (!crypto.timingSafeEqual(digest(verified.authorization), digest(authorization))) return null;
    return { realm: verified.realm, user: verified.user };
  }

  rememberCredentials(
    queueId: string,
    credentials: VerifiedCredentials,
    revocationsBefore: number,
  ): void {
    if (this.revocations !== revocationsBefore) return;
    // Only for a queue known to be that person's: its options were read here before.
    void this.views.get(queueId)?.then((view) => {
      if (!view || view.userId !== credentials.user.id || view.realmId !== credentials.realm.id)
        return;
      if (this.revocations === revocationsBefore) this.credentials.set(queueId, credentials);
    });
  }

  get revocationCount() {
    return this.revocations;
  }

  get size() {
    return this.counted;
  }

  get parkedPolls() {
    return this.waiting.size;
  }

  stopWaiting() {
    this.stopping = true;
    for (const waiter of [...this.waiting.values()]) waiter.finish([]);
  }

  close() {
    this.stopWaiting();
    clearInterval(this.gcTimer);
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  /** A control published by any process: credentials and waiting polls of those users. */
  private controlled(d: ControlDelivery) {
    if (d.control !== 'drop-all-public-streams') this.revocations++;
    const users = new Set(d.userIds);
    for (const [queueId, verified] of this.credentials)
      if (users.has(verified.user.id)) this.credentials.delete(queueId);
    if (d.control !== 'drop') return;
    for (const [queueId, waiter] of this.waiting)
      if (users.has(waiter.userId)) this.forget(queueId);
  }

  /**
   * Appends each event to the queues it reaches, then passes the deliveries on the bus (controls,
   * and the caches and streams other processes keep). A failure is never the write's: it was
   * committed; the queues that may have missed its events are reset instead (the epoch).
   */
  private async publish(deliveries: Delivery[]) {
    try {
      await this.deliver(deliveries);
    } catch (error) {
      this.deliveryLost(error);
    }
    try {
      await this.inner.publish(deliveries);
    } catch (error) {
      this.deliveryLost(error);
    }
  }

  private deliveryLost(error: unknown) {
    this.options.log?.warn({ err: error }, 'An event could not reach the queues in Redis');
    this.lost = true;
    void this.raiseEpochIfLost();
  }

  private async raiseEpochIfLost() {
    if (!this.lost || this.redis.status !== 'ready') return;
    try {
      await this.redis.incr(this.epoch);
      this.lost = false;
    } catch {
      // Tried again when the connection is ready again.
    }
  }

  private async deliver(deliveries: Delivery[]) {
    for (const d of deliveries) {
      if (d.control === 'drop') await this.dropQueues(d.realmId, d.userIds, false);
      else if (d.control === 'drop-all-public-streams')
        await this.dropQueues(d.realmId, d.userIds, true);
    }
    const events = deliveries.filter((d): d is EventDelivery => !d.control);
    if (!events.length) return;
    const ids = await this.queueIdsFor(events);
    await this.readViews(new Set([...ids.values()].flat()));
    const appended = new Map<string, string[]>();
    for (const d of events) await this.shape(d, ids, appended);
    if (!appended.size) return;
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & QueueCommands;
    for (const [queueId, list] of appended) pipeline.parleyPush(this.key(queueId), ...list);
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    await this.redis.publish(`${this.prefix}wake`, [...appended.keys()].join(','));
  }

  /** The queue ids of every user a delivery names, and of those following public channels. */
  private async queueIdsFor(events: EventDelivery[]) {
    const sets = new Set<string>();
    for (const d of events) {
      for (const userId of d.userIds) sets.add(this.userSet(d.realmId, userId));
      if (d.publicStreamId !== undefined) sets.add(this.publicSet(d.realmId));
    }
    const pipeline = this.redis.pipeline();
    for (const set of sets) pipeline.smembers(set);
    const answers = (await pipeline.exec()) ?? [];
    const ids = new Map<string, string[]>();
    [...sets].forEach((set, i) => {
      const [error, members] = answers[i] ?? [null, []];
      if (error) throw error;
      ids.set(set, members as string[]);
    });
    return ids;
  }

  /** Shapes one delivery for each queue it reaches, as EventQueue.accept does in memory. */
  private async shape(
    d: EventDelivery,
    ids: Map<string, string[]>,
    appended: Map<string, string[]>,
  ) {
    const reached = new Set<string>();
    const adapted: AdaptedEvents = new Map();
    const add = (queueId: string, list: ApiEvent[]) => {
      if (!list.length) return;
      let out = appended.get(queueId);
      if (!out) appended.set(queueId, (out = []));
      for (const event of list) out.push(bodyOf(event));
    };
    for (const userId of d.userIds) {
      for (const queueId of ids.get(this.userSet(d.realmId, userId)) ?? []) {
        const view = await this.view(queueId);
        if (!view || view.realmId !== d.realmId) continue;
        reached.add(queueId);
        add(queueId, queueEvents(view, d, userId, adapted));
      }
    }
    if (d.publicStreamId === undefined) return;
    const asRead: EventDelivery = {
      ...d,
      perUser: undefined,
      event: { ...d.event, flags: ['read'] },
    };
    const adaptedAsRead: AdaptedEvents = new Map();
    for (const queueId of ids.get(this.publicSet(d.realmId)) ?? []) {
      if (reached.has(queueId)) continue;
      const view = await this.view(queueId);
      if (view) add(queueId, queueEvents(view, asRead, view.userId, adaptedAsRead));
    }
  }

  /** A queue's options as stored, with its narrow compiled; null for a queue gone since. */
  private view(queueId: string) {
    let view = this.views.get(queueId);
    if (!view) {
      view = this.readView(queueId);
      this.views.set(queueId, view);
      void view.then((found) => found || this.views.delete(queueId));
    }
    return view;
  }

  private async readView(queueId: string): Promise<(QueueView & StoredOptions) | null> {
    return this.viewFrom(queueId, await this.redis.hget(this.key(queueId), 'o'));
  }

  /**
   * The options of the queues not read before, in one round trip: a publication reaching
   * thousands of queues made by other processes would otherwise read them one by one.
   */
  private async readViews(queueIds: Set<string>) {
    const unknown = [...queueIds].filter((id) => !this.views.has(id));
    if (!unknown.length) return;
    const pipeline = this.redis.pipeline();
    for (const queueId of unknown) pipeline.hget(this.key(queueId), 'o');
    const answers = (await pipeline.exec()) ?? [];
    unknown.forEach((queueId, i) => {
      const [error, json] = answers[i] ?? [null, null];
      if (error) throw error;
      const view = this.viewFrom(queueId, json as string | null);
      this.views.set(queueId, view);
      void view.then((found) => found || this.views.delete(queueId));
    });
  }

  private async viewFrom(
    queueId: string,
    json: string | null,
  ): Promise<(QueueView & StoredOptions) | null> {
    if (!json) return null;
    const stored = JSON.parse(json) as StoredOptions;
    const narrow =
      Array.isArray(stored.rawNarrow) && stored.rawNarrow.length
        ? await this.options.compileNarrow(stored.realmId, stored.userId, stored.rawNarrow)
        : [];
    const opts: QueueOptions = {
      ...stored,
      eventTypes: stored.eventTypes ? new Set(stored.eventTypes) : null,
      narrow,
    };
    return { id: queueId, opts, ...stored };
  }

  /** Deletes the queues of these users (only those following every public channel, or all). */
  private async dropQueues(realmId: number, userIds: number[], onlyAllPublic: boolean) {
    for (const userId of userIds) {
      const queueIds = await this.redis.smembers(this.userSet(realmId, userId));
      for (const queueId of queueIds) {
        if (onlyAllPublic && !(await this.redis.sismember(this.publicSet(realmId), queueId)))
          continue;
        await this.redis.parleyDelete(this.key(queueId), this.accessed, queueId, '', this.prefix);
        this.forget(queueId);
      }
    }
  }

  /** Deletes the queues nobody has fetched from for the idle time; counts those left. */
  async collectGarbage(now = Date.now()) {
    const idle = await this.redis.zrangebyscore(
      this.accessed,
      '-inf',
      now - this.options.idleMs,
      'LIMIT',
      0,
      1000,
    );
    for (const queueId of idle) {
      if (this.waiting.has(queueId)) continue;
      await this.redis.parleyDelete(this.key(queueId), this.accessed, queueId, '', this.prefix);
      this.forget(queueId);
    }
    this.counted = await this.redis.zcard(this.accessed);
  }
}

/**
 * Runs a request to Redis; a failure (Redis stopped, unreachable) is marked as the queues being
 * unreachable, which the API answers with 503 STORAGE_UNAVAILABLE and Retry-After rather than a
 * bare 500: clients try again, as after any lost connection.
 */
async function reachable<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw Object.assign(new Error('The event queues (Redis) cannot be reached', { cause: error }), {
      code: 'PARLEY_QUEUES_UNREACHABLE',
    });
  }
}

/** The stored events (each JSON with its id) as GET /events answers them. */
function eventsJson(events: string[]): RawJson {
  return new RawJson(`[${events.join(',')}]`);
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
