import net from 'node:net';
import path from 'node:path';
import * as z from 'zod/mini';
import { isAddressOrRange, splitList } from './addresses.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const FILE_STORES = ['disk', 'database'] as const;
export type FileStoreKind = (typeof FILE_STORES)[number];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** names Parley's keys and channels in Redis, so that several deployments can share one */
  redisPrefix: string;
  /**
   * PARLEY_FILE_STORE: where uploads, avatars and custom emoji are kept; unset, `fileStoreKind`
   * decides from the database
   */
  fileStore?: FileStoreKind;
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
  /** addresses or CIDRs that may read GET /metrics, besides loopback */
  metricsAllow: string[];
  /** private addresses outgoing-webhook bots may reach (PARLEY_WEBHOOK_ALLOW); public ones always */
  webhookAllow: string[];
  /** the address people use to reach this server (realm_uri); set from the listen address */
  externalUrl: string;
  /** whether PARLEY_EXTERNAL_URL named it (otherwise the listen address replaces it) */
  externalUrlConfigured: boolean;
  /** the log level in effect: LOG_LEVEL, else `warn` with PARLEY_QUIET=1, else `info` */
  logLevel: LogLevel;
  /** the mail server (PARLEY_SMTP_URL, smtp:// or smtps://); without one, mail stays queued */
  smtpUrl?: string;
  /** the sender of every mail (PARLEY_NOREPLY_EMAIL); noreply@ the external URL's host otherwise */
  noreplyEmail?: string;
  /**
   * PARLEY_MISSED_MESSAGE_DELAY: how long a message may stay unread before it is mailed, for
   * everyone, instead of each person's batching period (tests and trials shorten it)
   */
  missedMessageDelaySeconds?: number;
  /** how often the mail worker looks for mail to send; tests shorten it */
  mailPollMs: number;
  /** the wait after a first failed try, doubled after each next one (capped at an hour); tests shorten it */
  mailRetryMs: number;
  /**
   * PARLEY_WEB_PUBLIC_EVENTS: the `web_public_events` extension, a live stream of web-public
   * channels' events for visitors (GET /parley/web_public_events); off, it is not announced and
   * the route refuses
   */
  webPublicEvents: boolean;
  /** PARLEY_WEB_PUBLIC_EVENTS_MAX: visitors' streams open at once in this process, at most */
  webPublicEventsMax: number;
  /** how often a visitor's stream carries a heartbeat, so that proxies keep it open; tests shorten it */
  webPublicHeartbeatMs: number;
}

/** A configuration the server must not start with; its message is the one line to print. */
export class ConfigError extends Error {}

// Each variable is text in the environment; empty counts as unset (as `FOO=` in an env file).
// zod/mini rather than zod's chained API: the same checks at a twentieth of the code to load at
// every start (23 KB bundled instead of 583 KB, about 60 ms less).
const text = (fallback?: string) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v) => (v === undefined || v.trim() === '' ? fallback : v)),
  );

const optional = <O>(schema: z.ZodMiniType<O, string>) => z.pipe(text(), z.optional(schema));

const wholeNumber = (what: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .pipe(z.string().check(z.trim(), z.regex(/^\d{1,15}$/, `must be ${what}`)), z.transform(Number))
    .check(z.refine((n) => n >= min && n <= max, `must be ${what}`));

const FLAGS: Record<string, boolean> = { 1: true, true: true, yes: true, on: true };
for (const off of ['0', 'false', 'no', 'off']) FLAGS[off] = false;
const flag = (what: string) =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.toLowerCase(),
      z.refine((v) => v in FLAGS, `must be 1 ${what} or 0`),
    ),
    z.transform((v) => FLAGS[v]),
  );

const url = (protocols: string[], what: string) =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.refine(
        (v) => URL.canParse(v) && protocols.includes(new URL(v).protocol),
        `must be ${what}`,
      ),
    ),
    z.transform((v) => v.replace(/\/+$/, '')),
  );

const addressList = (what: string, named: boolean) =>
  z
    .pipe(z.string(), z.transform(splitList))
    .check(z.refine((list) => list.every((e) => isAddressOrRange(e, named)), `must be ${what}`));

