import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transact } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}

async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; samples: Sample[]; text: string; type: string | null }> {
  const res = await fetch(`${url}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, samples: parse(text), text, type: res.headers.get('content-type') };
}

describe('GET /metrics', () => {
  let server: TestServer;
  let hamlet: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite' });
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
  });
  afterAll(() => server.close());

  it('counts requests by method, route pattern and status class, never by URL', async () => {
    const first = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'metrics',
      content: 'one',
    });
    await hamlet.get(`/messages/${first.body.id}`);
    await hamlet.get(`/messages/${first.body.id - 1}`);
    await hamlet.get('/messages/999999999');
    await fetch(`${server.url}/api/v1/no/such/endpoint`);
    await fetch(`${server.url}/no-such-page-${Date.now()}`);

    const { status, samples, type } = await scrape(server.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const count = 'parley_http_request_duration_seconds_count';
    const message = { method: 'GET', route: '/api/v1/messages/:message_id' };
    expect(total(samples, count, { ...message, status_class: '2xx' })).toBe(2);
    expect(total(samples, count, { ...message, status_class: '4xx' })).toBe(1);
    expect(total(samples, count, { method: 'POST', route: '/api/v1/messages' })).toBe(1);
    const routes = new Set(samples.filter((s) => s.name === count).map((s) => s.labels.route));
    expect([...routes].filter((r) => /\d{3,}|no-such/.test(r!))).toEqual([]);
    expect(total(samples, count, { route: '(no route)', status_class: '4xx' })).toBe(2);
    expect(
      total(samples, 'parley_http_request_duration_seconds_bucket', { ...message, le: '+Inf' }),
    ).toBe(3);
  });

  it('reports the event queues and the long-polls parked on them', async () => {
    const queue = (await hamlet.post('/register', { event_types: '["message"]' })).body;
    const poll = hamlet.get('/events', { queue_id: queue.queue_id, last_event_id: -1 });
    await vi.waitFor(() => expect(server.ctx.queues.parkedPolls).toBe(1));
    const parked = (await scrape(server.url)).samples;
    expect(total(parked, 'parley_event_queues')).toBe(server.ctx.queues.size);
    expect(total(parked, 'parley_event_queues')).toBeGreaterThanOrEqual(1);
    expect(total(parked, 'parley_parked_longpolls')).toBe(1);
    const before = total(parked, 'parley_http_request_duration_seconds_count', {
      route: '/api/v1/events',
    });

    // Answered straight to the socket (http/route.ts), and counted all the same.
    await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'metrics',
      content: 'x',
    });
    expect((await poll).status).toBe(200);
    const after = (await scrape(server.url)).samples;
    expect(total(after, 'parley_parked_longpolls')).toBe(0);
    expect(
      total(after, 'parley_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/events',
        status_class: '2xx',
      }),
    ).toBe(before + 1);
  });

  it('times write transactions and counts what failed in them', async () => {
    const { ctx } = server;
    const before = (await scrape(server.url)).samples;
    const read = (samples: Sample[]) => ({
      transactions: total(samples, 'parley_db_transaction_duration_seconds_count'),
      writes: total(samples, 'parley_db_transaction_writes_total'),
      refused: total(samples, 'parley_db_writes_rolled_back_total', { reason: 'refused' }),
      failed: total(samples, 'parley_db_transactions_failed_total'),
      syncs: total(samples, 'parley_db_sync_duration_seconds_count'),
    });
    await transact(ctx, async (trx) => {
      await trx.updateTable('realms').set({ name: 'Parley Demo' }).execute();
    });
    await expect(
      transact(ctx, async () => {
        throw new DomainError('Not allowed', 'BAD_REQUEST');
      }),
    ).rejects.toThrow('Not allowed');
    await expect(
      transact(ctx, async (trx) => {
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toThrow();
    const after = read((await scrape(server.url)).samples);
    const was = read(before);
    expect(after.transactions - was.transactions).toBe(3);
    expect(after.writes - was.writes).toBe(1);
    expect(after.refused - was.refused).toBe(1);
    expect(after.failed - was.failed).toBe(1);
    expect(after.syncs - was.syncs).toBe(1);
  });

  it('times every statement, reads included, and counts the ones that failed', async () => {
    const read = (samples: Sample[]) => ({
      queries: total(samples, 'parley_db_query_duration_seconds_count'),
      errors: total(samples, 'parley_db_query_errors_total'),
    });
    const was = read((await scrape(server.url)).samples);
    await sql`select count(*) from messages`.execute(server.ctx.db);
    await expect(sql`select * from no_such_table`.execute(server.ctx.db)).rejects.toThrow();
    const after = read((await scrape(server.url)).samples);
    expect(after.queries - was.queries).toBeGreaterThanOrEqual(2);
    expect(after.errors - was.errors).toBe(1);
  });

  it("includes Node's default metrics", async () => {
    const { samples } = await scrape(server.url);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(samples.some((s) => s.name === name)).toBe(true);
  });

  it('is refused to a request relayed by a proxy it does not trust, whatever it claims', async () => {
    const relayed: Record<string, string>[] = [
      { 'X-Forwarded-For': '127.0.0.1' },
      { 'X-Real-IP': '127.0.0.1' },
      { Forwarded: 'for=127.0.0.1' },
    ];
    for (const headers of relayed) {
      const refused = await scrape(server.url, headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ result: 'error', code: 'FORBIDDEN' });
    }
  });
});

describe('who may read GET /metrics behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      demo: false,
      config: { trustedProxies: ['127.0.0.1'], metricsAllow: ['203.0.113.0/24', '2001:db8::7'] },
    });
  });
  afterAll(() => server.close());

  const from = (address: string) => scrape(server.url, { 'X-Forwarded-For': address });

  it('allows the addresses of PARLEY_METRICS_ALLOW and loopback', async () => {
    expect((await from('203.0.113.9')).status).toBe(200);
    expect((await from('2001:db8::7')).status).toBe(200);
    expect((await from('127.0.0.1')).status).toBe(200);
    expect((await scrape(server.url)).status).toBe(200);
  });

  it('refuses every other address', async () => {
    expect((await from('198.51.100.1')).status).toBe(403);
    expect((await from('203.0.114.1')).status).toBe(403);
    expect((await from('2001:db8::8')).status).toBe(403);
    // The proxy forwarded only X-Real-IP, which decides nothing here.
    expect((await scrape(server.url, { 'X-Real-IP': '203.0.113.9' })).status).toBe(403);
  });
});

describe('GET /health and GET /ready', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ demo: true });
  });
  afterAll(() => server.close());

  it('are alive and ready once started, and not ready when the database does not answer', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'alive' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { migrations: 'ok', seed: 'ok', database: 'ok' },
    });

    const { ctx } = server;
    const db = ctx.db;
    const quiet = vi.spyOn(ctx.log, 'warn').mockImplementation(() => {});
    ctx.db = {
      selectFrom: () => {
        throw new Error('connection refused');
      },
    } as unknown as typeof db;
    try {
      const down = await fetch(`${server.url}/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({
        status: 'unavailable',
        checks: { migrations: 'ok', seed: 'ok', database: 'unreachable' },
      });
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      ctx.db = db;
      quiet.mockRestore();
    }
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
  });
});
