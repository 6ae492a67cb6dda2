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
  /** failed password attempts an account may have within `loginWindowSeconds` before it is locked */
  loginAttempts: number;
  loginWindowSeconds: number;
  /**
   * proxies (addresses or CIDRs) whose X-Forwarded-For is believed; none by default, as anyone can
   * send that header and per-address limits would count whatever they wrote
   */
  trustedProxies: string[];
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
    loginAttempts: positiveInteger('PARLEY_LOGIN_ATTEMPTS', env.PARLEY_LOGIN_ATTEMPTS, 5),
    loginWindowSeconds: positiveInteger(
      'PARLEY_LOGIN_WINDOW_SECONDS',
      env.PARLEY_LOGIN_WINDOW_SECONDS,
      1800,
    ),
    trustedProxies: (env.PARLEY_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    externalUrl:
      env.PARLEY_EXTERNAL_URL ?? `http://${env.HOST ?? '127.0.0.1'}:${Number(env.PORT ?? 9991)}`,
  };
}

/** A mistyped security limit must not quietly become no limit (NaN compares false): refuse to start. */
function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return n;
}
