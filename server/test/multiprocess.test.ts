import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, type Config } from '../config.js';
import { seedDemo } from '../demo/seed.js';
import { startServer, type RunningServer } from '../server.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';
import { localQueues } from '../events/manager.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const available = !!process.env.TEST_DATABASE_URL && (await redisReachable());
if (!available)
  console.warn('multiprocess test: needs TEST_DATABASE_URL and a Redis server; stepping aside');

/** Two server processes on one PostgreSQL database, with events crossing through Redis. */
describe.skipIf(!available)('several server processes', () => {
  let a: RunningServer;
  let b: RunningServer;
  let schema: string;

  beforeAll(async () => {
    schema = `parley_multi_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const base = (): Config => ({
      ...configFromEnv({}),
      port: 0,
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'parley-multi-')),
      databaseUrl: url.toString(),
      redisUrl: REDIS_URL,
      scryptCost: 1024,
      rateLimitPerMinute: 100_000,
      longPollSeconds: 5,
    });
    a = await startServer(base());
    await seedDemo(a.ctx, DEMO_PASSWORD);
    b = await startServer(base());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('delivers a message sent through one process to a queue held by the other', async () => {
    const sender = await TestClient.login(a.url, 'hamlet@example.com', DEMO_PASSWORD);
    const receiver = await TestClient.login(b.url, 'othello@example.com', DEMO_PASSWORD);
    const q = await receiver.post('/register', { event_types: ['message'] });
    expect(q.body.queue_id.startsWith(b.ctx.queues.processTag + ':')).toBe(true);
    const poll = receiver.get('/events', {
      queue_id: q.body.queue_id,
      last_event_id: q.body.last_event_id,
    });
    const sent = await sender.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'across',
      content: 'from process A',
    });
    const got = await poll;
    expect(got.body.events.find((e: any) => e.type === 'message')?.message.id).toBe(sent.body.id);
    // A queue lives in the process that created it: the other process does not know it.
    const elsewhere = new TestClient(a.url, receiver.email, receiver.apiKey);
    expect(
      (await elsewhere.get('/events', { queue_id: q.body.queue_id, dont_block: true })).body.code,
    ).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('counts a person’s requests against one rate limit, whichever process answers', async () => {
    const viaA = await TestClient.login(a.url, 'iago@example.com', DEMO_PASSWORD);
    const viaB = new TestClient(b.url, viaA.email, viaA.apiKey);
    const remaining = async (client: TestClient) =>
      Number((await client.get('/users/me')).headers.get('x-ratelimit-remaining'));
    const first = await remaining(viaA);
    expect(first).toBeGreaterThan(1000);
    expect(await remaining(viaB)).toBe(first - 1);
    expect(await remaining(viaA)).toBe(first - 2);
  });

  it('ends, in the process holding a queue, what another process revoked', async () => {
    const owner = await TestClient.login(a.url, 'cordelia@example.com', DEMO_PASSWORD);
    const admin = await TestClient.login(a.url, 'iago@example.com', DEMO_PASSWORD);
    const created = await owner.post('/bots', { full_name: 'Relay', short_name: 'relay' });
    expect(created.status).toBe(200);
    const bot = new TestClient(b.url, 'relay-bot@parley.bots', created.body.api_key);
    const q = (await bot.post('/register', { event_types: ['message'] })).body.queue_id;
    const poll = (c: TestClient) => c.get('/events', { queue_id: q, dont_block: true });
    expect((await poll(bot)).status).toBe(200);
    expect((await poll(bot)).status).toBe(200);

    // A new key, made through process A: B's queue stops vouching for the old one.
    const regenerated = await owner.post(`/bots/${created.body.user_id}/api_key/regenerate`);
    expect(regenerated.status).toBe(200);
    // The news crosses processes through PostgreSQL and Redis: on a loaded machine, seconds.
    const refused = async (c: TestClient, code: string) => {
      const until = Date.now() + 30_000;
      while (Date.now() < until && (await poll(c)).body.code !== code)
        await new Promise((r) => setTimeout(r, 100));
      expect((await poll(c)).body.code).toBe(code);
    };
    await refused(bot, 'INVALID_API_KEY');
    const renewed = new TestClient(b.url, bot.email, regenerated.body.api_key);
    expect((await poll(renewed)).status).toBe(200);

    // Deactivated through process A: B drops the queue.
    expect((await admin.delete(`/users/${created.body.user_id}`)).status).toBe(200);
    const gone = async () => {
      const until = Date.now() + 30_000;
      while (Date.now() < until && localQueues(b.ctx).byId(q))
        await new Promise((r) => setTimeout(r, 100));
      return localQueues(b.ctx).byId(q);
    };
    expect(await gone()).toBeUndefined();
    expect((await poll(renewed)).body.code).toBe('USER_DEACTIVATED');
  });
});
