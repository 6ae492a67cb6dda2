import Fastify, { type FastifyInstance } from 'fastify';
import { parleyApp, serverOptions } from './app.js';
import { fileStoreKind, httpUrl, type Config } from './config.js';
import { writesPublished, type AppContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { DatabaseFileStore, moveIntoDatabase, openFileStore } from './db/file-store.js';
import { openServerKeys } from './db/server-keys.js';
import { seedDemo } from './demo/seed.js';
import { fallbackLogger, type Logger } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { Readiness } from './readiness.js';
import { Mutex } from './events/lock.js';
import { localQueues, QueueManager } from './events/manager.js';
import type { EventQueues } from './events/event-queues.js';
import { RedisQueues } from './events/redis-queues.js';
import { compileQueueNarrow } from './register/register.js';
import { MemoryBus, type ApiEvent, type Bus } from './events/types.js';
import { MemoryRateLimits, RedisRateLimits, type RateLimits } from './http/rate-limit-stores.js';
import { RedisBus } from './events/redis-bus.js';
import { VisitorStreams } from './events/visitor-streams.js';
import { WebPublicEvents } from './lib/web-public-events.js';
import { queuesSurviveRestarts, saveQueues, takeSavedQueues } from './events/persist.js';
import { FEATURE_LEVEL, SERVICE_VERSION } from './domain/version.js';
import { startScheduler } from './actions/scheduler.js';
import { startOutgoingWebhooks } from './actions/outgoing-webhooks.js';
import { startMailWorker } from './actions/mail-worker.js';
import { startMissedMessageMail } from './actions/missed-messages.js';
import { startDigests } from './actions/digest.js';
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
 * What limits requests (password attempts, the per-minute rate): counted in Redis where it is
 * configured, so that every process counts the same, and in this process otherwise.
 */
async function openLimits(config: Config): Promise<{
  loginAttempts: LoginAttempts;
  rateLimits: RateLimits;
}> {
  if (!config.redisUrl)
    return {
      loginAttempts: new MemoryLoginAttempts(config.loginAttempts, config.loginWindowSeconds),
      rateLimits: new MemoryRateLimits(),
    };
  return {
    loginAttempts: await RedisLoginAttempts.connect(
      config.redisUrl,
      config.loginAttempts,
      config.loginWindowSeconds,
      config.redisPrefix,
    ),
    rateLimits: await RedisRateLimits.connect(config.redisUrl, config.redisPrefix),
  };
}

/**
 * Opens (and migrates) the database, builds the app, listens and, when asked, seeds the demo
 * organization in one transaction; resolves once the server is ready. While the seed runs, only
 * GET /health, /ready and /metrics are served, every other request gets 503 (http/operations.ts).
 * Used by main.ts and by the tests.
 */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  /** when this server started, in seconds: the `server_generation` of its `restart` events */
  const serverGeneration = Math.floor(Date.now() / 1000);
  const log = opts.logger ?? fallbackLogger();
  const metrics = new ServerMetrics();
  const readiness = new Readiness(opts.demoPassword === undefined ? 'off' : 'running');
  const handle: DatabaseHandle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onQuery: metrics.observeQuery,
  });
  const { files, keys } = await openStorage(config, handle, log);
  const bus: Bus = config.redisUrl
    ? await RedisBus.connect(config.redisUrl, config.redisPrefix)
    : new MemoryBus();
  // A queue registered through another process may have a narrow, compiled here from the
  // database once the context exists.
  let narrowContext: AppContext | null = null;
  const queues = await openEventQueues(config, bus, log, serverGeneration, () => narrowContext!);
  const { loginAttempts, rateLimits } = await openLimits(config);
  const visitors = openVisitorStreams(config, bus, handle);
  const ctx: AppContext = {
    db: handle.db,
    dialect: handle.dialect,
    config,
    files,
    keys,
    queues,
    visitors,
    lock: new Mutex(),
    log,
    loginAttempts,
    rateLimits,
    toDisk: handle.toDisk,
    metrics,
    readiness,
  };
  narrowContext = ctx;
  metrics.watchQueues(queues);
  if (visitors) metrics.watchVisitors(visitors);
  const app = Fastify(serverOptions(config, opts.logger));
  await app.register(parleyApp, { ctx, logger: opts.logger });
  app.addHook('onClose', startScheduler(ctx));
  app.addHook('onClose', startOutgoingWebhooks(ctx));
  app.addHook('onClose', startMailWorker(ctx));
  app.addHook('onClose', startMissedMessageMail(ctx));
  app.addHook('onClose', startDigests(ctx));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    visitors?.close();
    queues.close();
    await bus.close();
    await loginAttempts.close();
    await rateLimits.close();
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
      await closeServer(app, ctx, async () => {
        queues.close();
        await bus.close();
        await loginAttempts.close();
        await rateLimits.close();
        await handle.close();
      });
    },
  };
  if (opts.demoPassword !== undefined) await seed(server, opts.demoPassword);
  return server;
}

