import Fastify, { type FastifyInstance } from 'fastify';
import { parleyApp, serverOptions } from './app.js';
import { httpUrl, type Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { seedDemo } from './demo/seed.js';
import { fallbackLogger, type Logger } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { Readiness } from './readiness.js';
import { Mutex } from './events/lock.js';
import { QueueManager } from './events/manager.js';
import { MemoryBus, type Bus } from './events/types.js';
import { RedisBus } from './events/redis-bus.js';
import { startScheduler } from './actions/scheduler.js';
import { startOutgoingWebhooks } from './actions/outgoing-webhooks.js';
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

export interface StartOptions {
  /** where the server and Fastify log; without one, Fastify logs nothing (see app.ts) */
  logger?: Logger;
  /** seed the demo organization into an empty database, its people with this password */
  demoPassword?: string;
}

/**
 * Opens (and migrates) the database, builds the app, listens and, when asked, seeds the demo
 * organization in one transaction; resolves once the server is ready. While the seed runs, only
 * GET /health, /ready and /metrics are served, every other request gets 503 (http/operations.ts).
 * Used by main.ts and by the tests.
 */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const metrics = new ServerMetrics();
  const readiness = new Readiness(opts.demoPassword === undefined ? 'off' : 'running');
  const handle: DatabaseHandle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onQuery: metrics.observeQuery,
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
    log: opts.logger ?? fallbackLogger(),
    loginAttempts,
    toDisk: handle.toDisk,
    metrics,
    readiness,
  };
  metrics.watchQueues(queues);
  const app = Fastify(serverOptions(config, opts.logger));
  await app.register(parleyApp, { ctx, logger: opts.logger });
  app.addHook('onClose', startScheduler(ctx));
  app.addHook('onClose', startOutgoingWebhooks(ctx));
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
  const url = httpUrl(config.host, port);
  if (config.port === 0 || !config.externalUrlConfigured) config.externalUrl = url;
  let closed = false;
  const server: RunningServer = {
    app,
    ctx,
    url,
    async close() {
      if (closed) return;
      closed = true;
      readiness.stopping = true;
      queues.close();
      await app.close();
      await bus.close();
      await loginAttempts.close();
      await handle.close();
    },
  };
  if (opts.demoPassword !== undefined) await seed(server, opts.demoPassword);
  return server;
}

/** Seeds the demo organization, then serves; a seed that fails stops the server. */
async function seed(server: RunningServer, password: string) {
  const { ctx } = server;
  const readiness = ctx.readiness!;
  const started = performance.now();
  try {
    const seeded = await seedDemo(ctx, password);
    readiness.seed = seeded ? 'seeded' : 'present';
    if (seeded)
      ctx.log.info(
        { ms: Math.round(performance.now() - started) },
        'Seeded the demo organization "Parley Demo"',
      );
  } catch (err) {
    readiness.seed = 'failed';
    await server.close();
    throw err;
  }
}