const resolvedPath = z.pipe(
  z.string(),
  z.transform((p) => path.resolve(p)),
);

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Every environment variable the server reads, with its default. docs/configuration.md lists the
 * same ones (server/test/docs.test.ts holds the two together).
 */
const ENVIRONMENT = z.object({
  PORT: z.pipe(text('9991'), wholeNumber('a port number from 0 to 65535', 0, 65535)),
  HOST: z.pipe(
    text('127.0.0.1'),
    z.string().check(
      z.trim(),
      z.refine((h) => net.isIP(h) !== 0 || HOST_NAME.test(h), 'must be an IP address or host name'),
    ),
  ),
  PARLEY_DATA_DIR: z.pipe(text('./data'), resolvedPath),
  DATABASE_URL: optional(
    url(['postgres:', 'postgresql:'], 'a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL'),
  ),
  REDIS_URL: optional(url(['redis:', 'rediss:'], 'a redis:// or rediss:// URL')),
  PARLEY_REDIS_PREFIX: z.pipe(
    text('parley:'),
    z
      .string()
      .check(z.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - (at most 64)')),
  ),
  PARLEY_FILE_STORE: optional(
    z.pipe(
      z.string().check(z.trim(), z.toLowerCase()),
      z.enum(FILE_STORES, { error: `must be one of ${FILE_STORES.join(', ')}` }),
    ),
  ),
  PARLEY_DEMO: z.pipe(text('1'), flag('(seed the demo organization into an empty database)')),
  PARLEY_DEMO_PASSWORD: z.pipe(text('parley-demo'), z.string()),
  PARLEY_CLIENT_DIR: z.pipe(text('./dist'), resolvedPath),
  PARLEY_LONGPOLL_SECONDS: z.pipe(
    text('50'),
    wholeNumber('a whole number of seconds from 1 to 3600', 1, 3600),
  ),
  PARLEY_QUEUE_IDLE_SECONDS: z.pipe(
    text('600'),
    wholeNumber('a whole number of seconds, at least 1', 1),
  ),
  PARLEY_SCRYPT_COST: z.pipe(
    text('16384'),
    wholeNumber('a power of two from 1024 to 262144', 1024, 262144).check(
      z.refine((n) => (n & (n - 1)) === 0, 'must be a power of two from 1024 to 262144'),
    ),
  ),
  PARLEY_RATE_LIMIT: z.pipe(
    text('200'),
    wholeNumber('a whole number of requests per minute, at least 1', 1),
  ),
  PARLEY_LOGIN_ATTEMPTS: z.pipe(
    text('5'),
    wholeNumber('a whole number of failed password attempts, at least 1', 1),
  ),
  PARLEY_LOGIN_WINDOW_SECONDS: z.pipe(
    text('1800'),
    wholeNumber('a whole number of seconds, at least 1', 1),
  ),
  PARLEY_TRUSTED_PROXIES: z.pipe(
    text(''),
    addressList(
      'a comma-separated list of addresses or CIDRs (or loopback, linklocal, uniquelocal)',
      true,
    ),
  ),
  PARLEY_METRICS_ALLOW: z.pipe(
    text(''),
    addressList('a comma-separated list of addresses or CIDRs', false),
  ),
  PARLEY_WEBHOOK_ALLOW: z.pipe(
    text(''),
    addressList(
      'a comma-separated list of addresses or CIDRs (or loopback, linklocal, uniquelocal)',
      true,
    ),
  ),
  PARLEY_EXTERNAL_URL: optional(
    url(['http:', 'https:'], 'the http:// or https:// address people reach the server at'),
  ),
  LOG_LEVEL: optional(
    z.pipe(
      z.string().check(z.trim(), z.toLowerCase()),
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
    ),
  ),
  PARLEY_QUIET: z.pipe(text('0'), flag('(log warnings and errors only)')),
  PARLEY_SMTP_URL: optional(
    url(['smtp:', 'smtps:'], 'an smtp://USER:PASSWORD@HOST:PORT or smtps:// URL'),
  ),
  PARLEY_MISSED_MESSAGE_DELAY: optional(
    z.pipe(z.string(), wholeNumber('a whole number of seconds, at least 1', 1)),
  ),
  PARLEY_WEB_PUBLIC_EVENTS: z.pipe(
    text('1'),
    flag('(stream web-public channels to visitors live)'),
  ),
  PARLEY_WEB_PUBLIC_EVENTS_MAX: z.pipe(
    text('10000'),
    wholeNumber('a whole number of connections, at least 1', 1),
  ),
  PARLEY_NOREPLY_EMAIL: optional(
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^[^\s@<>",]+@[^\s@<>",]+$/, 'must be an email address (noreply@example.com)'),
      ),
  ),
});