/**
 * Where files and the installation's keys are kept. Files that the data directory kept before
 * the database store was chosen move into the database first, so that every process serves them.
 */
async function openStorage(config: Config, handle: DatabaseHandle, log: Logger) {
  const files = openFileStore(fileStoreKind(config), config.dataDir, handle);
  if (files instanceof DatabaseFileStore) {
    const moved = await moveIntoDatabase(files, config.dataDir);
    if (moved)
      log.info({ moved }, `Moved ${moved} files from the data directory into the database`);
  }
  return { files, keys: await openServerKeys(handle, config.dataDir) };
}

/** Visitors' live streams of web-public channels, unless the configuration turns them off. */
function openVisitorStreams(config: Config, bus: Bus, handle: DatabaseHandle) {
  if (!config.webPublicEvents) return undefined;
  return new VisitorStreams(bus, new WebPublicEvents(handle.db), {
    maxConnections: config.webPublicEventsMax,
    heartbeatMs: config.webPublicHeartbeatMs,
  });
}

/**
 * The event queues: in Redis where it is configured, so that every process serves every queue;
 * else in this process's memory (openQueues).
 */
async function openEventQueues(
  config: Config,
  bus: Bus,
  log: Logger,
  serverGeneration: number,
  context: () => AppContext,
): Promise<EventQueues> {
  if (!config.redisUrl) return openQueues(config, bus, log, serverGeneration);
  return RedisQueues.connect(config.redisUrl, bus, {
    idleMs: config.queueIdleSeconds * 1000,
    keyPrefix: config.redisPrefix,
    log,
    compileNarrow: (realmId, userId, raw) => compileQueueNarrow(context(), realmId, userId, raw),
  });
}

/**
 * The event queues, with those the previous process saved when it stopped gracefully, if this
 * process is the only one (events/persist.ts).
 */
function openQueues(config: Config, bus: Bus, log: Logger, serverGeneration: number) {
  const keep = queuesSurviveRestarts(config);
  // Taken (and deleted) in any case, so that queues saved once are never restored later.
  const saved = takeSavedQueues(config.dataDir, log);
  const queues = new QueueManager(
    bus,
    config.queueIdleSeconds * 1000,
    keep ? saved?.processTag : undefined,
  );
  if (saved && keep) {
    const restored = queues.restore(saved.queues, restartEvent(serverGeneration));
    log.info(
      { restored, saved: saved.queues.length },
      `Restored ${restored} event queues saved by the previous process`,
    );
  }
  return queues;
}

/**
 * Stops serving, then `release`s the rest. A single process keeps its queues for the next start:
 * parked long-polls are answered (their clients poll the same queue again after the restart), so
 * that closing waits for none, and the queues are saved once nothing can change them any more.
 */
async function closeServer(app: FastifyInstance, ctx: AppContext, release: () => Promise<void>) {
  const { config, queues } = ctx;
  // Visitors' streams never end by themselves: they go first, and reconnect elsewhere.
  ctx.visitors?.close();
  if (!queuesSurviveRestarts(config)) {
    queues.close();
    await app.close();
    return release();
  }
  queues.stopWaiting();
  await app.close();
  // Under the write lock: every committed write's events are in the queues saved, and a write
  // still waiting finds the database closed and is refused, so that no client misses an event
  // of a write that was stored.
  await ctx.lock.run(async () => {
    await writesPublished(ctx);
    saveQueues(config.dataDir, queues.processTag, localQueues(ctx).saved(), ctx.log);
    await release();
  });
}

/** What a restored queue gets after the events it held: the reference server's `restart`. */
function restartEvent(serverGeneration: number): ApiEvent {
  return {
    type: 'restart',
    zulip_version: SERVICE_VERSION,
    zulip_merge_base: SERVICE_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    server_generation: serverGeneration,
    // Until feature level 240: whether a web client in development reloads at once.
    immediate: false,
  };
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
