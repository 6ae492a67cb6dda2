import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { Mutex } from './events/lock.js';
import { QueueManager } from './events/manager.js';
import { MemoryBus, type Bus } from './events/types.js';
import { RedisBus } from './events/redis-bus.js';
import { startScheduler } from './actions/scheduler.js';
import {
  MemoryLoginAttempts,
  RedisLoginAttempts,
  type LoginAttempts,
} from './domain/login-attempts.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  close(): Promise<void>;
}

/** Opens the database, builds the app and listens. Used by main.ts and by the tests. */
export async function startServer(
  config: Config,
  opts: { logger?: boolean; beforeListen?: (ctx: AppContext) => Promise<void> } = {},
): Promise<RunningServer> {
  const handle: DatabaseHandle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const bus: Bus = config.redisUrl ? await RedisBus.connect(config.redisUrl) : new MemoryBus();
  const queues = new QueueManager(bus, config.queueIdleSeconds * 1000);
  const loginAttempts: LoginAttempts = config.redisUrl
    ? await RedisLoginAttempts.connect(
        config.redisUrl,
        config.loginAttempts,
        config.loginWindowSeconds,
      )
    : new MemoryLoginAttempts(config.loginAttempts, config.loginWindowSeconds);
  const ctx: AppContext = {
    db: handle.db,
    dialect: handle.dialect,
    config,
    queues,
    lock: new Mutex(),
    log: console,
    loginAttempts,
    toDisk: handle.toDisk,
  };
  const app = await buildApp(ctx, { logger: opts.logger });
  app.addHook('onClose', startScheduler(ctx));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    queues.close();
    await bus.close();
    await loginAttempts.close();
    await handle.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  if (config.port === 0 || !process.env.PARLEY_EXTERNAL_URL) config.externalUrl = url;
  if (opts.beforeListen) await opts.beforeListen(ctx);
  let closed = false;
  return {
    app,
    ctx,
    url,
    async close() {
      if (closed) return;
      closed = true;
      queues.close();
      await app.close();
      await bus.close();
      await loginAttempts.close();
      await handle.close();
    },
  };
}