/** Variables whose value is never repeated in an error: they may hold a password. */
const SECRET = new Set(['DATABASE_URL', 'REDIS_URL', 'PARLEY_DEMO_PASSWORD', 'PARLEY_SMTP_URL']);

/**
 * The configuration from the environment, checked against ENVIRONMENT. A value that does not fit
 * throws a ConfigError naming every variable at fault on one line: a mistyped limit must not
 * quietly become no limit (NaN compares false).
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ENVIRONMENT.safeParse(env);
  if (!parsed.success) {
    const faults = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (faults.has(name)) continue;
      const raw = env[name];
      faults.set(
        name,
        SECRET.has(name) || raw === undefined
          ? `${name} ${issue.message}`
          : `${name} ${issue.message}, not ${JSON.stringify(raw)}`,
      );
    }
    throw new ConfigError(`Invalid configuration: ${[...faults.values()].join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.PARLEY_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.PARLEY_REDIS_PREFIX,
    fileStore: e.PARLEY_FILE_STORE,
    demo: e.PARLEY_DEMO,
    demoPassword: e.PARLEY_DEMO_PASSWORD,
    clientDir: e.PARLEY_CLIENT_DIR,
    longPollSeconds: e.PARLEY_LONGPOLL_SECONDS,
    queueIdleSeconds: e.PARLEY_QUEUE_IDLE_SECONDS,
    scryptCost: e.PARLEY_SCRYPT_COST,
    rateLimitPerMinute: e.PARLEY_RATE_LIMIT,
    loginAttempts: e.PARLEY_LOGIN_ATTEMPTS,
    loginWindowSeconds: e.PARLEY_LOGIN_WINDOW_SECONDS,
    trustedProxies: e.PARLEY_TRUSTED_PROXIES,
    metricsAllow: e.PARLEY_METRICS_ALLOW,
    webhookAllow: e.PARLEY_WEBHOOK_ALLOW,
    externalUrl: e.PARLEY_EXTERNAL_URL ?? httpUrl(e.HOST, e.PORT),
    externalUrlConfigured: e.PARLEY_EXTERNAL_URL !== undefined,
    logLevel: e.LOG_LEVEL ?? (e.PARLEY_QUIET ? 'warn' : 'info'),
    smtpUrl: e.PARLEY_SMTP_URL,
    noreplyEmail: e.PARLEY_NOREPLY_EMAIL?.trim(),
    mailPollMs: 5000,
    mailRetryMs: 30_000,
    missedMessageDelaySeconds: e.PARLEY_MISSED_MESSAGE_DELAY,
    webPublicEvents: e.PARLEY_WEB_PUBLIC_EVENTS,
    webPublicEventsMax: e.PARLEY_WEB_PUBLIC_EVENTS_MAX,
    webPublicHeartbeatMs: 25_000,
  };
}

/**
 * Where files are kept: as PARLEY_FILE_STORE says, else in the database on PostgreSQL (where
 * several processes, each with a data directory of its own, must all serve every file) and in
 * the data directory on SQLite (one process, and its directory is already the whole state).
 */
export function fileStoreKind(config: Pick<Config, 'fileStore' | 'databaseUrl'>): FileStoreKind {
  return config.fileStore ?? (config.databaseUrl ? 'database' : 'disk');
}

/** The http:// address of a host and port, an IPv6 address in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${net.isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
