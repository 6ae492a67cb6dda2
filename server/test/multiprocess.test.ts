import crypto from 'node:crypto';
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
import { PNG } from './endpoints.js';
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

  describe('files, kept where every process reads them', () => {
    const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
    /** GET a path of the site root from `server`, with the client's credentials or none. */
    const fetchFrom = (server: RunningServer, url: string, as?: TestClient, headers = {}) =>
      fetch(new URL(new URL(url, server.url).pathname, server.url), {
        headers: { ...(as ? as.headers() : {}), ...headers },
      });

    it('keeps them in the database, not in either data directory', () => {
      expect(a.ctx.files.kind).toBe('database');
      expect(b.ctx.files.kind).toBe('database');
    });

    it('serves through B, byte for byte, a file uploaded through A, at its URL and at a temporary URL A signed', async () => {
      const viaA = await TestClient.login(a.url, 'hamlet@example.com', DEMO_PASSWORD);
      const viaB = new TestClient(b.url, viaA.email, viaA.apiKey);
      // Larger than one chunk of the database store, and not text.
      const data = crypto.randomBytes(1_300_000);
      const uploaded = await viaA.post('/user_uploads', {
        file: new File([new Uint8Array(data)], 'recording.bin', {
          type: 'application/octet-stream',
        }),
      });
      expect(uploaded.status).toBe(200);
      const url: string = uploaded.body.url;

      const whole = await fetchFrom(b, url, viaB);
      expect(whole.status).toBe(200);
      expect((await bytes(whole)).equals(data)).toBe(true);
      expect(whole.headers.get('content-disposition')).toBe('attachment; filename="recording.bin"');
      const part = await fetchFrom(b, url, viaB, { Range: 'bytes=524000-525000' });
      expect(part.status).toBe(206);
      expect((await bytes(part)).equals(data.subarray(524000, 525001))).toBe(true);
      // Both processes describe the file alike, so a cache in front of them sees one file.
      const fromA = await fetchFrom(a, url, viaA);
      await fromA.arrayBuffer();
      expect(fromA.headers.get('etag')).toBe(whole.headers.get('etag'));

      const temporary = (await viaA.get(`/user_uploads/${url.slice('/user_uploads/'.length)}`)).body
        .url as string;
      expect(temporary).toMatch(/^\/user_uploads\/temporary\//);
      const signedByA = await fetchFrom(b, temporary);
      expect(signedByA.status).toBe(200);
      expect((await bytes(signedByA)).equals(data)).toBe(true);

      // Deleted through B: gone for A too.
      const id = (await viaB.get('/attachments')).body.attachments.find(
        (f: { path_id: string }) => `/user_uploads/${f.path_id}` === url,
      ).id;
      expect((await viaB.delete(`/attachments/${id}`)).status).toBe(200);
      expect((await fetchFrom(a, url, viaA)).status).toBe(404);
    });

    it('serves through B a custom emoji added through A', async () => {
      const iago = await TestClient.login(a.url, 'iago@example.com', DEMO_PASSWORD);
      const added = await iago.post('/realm/emoji/across_processes', {
        filename: new File([new Uint8Array(PNG)], 'emoji.png', { type: 'image/png' }),
      });
      expect(added.status).toBe(200);
      const viaB = new TestClient(b.url, iago.email, iago.apiKey);
      const emoji = Object.values((await viaB.get('/realm/emoji')).body.emoji as object).find(
        (e: { name: string }) => e.name === 'across_processes',
      ) as { source_url: string };
      const image = await fetchFrom(b, emoji.source_url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect((await bytes(image)).equals(PNG)).toBe(true);
    });

    it('serves through B an avatar uploaded through A, at the path A named', async () => {
      const viaA = await TestClient.login(a.url, 'othello@example.com', DEMO_PASSWORD);
      const uploaded = await viaA.post('/users/me/avatar', {
        file: new File([new Uint8Array(PNG)], 'me.png', { type: 'image/png' }),
      });
      expect(uploaded.status).toBe(200);
      const avatarPath = new URL(uploaded.body.avatar_url as string).pathname;
      // B names the avatar with the same key, so either process's URL works everywhere.
      const viaB = new TestClient(b.url, viaA.email, viaA.apiKey);
      expect(new URL((await viaB.get('/users/me')).body.avatar_url).pathname).toBe(avatarPath);
      const image = await fetchFrom(b, avatarPath);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect((await bytes(image)).equals(PNG)).toBe(true);
      const byId = await fetchFrom(
        b,
        `/avatar/${(await viaB.get('/users/me')).body.user_id}`,
        viaB,
      );
      expect((await bytes(byId)).equals(PNG)).toBe(true);
    });
  });
});
