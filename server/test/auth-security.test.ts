import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../config.js';
import type { LoginAttempts } from '../domain/login-attempts.js';
import { resetRateLimits } from '../http/rate-limit.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient, type ApiResult } from './client.js';

/**
 * The security findings about logging in, as the attacker did them: password guessing against
 * one account from ever-changing X-Forwarded-For addresses, telling accounts apart by how long a
 * refusal takes, and the page's missing Content-Security-Policy. Sign-up findings are in
 * auth-security-signup.test.ts. Limits are counted in process memory (or Redis), so one database
 * is enough.
 */

/** Every scrypt run the server makes, by cost: how we see that a refusal did the hashing work. */
const hashes = vi.hoisted(() => ({ costs: [] as number[] }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: any[]) => {
    hashes.costs.push(args[3]?.N);
    return (real.scrypt as any)(...args);
  }) as typeof real.scrypt;
  return { ...real, scrypt, default: { ...real, scrypt } };
});

async function login(
  server: TestServer,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<ApiResult> {
  const res = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Moves the server's clock forward (the limits read Date.now). */
let shift = 0;
function advance(seconds: number) {
  if (shift === 0) {
    const real = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => real() + shift);
  }
  shift += seconds * 1000;
}

function expectLocked(r: ApiResult, windowSeconds = 1800) {
  expect(r.status).toBe(429);
  expect(r.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
  expect(typeof r.body.msg).toBe('string');
  expect(r.body.api_key).toBeUndefined();
  expect(r.body['retry-after']).toBeGreaterThan(0);
  expect(r.body['retry-after']).toBeLessThanOrEqual(windowSeconds);
  expect(Number(r.headers.get('retry-after'))).toBe(Math.ceil(r.body['retry-after']));
}

describe('password guessing is bounded per account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite' });
  });
  afterAll(() => server?.close());
  afterAll(() => vi.restoreAllMocks());

  it('(finding 4) 25 wrong passwords, each from a different X-Forwarded-For: 429 from the sixth, and the right password is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const r = await login(server, 'cordelia@example.com', `guess ${i}`, {
        'X-Forwarded-For': `203.0.113.${i + 1}`,
      });
      statuses.push(r.status);
      if (i >= 5) expectLocked(r);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const right = await login(server, 'cordelia@example.com', DEMO_PASSWORD, {
      'X-Forwarded-For': '198.51.100.7',
    });
    expectLocked(right);
    // Spelling the address differently is the same account.
    expectLocked(await login(server, '  Cordelia@EXAMPLE.com ', DEMO_PASSWORD));
    // Other accounts are untouched, and the lock lifts when the window has passed.
    expect((await login(server, 'hamlet@example.com', DEMO_PASSWORD)).status).toBe(200);
    advance(1801);
    const later = await login(server, 'cordelia@example.com', DEMO_PASSWORD);
    expect(later.status).toBe(200);
    expect(typeof later.body.api_key).toBe('string');
  });

  it('lets the right password in after fewer than five failures; the success does not wipe them', async () => {
    for (let i = 0; i < 4; i++)
      expect((await login(server, 'othello@example.com', `typo ${i}`)).status).toBe(401);
    expect((await login(server, 'othello@example.com', DEMO_PASSWORD)).status).toBe(200);
    expect((await login(server, 'othello@example.com', DEMO_PASSWORD)).status).toBe(200);
    // Successes are not counted, failures are: the fifth failure in the window locks the account.
    expect((await login(server, 'othello@example.com', 'typo 5')).status).toBe(401);
    expectLocked(await login(server, 'othello@example.com', DEMO_PASSWORD));
    advance(1801);
    expect((await login(server, 'othello@example.com', DEMO_PASSWORD)).status).toBe(200);
  });

  it('locks an address without an account the same way, so the limit tells nothing either', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login(server, 'nobody@example.com', `guess ${i}`)).status).toBe(401);
    expectLocked(await login(server, 'nobody@example.com', 'guess 5'));
  });

  it('counts wrong old passwords in PATCH /settings against the same account', async () => {
    const shiva = await TestClient.login(server.url, 'shiva@example.com', DEMO_PASSWORD);
    for (let i = 0; i < 5; i++) {
      const r = await shiva.patch('/settings', {
        old_password: `guess ${i}`,
        new_password: 'taken-over',
      });
      expect(r.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Wrong password!' });
    }
    expectLocked(
      await shiva.patch('/settings', { old_password: DEMO_PASSWORD, new_password: 'taken-over' }),
    );
    expectLocked(await login(server, 'shiva@example.com', DEMO_PASSWORD));
    advance(1801);
    expect(
      (
        await shiva.patch('/settings', {
          old_password: DEMO_PASSWORD,
          new_password: 'changed-by-shiva',
        })
      ).status,
    ).toBe(200);
    expect((await login(server, 'shiva@example.com', 'changed-by-shiva')).status).toBe(200);
  });

  it('(finding 5) an unknown address costs the same scrypt work as a known one with a wrong password', async () => {
    hashes.costs.length = 0;
    const unknown = await login(server, 'not-a-member@example.com', 'whatever');
    const unknownHashes = hashes.costs.splice(0);
    const known = await login(server, 'polonius@example.com', 'whatever');
    const knownHashes = hashes.costs.splice(0);
    expect(knownHashes).toEqual([server.ctx.config.scryptCost]);
    expect(unknownHashes).toEqual(knownHashes);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    // An account with no password at all (a bot) is no shortcut either.
    expect((await login(server, 'hamlet-bot@parley.bots', 'whatever')).status).toBe(401);
    expect(hashes.costs.splice(0)).toEqual(knownHashes);
  });

  it('takes the limit from the configuration', async () => {
    const strict = await startTestServer({
      db: 'sqlite',
      config: { loginAttempts: 2, loginWindowSeconds: 60 },
    });
    try {
      for (let i = 0; i < 2; i++)
        expect((await login(strict, 'hamlet@example.com', 'nope')).status).toBe(401);
      expectLocked(await login(strict, 'hamlet@example.com', DEMO_PASSWORD), 60);
    } finally {
      await strict.close();
    }
    const config = configFromEnv({
      PARLEY_LOGIN_ATTEMPTS: '3',
      PARLEY_LOGIN_WINDOW_SECONDS: '600',
      PARLEY_TRUSTED_PROXIES: ' 10.0.0.1, 192.168.0.0/16 ,',
    });
    expect(config).toMatchObject({
      loginAttempts: 3,
      loginWindowSeconds: 600,
      trustedProxies: ['10.0.0.1', '192.168.0.0/16'],
    });
    expect(configFromEnv({})).toMatchObject({
      loginAttempts: 5,
      loginWindowSeconds: 1800,
      trustedProxies: [],
    });
  });
});

