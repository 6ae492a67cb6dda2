import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  demo: boolean;
  demoPassword: string;
  /** where the built web client lives; served at / when present */
  clientDir: string;
  /** seconds a long-poll waits before answering with a heartbeat */
  longPollSeconds: number;
  /** seconds without a fetch before a queue is discarded */
  queueIdleSeconds: number;
  /** the password hash cost; tests lower it */
  scryptCost: number;
  rateLimitPerMinute: number;
  /** the address people use to reach this server (realm_uri); set from the listen address */
  externalUrl: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 9991),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.PARLEY_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    demo: (env.PARLEY_DEMO ?? '1') !== '0',
    demoPassword: env.PARLEY_DEMO_PASSWORD ?? 'parley-demo',
    clientDir: path.resolve(env.PARLEY_CLIENT_DIR ?? './dist'),
    longPollSeconds: Number(env.PARLEY_LONGPOLL_SECONDS ?? 50),
    queueIdleSeconds: Number(env.PARLEY_QUEUE_IDLE_SECONDS ?? 600),
    scryptCost: Number(env.PARLEY_SCRYPT_COST ?? 16384),
    rateLimitPerMinute: Number(env.PARLEY_RATE_LIMIT ?? 200),
    externalUrl:
      env.PARLEY_EXTERNAL_URL ?? `http://${env.HOST ?? '127.0.0.1'}:${Number(env.PORT ?? 9991)}`,
  };
}
