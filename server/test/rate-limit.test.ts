import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient, type ApiResult } from './client.js';

/**
 * Rate limits as clients see them: the X-RateLimit-* headers on every answer, HTTP 429 with
 * RATE_LIMIT_HIT, `retry-after` in the body and a Retry-After header once a budget is spent, a
 * budget per user (and per address for anonymous requests), and a much smaller budget of failed
 * password attempts per account. The limits are counted in process memory, so one database is enough.
 */

const LIMIT = 30;

function rateHeaders(r: ApiResult) {
  return {
    limit: Number(r.headers.get('x-ratelimit-limit')),
    remaining: Number(r.headers.get('x-ratelimit-remaining')),
    reset: Number(r.headers.get('x-ratelimit-reset')),
  };
}

describe('rate limits', () => {
  let server: TestServer;
  let hamlet: TestClient;
  let othello: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite', config: { rateLimitPerMinute: LIMIT } });
  });
  afterAll(() => server?.close());
  afterAll(() => vi.restoreAllMocks());

  /** Moves the server's clock past the current one-minute window. */
  let shift = 0;
  function nextMinute() {
    if (shift === 0) {
      const real = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => real() + shift);
    }
    shift += 61_000;
  }

  it('counts down X-RateLimit-Remaining per user and answers 429 RATE_LIMIT_HIT with retry-after when spent', async () => {
    nextMinute();
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    const before = Math.floor(Date.now() / 1000);
    const seen: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const r = await hamlet.get('/users/me');
      expect(r.status).toBe(200);
      // Bounded by the clock at this answer, not at the start: on a loaded machine the loop
      // can take seconds, and the window's end is measured from the requests in it.
      const now = Math.ceil(Date.now() / 1000);
      const h = rateHeaders(r);
      expect(h.limit).toBe(LIMIT);
      expect(h.reset).toBeGreaterThanOrEqual(before);
      expect(h.reset).toBeLessThanOrEqual(now + 61);
      seen.push(h.remaining);
    }
    expect(seen).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));

    const refused = await hamlet.get('/users/me');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
    expect(typeof refused.body.msg).toBe('string');
    const retryAfter = refused.body['retry-after'];
    expect(typeof retryAfter).toBe('number');
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const header = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(header)).toBe(true);
    expect(header).toBeGreaterThanOrEqual(Math.floor(retryAfter));
    expect(header).toBeLessThanOrEqual(Math.ceil(retryAfter));
    expect(rateHeaders(refused)).toMatchObject({ limit: LIMIT, remaining: 0 });

    // A write is refused too, and nothing is written.
    const send = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'rate',
      content: 'too many',
    });
    expect(send.status).toBe(429);

    // Another user's budget is their own.
    const other = await othello.get('/users/me');
    expect(other.status).toBe(200);
    expect(rateHeaders(other).remaining).toBe(LIMIT - 1);
  });

  it('gives the budget back when the window has passed', async () => {
    nextMinute();
    const r = await hamlet.get('/users/me');
    expect(r.status).toBe(200);
    expect(rateHeaders(r).remaining).toBe(LIMIT - 1);
    const messages = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'topic', operand: 'rate' }],
    });
    expect(messages.status).toBe(200);
    expect(messages.body.messages).toEqual([]); // the refused send was not stored
  });

  it('allows five failed password attempts per account in 30 minutes, whatever the address, then refuses even the right one', async () => {
    nextMinute();
    const anon = new TestClient(server.url);
    for (let i = 0; i < 5; i++) {
      const r = await anon.post('/fetch_api_key', {
        username: 'cordelia@example.com',
        password: `guess ${i}`,
      });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('AUTHENTICATION_FAILED');
    }
    const right = await anon.post('/fetch_api_key', {
      username: 'Cordelia@Example.com',
      password: DEMO_PASSWORD,
    });
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT' });
    expect(right.body.api_key).toBeUndefined();
    expect(right.body['retry-after']).toBeGreaterThan(60);
    expect(right.body['retry-after']).toBeLessThanOrEqual(1800);
    expect(Number(right.headers.get('retry-after'))).toBe(Math.ceil(right.body['retry-after']));

    // Another account from the same address still logs in; the guessed one once the failures are 30 minutes old.
    const other = await anon.post('/fetch_api_key', {
      username: 'hamlet@example.com',
      password: DEMO_PASSWORD,
    });
    expect(other.status).toBe(200);
    for (let i = 0; i < 30; i++) nextMinute();
    const later = await anon.post('/fetch_api_key', {
      username: 'cordelia@example.com',
      password: DEMO_PASSWORD,
    });
    expect(later.status).toBe(200);
    expect(typeof later.body.api_key).toBe('string');
  });

  it('gives anonymous requests a budget per address', async () => {
    nextMinute();
    const anon = new TestClient(server.url);
    for (let i = 0; i < LIMIT; i++) expect((await anon.get('/server_settings')).status).toBe(200);
    const refused = await anon.get('/server_settings');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMIT_HIT');
    // An authenticated user from the same address is counted on their own budget.
    expect((await hamlet.get('/users/me')).status).toBe(200);
  });
});