describe('X-Forwarded-For', () => {
  let servers: TestServer[] = [];
  // The per-address windows are process-wide, shared with the servers of the tests above.
  beforeEach(() => resetRateLimits());
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  const serverWith = async (config: Record<string, unknown>) => {
    const s = await startTestServer({
      db: 'sqlite',
      demo: true,
      config: { rateLimitPerMinute: 3, ...config },
    });
    servers.push(s);
    return s;
  };
  const settings = (s: TestServer, forwardedFor: string) =>
    fetch(`${s.url}/api/v1/server_settings`, { headers: { 'X-Forwarded-For': forwardedFor } }).then(
      (r) => r.status,
    );

  it('is ignored by default, so a made-up header does not buy a new per-address budget', async () => {
    const s = await serverWith({});
    expect([
      await settings(s, '198.51.100.1'),
      await settings(s, '198.51.100.2'),
      await settings(s, '198.51.100.3'),
    ]).toEqual([200, 200, 200]);
    expect(await settings(s, '198.51.100.4')).toBe(429);
  });

  it('is honoured when it comes from a proxy named in PARLEY_TRUSTED_PROXIES', async () => {
    const s = await serverWith({ trustedProxies: ['127.0.0.1/8', '::1'] });
    for (let i = 0; i < 3; i++) expect(await settings(s, '198.51.100.1')).toBe(200);
    expect(await settings(s, '198.51.100.1')).toBe(429);
    expect(await settings(s, '198.51.100.2')).toBe(200);
  });
});

/** The stores on their own: the window slides, successes are taken back, and Redis shares the count. */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect(Number(port || 6379), hostname);
  socket.once('connect', () => (socket.end(), resolve(true)));
  socket.once('error', () => resolve(false));
});

