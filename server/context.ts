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
}

/**
 * Runs `fn` in a database transaction and publishes the events it collected only after the
 * commit, under the write lock that register snapshots also take.
 *
 * Group commit: writes that arrive while another is running (or waiting for the lock) are run
 * one after another in a single transaction, each inside its own savepoint, and committed
 * together, so that many of them share one sync to disk. Each still runs as if alone (it sees
 * the writes before it, as serial execution would), a failing one is rolled back to its
 * savepoint without touching the others, and none is answered before the commit that makes it
 * durable.
 */
export function transact<T>(
  ctx: AppContext,
  fn: (trx: Database, events: Delivery[]) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let batch = batches.get(ctx.db);
    if (!batch) batches.set(ctx.db, (batch = { waiting: [], scheduled: false }));
    batch.waiting.push({ fn, resolve, reject } as PendingWrite);
    if (!batch.scheduled) scheduleBatch(ctx, batch);
  });
}

interface PendingWrite {
  fn: (trx: Database, events: Delivery[]) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface WriteBatch {
  waiting: PendingWrite[];
  scheduled: boolean;
}

/** Per database: the writes waiting for the next transaction. */
const batches = new WeakMap<Database, WriteBatch>();
/** Writes per transaction at most, so that a register snapshot waits for a bounded time. */
const MAX_BATCH = 64;

function scheduleBatch(ctx: AppContext, batch: WriteBatch) {
  batch.scheduled = true;
  // One turn of the event loop first: requests already received reach their writes and join
  // this batch (SQLite commits synchronously, so nothing else runs while it syncs).
  setImmediate(() => void runWhenLocked(ctx, batch));
}

function runWhenLocked(ctx: AppContext, batch: WriteBatch) {
  return ctx.lock.run(async () => {
    const writes = batch.waiting.splice(0, MAX_BATCH);
    try {
      await runBatch(ctx, writes);
    } finally {
      // What arrived meanwhile goes behind anyone already waiting for the lock.
      if (batch.waiting.length) scheduleBatch(ctx, batch);
      else batch.scheduled = false;
    }
  });
}

type Outcome = { ok: true; value: unknown; events: Delivery[] } | { ok: false; error: unknown };

async function runBatch(ctx: AppContext, writes: PendingWrite[]): Promise<void> {
  const outcomes: Outcome[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (writes.length === 1) {
        // Alone: its failure rolls the whole transaction back, with no savepoint to pay for.
        const events: Delivery[] = [];
        outcomes.push({ ok: true, value: await writes[0].fn(trx, events), events });
        return;
      }
      for (const write of writes) {
        const events: Delivery[] = [];
        await sql`SAVEPOINT parley_write`.execute(trx);
        try {
          const value = await write.fn(trx, events);
          await sql`RELEASE SAVEPOINT parley_write`.execute(trx);
          outcomes.push({ ok: true, value, events });
        } catch (error) {
          await sql`ROLLBACK TO SAVEPOINT parley_write`.execute(trx);
          await sql`RELEASE SAVEPOINT parley_write`.execute(trx);
          outcomes.push({ ok: false, error });
        }
      }
    });
  } catch (error) {
    // Nothing was committed: every write of the batch fails with the reason.
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
