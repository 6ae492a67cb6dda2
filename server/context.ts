import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import type { Dialect } from './db/migrations.js';
import type { LoginAttempts } from './domain/login-attempts.js';
import { Mutex } from './events/lock.js';
import type { QueueManager } from './events/manager.js';
import type { Delivery } from './events/types.js';

/** Where actions report trouble: Fastify's logger in the server, the console elsewhere. */
export interface Logger {
  warn(...args: any[]): void;
  error(...args: any[]): void;
}

/** Everything an action needs; no HTTP in it. */
export interface AppContext {
  db: Database;
  dialect: Dialect;
  config: Config;
  queues: QueueManager;
  lock: Mutex;
  log: Logger;
  /** failed password attempts per account, shared by every process when there are several */
  loginAttempts: LoginAttempts;
  /** resolves once every commit made before the call is on disk (DatabaseHandle.toDisk) */
  toDisk(): Promise<void>;
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
  return new Promise<T>((resolve, reject) => {
    const batch = batchOf(ctx);
    batch.waiting.push({ fn, resolve, reject } as PendingWrite);
    if (!batch.scheduled) scheduleBatch(ctx, batch);
  });
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
        const durable = ctx.toDisk();
        durable.catch(() => {});
        const previous = batch.published;
        batch.published = previous.then(() => publishBatch(ctx, writes, outcomes, durable));
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
    // Nothing was committed: every write of the batch fails with the reason.
    for (const write of writes) write.reject(error);
    return null;
  }
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
    ctx.log.error('Syncing the database to disk failed', error);
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