describe('login attempt stores', () => {
  async function exercise(a: LoginAttempts, b: LoginAttempts, username: string) {
    const realmId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    (await a.begin(realmId, username)).succeeded();
    for (let i = 0; i < 3; i++) await (i % 2 ? b : a).begin(realmId, username);
    const refusal = await b.begin(realmId, ` ${username.toUpperCase()}`).then(
      () => null,
      (err) => err,
    );
    expect(refusal).toMatchObject({ code: 'RATE_LIMIT_HIT', httpStatus: 429 });
    expect(refusal.extra['retry-after']).toBeGreaterThan(50);
    expect(refusal.extra['retry-after']).toBeLessThanOrEqual(60);
    await expect(a.begin(realmId + 1, username)).resolves.toBeDefined();
  }

  // Imported here so that the findings above still run (and fail) on a tree without the stores.
  const stores = () => import('../domain/login-attempts.js');

  it('in memory', async () => {
    const store = new (await stores()).MemoryLoginAttempts(3, 60);
    await exercise(store, store, 'someone@example.com');
  });

  it.skipIf(!redisUp)('in Redis, shared by every server process', async () => {
    const { RedisLoginAttempts } = await stores();
    const a = await RedisLoginAttempts.connect(redisUrl, 3, 60);
    const b = await RedisLoginAttempts.connect(redisUrl, 3, 60);
    try {
      await exercise(a, b, `someone-${process.pid}-${Date.now()}@example.com`);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('request rate limit stores', () => {
  const limits = () => import('../http/rate-limit.js');

  it('in memory: a fixed window per key', async () => {
    const store = new (await limits()).MemoryRateLimits();
    const key = `test:${Math.random()}`;
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push((await store.hit(key)).count);
    expect(counts).toEqual([1, 2, 3, 4]);
    expect((await store.hit(`${key}:other`)).count).toBe(1);
  });

  it.skipIf(!redisUp)(
    'in Redis: processes share the count, and an outage falls back to counting here',
    async () => {
      const { RedisRateLimits } = await limits();
      const a = await RedisRateLimits.connect(redisUrl);
      const b = await RedisRateLimits.connect(redisUrl);
      const key = `test:${process.pid}:${Date.now()}`;
      try {
        // Three processes' worth of requests against a limit of four: the fifth is over it,
        // wherever it lands.
        const counts = [];
        for (let i = 0; i < 5; i++) counts.push((await (i % 2 ? b : a).hit(key, 4)).count);
        expect(counts).toEqual([1, 2, 3, 4, 5]);
        const { resetAt } = await a.hit(key, 4);
        expect(resetAt - Date.now()).toBeGreaterThan(50_000);
        expect(resetAt - Date.now()).toBeLessThanOrEqual(60_000);

        // Redis gone: requests are still counted (in this process), never failed.
        (a as unknown as { redis: { disconnect(): void } }).redis.disconnect();
        const during = [];
        for (let i = 0; i < 3; i++) during.push((await a.hit(`${key}:outage`, 2)).count);
        expect(during).toEqual([1, 2, 3]);
      } finally {
        await a.close();
        await b.close();
      }
    },
  );
});

describe('Content-Security-Policy', () => {
  it('comes with the app page, strict on scripts, frames and plugins', async () => {
    const server = await startTestServer({ db: 'sqlite', demo: false });
    try {
      for (const path of ['/', '/narrow/channel/1-general']) {
        const res = await fetch(`${server.url}${path}`);
        const csp = res.headers.get('content-security-policy') ?? '';
        const directives = Object.fromEntries(
          csp
            .split(';')
            .map((d) => d.trim().split(/\s+/))
            .map(([k, ...v]) => [k, v]),
        );
        expect(directives['default-src']).toEqual(["'self'"]);
        expect(directives['script-src']).toEqual(["'self'"]);
        expect(directives['object-src']).toEqual(["'none'"]);
        expect(directives['base-uri']).toEqual(["'none'"]);
        expect(directives['frame-ancestors']).toEqual(["'none'"]);
        expect(directives['connect-src']).toEqual(["'self'"]);
        expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:']);
        expect(csp).not.toMatch(/unsafe-eval/);
      }
    } finally {
      await server.close();
    }
  });
});
