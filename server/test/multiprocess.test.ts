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

/** Polls until `check` holds (cross-process news takes seconds on a loaded machine). */
async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('waited in vain');
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
      // Keys and channels of this run only: other tests may share the Redis.
      redisPrefix: `${schema}:`,
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
  });

  it('serves every queue from either process: a poll parked on A wakes for a message sent through B', async () => {
    const sender = await TestClient.login(b.url, 'hamlet@example.com', DEMO_PASSWORD);
    const onB = await TestClient.login(b.url, 'othello@example.com', DEMO_PASSWORD);
    const onA = new TestClient(a.url, onB.email, onB.apiKey);
    const q = (await onB.post('/register', { event_types: ['message'] })).body;
    const poll = onA.get('/events', { queue_id: q.queue_id, last_event_id: q.last_event_id });
    await waitFor(() => a.ctx.queues.parkedPolls > 0);
    const sent = await sender.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'any process',
      content: 'sent through B, polled on A',
    });
    const got = (await poll).body;
    expect(got.result).toBe('success');
    const message = got.events.find((e: any) => e.type === 'message');
    expect(message.message.id).toBe(sent.body.id);
    // The next poll, on B, acknowledges it there: only what came after.
    const again = await onB.get('/events', {
      queue_id: q.queue_id,
      last_event_id: message.id,
      dont_block: true,
    });
    expect(again.body.events).toEqual([]);
    // Someone else's queue is refused on either process, and DELETE works on either.
    const other = await TestClient.login(a.url, 'cordelia@example.com', DEMO_PASSWORD);
    expect((await other.get('/events', { queue_id: q.queue_id, dont_block: true })).body.msg).toBe(
      'You are not authorized to get events from this queue',
    );
    expect((await onA.delete('/events', { queue_id: q.queue_id })).status).toBe(200);
    const after = await onB.get('/events', { queue_id: q.queue_id, dont_block: true });
    expect(after.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('applies a queue’s narrow and options in the process that delivers, not the one that registered it', async () => {
    const sender = await TestClient.login(a.url, 'hamlet@example.com', DEMO_PASSWORD);
    const reader = await TestClient.login(b.url, 'othello@example.com', DEMO_PASSWORD);
    const q = (
      await reader.post('/register', {
        event_types: ['message'],
        narrow: [
          ['channel', 'general'],
          ['topic', 'narrowed'],
        ],
        apply_markdown: false,
      })
    ).body;
    const send = (topic: string) =>
      sender.post('/messages', {
        type: 'stream',
        to: 'general',
        topic,
        content: `**in ${topic}**`,
      });
    await send('elsewhere');
    const kept = await send('narrowed');
    const got = await new TestClient(a.url, reader.email, reader.apiKey).get('/events', {
      queue_id: q.queue_id,
      last_event_id: q.last_event_id,
      dont_block: true,
    });
    const messages = got.body.events.filter((e: any) => e.type === 'message');
    expect(messages.map((e: any) => e.message.id)).toEqual([kept.body.id]);
    expect(messages[0].message.content).toBe('**in narrowed**');
  });

  it('refuses, rather than leaves a gap, a queue that may have missed an event while Redis was away', async () => {
    const reader = await TestClient.login(a.url, 'othello@example.com', DEMO_PASSWORD);
    const q = (await reader.post('/register', { event_types: ['message'] })).body;
    const poll = () => reader.get('/events', { queue_id: q.queue_id, dont_block: true });
    expect((await poll()).status).toBe(200);
    // What a process does when a delivery failed: the epoch rises once Redis answers.
    (a.ctx.queues as unknown as { deliveryLost(e: Error): void }).deliveryLost(new Error('lost'));
    await waitFor(async () => (await poll()).body.code === 'BAD_EVENT_QUEUE_ID');
    // A queue made now works.
    const fresh = (await reader.post('/register', { event_types: ['message'] })).body;
    const ok = await reader.get('/events', { queue_id: fresh.queue_id, dont_block: true });
    expect(ok.status).toBe(200);
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

    // Deactivated through process A: the queue is gone, whichever process is asked.
    const parked = renewed.get('/events', { queue_id: q });
    await waitFor(() => b.ctx.queues.parkedPolls > 0);
    expect((await admin.delete(`/users/${created.body.user_id}`)).status).toBe(200);
    // The poll parked on B is answered at once (with nothing), not at its timeout.
    expect((await parked).body.events).toEqual([]);
    expect((await poll(renewed)).body.code).toBe('USER_DEACTIVATED');
    const admins = new TestClient(a.url, admin.email, admin.apiKey);
    expect((await admins.get('/events', { queue_id: q, dont_block: true })).body.code).toBe(
      'BAD_EVENT_QUEUE_ID',
    );
  });
});
