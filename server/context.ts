import type { RateLimits } from './http/rate-limit-stores.js';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import type { Dialect } from './db/migrations.js';
import { DomainError } from './domain/errors.js';
import type { FileStore } from './domain/file-store.js';
import type { ServerKeys } from './domain/server-keys.js';
import type { LoginAttempts } from './domain/login-attempts.js';
import { Mutex } from './events/lock.js';
import type { EventQueues } from './events/event-queues.js';
import type { Delivery } from './events/types.js';
import type { VisitorStreams } from './events/visitor-streams.js';
import type { ServerMetrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/**
 * Where actions report: the server's logger (pino, as Fastify's), the console in the management
 * commands. Pass the fields first and the message after: `log.warn({ err }, 'what failed')`.
 */
export interface Logger {
  debug(...args: any[]): void;
  info(...args: any[]): void;
  warn(...args: any[]): void;
  error(...args: any[]): void;
}

/** Everything an action needs; no HTTP in it. */
export interface AppContext {
  db: Database;
  dialect: Dialect;
  config: Config;
  /** where uploads, avatars and custom emoji are kept (PARLEY_FILE_STORE) */
  files: FileStore;
  /** the installation's secrets, the same in every process that serves it */
  keys: ServerKeys;
  queues: EventQueues;
  /** the visitors following web-public channels live; none when switched off, or in commands */
  visitors?: VisitorStreams;
  lock: Mutex;
  log: Logger;
  /** failed password attempts per account, shared by every process when there are several */
  loginAttempts: LoginAttempts;
  /** where requests are counted against the rate limits (http/rate-limit.ts) */
  rateLimits: RateLimits;
  /** resolves once every commit made before the call is on disk (DatabaseHandle.toDisk) */
  toDisk(): Promise<void>;
  /** the server's metrics (GET /metrics); none in the management commands */
  metrics?: ServerMetrics;
  /** the server's start and stop, as GET /ready reports them; none in the management commands */
  readiness?: Readiness;
}

/**
 * Runs `fn` in a database transaction and publishes the events it collected only after the
 * commit is on disk, in commit order.
 *
 * Group commit: writes that arrive while another is running (or waiting for the lock) are run
 * one after another in a single transaction, each inside its own savepoint, and committed
 * together, so that many of them share one sync to disk. Each still runs as if alone (it sees
 * the writes before it, as serial execution would), and a failing one is rolled back to its
 * savepoint without touching the others.
 *
 * The write lock is held from the first write of a batch to its commit. The sync to disk, the
 * publication of the events and the answers follow outside it, so that the next batch runs
 * while the disk works; nobody is answered and no event is published before the commit that
 * made it is durable. A register snapshot, which must see either a write and not its events or
 * both, takes the lock and then waits for `writesPublished`.
 */
export function transact<T>(
  ctx: AppContext,
  fn: (trx: Database, events: Delivery[]) => Promise<T>,
): Promise<T> {
  const outer = joined.get(ctx.db);
  if (outer) return joinTransaction(ctx.db, outer, fn);
  return new Promise<T>((resolve, reject) => {
    const batch = batchOf(ctx);
    batch.waiting.push({ fn, resolve, reject } as PendingWrite);
    if (!batch.scheduled) scheduleBatch(ctx, batch);
  });
}

/**
 * Runs `fn` with a context whose writes all join one transaction, committed when `fn` returns
 * and rolled back entirely if it throws: the actions it calls (createUser, sendMessage...) run
 * as they always do, each in a savepoint of its own, and nothing of them is stored unless all of
 * them are. The events they emit are published after the commit, as transact's are. Holds the
 * write lock throughout, so that other writes and register snapshots wait for it.
 *
 * Its writes run one after another (a transaction is one connection): `fn` awaits each action
 * before the next.
 */
export async function inOneTransaction<T>(
  ctx: AppContext,
  fn: (ctx: AppContext) => Promise<T>,
): Promise<T> {
  if (joined.has(ctx.db)) return fn(ctx); // already inside one
  const events: Delivery[] = [];
  const value = await ctx.lock.run(async () => {
    const started = performance.now();
    try {
      const value = await ctx.db.transaction().execute((trx) => {
        joined.set(trx, events);
        return fn({ ...ctx, db: trx });
      });
      countTransaction(ctx, started, [{ ok: true }]);
      return value;
    } catch (error) {
      countTransaction(ctx, started, [], error);
      throw error;
    }
  });
  await durable(ctx);
  if (events.length) await ctx.queues.bus.publish(events);
  return value;
}

/** Open transactions of inOneTransaction, with the events their writes emitted. */
const joined = new WeakMap<Database, Delivery[]>();

/** A write inside inOneTransaction's transaction: in a savepoint, so that it fails alone. */
async function joinTransaction<T>(
  trx: Database,
  events: Delivery[],
  fn: (trx: Database, events: Delivery[]) => Promise<T>,
): Promise<T> {
  const own: Delivery[] = [];
  await sql`SAVEPOINT parley_joined`.execute(trx);
  try {
    const value = await fn(trx, own);
    await sql`RELEASE SAVEPOINT parley_joined`.execute(trx);
    events.push(...own);
    return value;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT parley_joined`.execute(trx);
    await sql`RELEASE SAVEPOINT parley_joined`.execute(trx);
    throw error;
  }
}

/**
 * Counts a write transaction in the metrics: its time from `started`, and what became of its
 * writes (`outcomes`), or its `failure` when nothing was committed. A refused action (a
 * DomainError) is not a failure of the database, even when alone it rolled its transaction back.
 */
function countTransaction(
  ctx: AppContext,
  started: number,
  outcomes: readonly { ok: boolean; error?: unknown }[],
  failure?: unknown,
) {
  if (!ctx.metrics) return;
  const seconds = (performance.now() - started) / 1000;
  if (failure !== undefined && !(failure instanceof DomainError && outcomes.length === 0)) {
    ctx.metrics.observeTransaction(seconds, 'failed');
    return;
  }
  const counts = { committed: 0, refused: failure === undefined ? 0 : 1, errors: 0 };
  for (const o of outcomes) {
    if (o.ok) counts.committed++;
    else if (o.error instanceof DomainError) counts.refused++;
    else counts.errors++;
  }
  ctx.metrics.observeTransaction(seconds, counts);
}

/** ctx.toDisk, its time and failures counted in the metrics. */
function durable(ctx: AppContext): Promise<void> {
  const started = performance.now();
  const sync = ctx.toDisk();
  sync.then(
    () => ctx.metrics?.observeSync((performance.now() - started) / 1000, false),
    () => ctx.metrics?.observeSync((performance.now() - started) / 1000, true),
  );
  return sync;
}

/**
 * Resolves once every write committed so far is durable, its events published and its caller
 * answered. Called under the write lock (register), nothing commits meanwhile.
 */
export function writesPublished(ctx: AppContext): Promise<void> {
  return batches.get(ctx.db)?.published ?? Promise.resolve();
}

interface PendingWrite {
  fn: (trx: Database, events: Delivery[]) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface WriteBatch {
  waiting: PendingWrite[];
  scheduled: boolean;
  /** the publication of the last committed batch (never rejects) */
  published: Promise<void>;
}

/** Per database: the writes waiting for the next transaction. */
const batches = new WeakMap<Database, WriteBatch>();
/** Writes per transaction at most, so that a register snapshot waits for a bounded time. */
const MAX_BATCH = 64;

function batchOf(ctx: AppContext): WriteBatch {
  let batch = batches.get(ctx.db);
  if (!batch)
    batches.set(ctx.db, (batch = { waiting: [], scheduled: false, published: Promise.resolve() }));
  return batch;
}

function scheduleBatch(ctx: AppContext, batch: WriteBatch) {
  batch.scheduled = true;
  // One turn of the event loop first: requests already received reach their writes and join
  // this batch.
  setImmediate(() => void runWhenLocked(ctx, batch));
}

function runWhenLocked(ctx: AppContext, batch: WriteBatch) {
  return ctx.lock.run(async () => {
    const writes = batch.waiting.splice(0, MAX_BATCH);
    try {
      const outcomes = await commitBatch(ctx, writes);
      if (outcomes) {
        // The sync starts now, beside the next batch; publications keep the commit order.
        const synced = durable(ctx);
        synced.catch(() => {});
        const previous = batch.published;
        batch.published = previous.then(() => publishBatch(ctx, writes, outcomes, synced));
      }
    } finally {
      // What arrived meanwhile goes behind anyone already waiting for the lock.
      if (batch.waiting.length) scheduleBatch(ctx, batch);
      else batch.scheduled = false;
    }
  });
}

const RELEASE = sql`RELEASE SAVEPOINT parley_write`;
const RELEASE_AND_NEXT = sql`RELEASE SAVEPOINT parley_write; SAVEPOINT parley_write`;

type Outcome = { ok: true; value: unknown; events: Delivery[] } | { ok: false; error: unknown };

/** Runs and commits one batch; null (every write rejected) when nothing was committed. */
async function commitBatch(ctx: AppContext, writes: PendingWrite[]): Promise<Outcome[] | null> {
  const outcomes: Outcome[] = [];
  const started = performance.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (writes.length === 1) {
        // Alone: its failure rolls the whole transaction back, with no savepoint to pay for.
        const events: Delivery[] = [];
        outcomes.push({ ok: true, value: await writes[0].fn(trx, events), events });
        return;
      }
      // PostgreSQL: ending one write's savepoint and opening the next one's is one round trip
      // (several statements in one simple query); SQLite prepares one statement at a time and
      // pays no round trip anyway.
      const joined = ctx.dialect === 'postgres';
      let open = false;
      for (const [i, write] of writes.entries()) {
        const events: Delivery[] = [];
        if (!open) await sql`SAVEPOINT parley_write`.execute(trx);
        open = false;
        const more = joined && i < writes.length - 1;
        try {
          const value = await write.fn(trx, events);
          await (more ? RELEASE_AND_NEXT : RELEASE).execute(trx);
          outcomes.push({ ok: true, value, events });
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT parley_write`.execute(trx);
          await (more ? RELEASE_AND_NEXT : RELEASE).execute(trx);
          outcomes.push({ ok: false, error });
        }
        open = more;
      }
    });
  } catch (error) {
    countTransaction(ctx, started, outcomes, error);
    // Nothing was committed: every write of the batch fails with the reason.
    for (const write of writes) write.reject(error);
    return null;
  }
  countTransaction(ctx, started, outcomes);
  return outcomes;
}

/** After its sync: the batch's events out, then its answers. Never rejects. */
async function publishBatch(
  ctx: AppContext,
  writes: PendingWrite[],
  outcomes: Outcome[],
  durable: Promise<void>,
): Promise<void> {
  try {
    await durable;
  } catch (error) {
    // Committed but perhaps not on disk: no caller is told it succeeded.
    ctx.log.error({ err: error }, 'Syncing the database to disk failed');
    for (const write of writes) write.reject(error);
    return;
  }
  const events = outcomes.flatMap((o) => (o.ok ? o.events : []));
  try {
    if (events.length) await ctx.queues.bus.publish(events);
  } catch (error) {
    for (const write of writes) write.reject(error);
    return;
  }
  outcomes.forEach((outcome, i) =>
    outcome.ok ? writes[i].resolve(outcome.value) : writes[i].reject(outcome.error),
  );
}
