import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import type { Dialect } from './db/migrations.js';
import type { LoginAttempts } from './domain/login-attempts.js';
import { Mutex } from './events/lock.js';
import type { QueueManager } from './events/manager.js';
import type { Delivery } from './events/types.js';

/** Everything an action needs; no HTTP in it. */
export interface AppContext {
  db: Database;
  dialect: Dialect;
  config: Config;
  queues: QueueManager;
  lock: Mutex;
  log: FastifyBaseLogger | Console;
  /** failed password attempts per account, shared by every process when there are several */
  loginAttempts: LoginAttempts;
}

/**
 * Runs `fn` in one database transaction and publishes the events it collected only after the
 * commit, under the write lock that register snapshots also take.
 */
export async function transact<T>(
  ctx: AppContext,
  fn: (trx: Database, events: Delivery[]) => Promise<T>,
): Promise<T> {
  return ctx.lock.run(async () => {
    const events: Delivery[] = [];
    const result = await ctx.db.transaction().execute((trx) => fn(trx, events));
    if (events.length) await ctx.queues.bus.publish(events);
    return result;
  });
}
