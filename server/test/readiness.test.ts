import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRealm } from '../actions/realm.js';
import { sendMessage } from '../actions/send-message.js';
import { inOneTransaction } from '../context.js';
import { CHATTER_TOPICS, DIRECT, SCRIPTED } from '../demo/script.js';
import { DEMO_STREAMS, DEMO_USERS } from '../demo/seed.js';
import { TestClient } from './client.js';
import { startServer } from '../server.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { ServerProcess, freePort, probe, removeDataDir, tempDataDir } from './process.js';
import { localQueues } from '../events/manager.js';

/** What a complete demo holds: its people, channels and every message of its script. */
const COMPLETE_DEMO = {
  people: DEMO_USERS.length,
  channels: DEMO_STREAMS.length,
  messages: CHATTER_TOPICS.length * 26 + DIRECT.length + SCRIPTED.length,
};

/** What the SQLite database of `dataDir` holds now (read beside the server, or after it). */
function demoIn(dataDir: string) {
  const db = new SQLite(path.join(dataDir, 'parley.sqlite3'), { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      organizations: count('SELECT count(*) AS n FROM realms'),
      people: count('SELECT count(*) AS n FROM users WHERE is_bot = 0'),
      channels: count('SELECT count(*) AS n FROM streams'),
      messages: count('SELECT count(*) AS n FROM messages'),
    };
  } finally {
    db.close();
  }
}

describe('readiness of a server started on a new database', () => {
  const dirs: string[] = [];
  const running: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
  });
  afterAll(() => dirs.forEach(removeDataDir));

  /** `npm start`'s server on `dataDir` and a port of its own, at the default password cost. */
  async function start(dataDir: string) {
    const port = await freePort();
    const server = new ServerProcess({ PORT: String(port), PARLEY_DATA_DIR: dataDir });
    running.push(server);
    return { server, url: `http://127.0.0.1:${port}` };
  }

  it('answers /ready 503 while it seeds the demo, serves nothing else, then 200', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const launched = performance.now();
    const { server, url } = await start(dataDir);
    const seeding = await server.until(async () => {
      const ready = await probe(`${url}/ready`);
      return ready?.status === 503 ? ready : undefined;
    });
    expect(seeding.body).toEqual({
      status: 'starting',
      checks: { migrations: 'ok', seed: 'running', database: 'not checked' },
    });
    // Meanwhile: alive, and every other request refused, so that nobody logs in to half an
    // organization or registers a queue that would receive the seed's messages.
    const [health, api, login] = await Promise.all([
      probe(`${url}/health`),
      probe(`${url}/api/v1/server_settings`),
      fetch(`${url}/api/v1/fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'hamlet@example.com', password: DEMO_PASSWORD }),
      }),
    ]);
    expect(health).toMatchObject({ status: 200, body: { status: 'alive' } });
    expect(api).toMatchObject({ status: 503, body: { code: 'SERVER_NOT_READY' } });
    expect(api!.headers.get('retry-after')).toBe('1');
    expect(login.status).toBe(503);

    const ready = await server.until(async () => {
      const r = await probe(`${url}/ready`);
      return r?.status === 200 ? r : undefined;
    });
    const toReady = performance.now() - launched;
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { migrations: 'ok', seed: 'ok', database: 'ok' },
    });
    expect(demoIn(dataDir)).toEqual({ organizations: 1, ...COMPLETE_DEMO });
    const hamlet = await TestClient.login(url, 'hamlet@example.com', DEMO_PASSWORD);
    expect((await hamlet.get('/users/me')).status).toBe(200);

    const seeded = server.lines.map((l) => JSON.parse(l)).find((l) => /^Seeded/.test(l.msg));
    console.log(
      `launch to /ready 200 on a new data directory: ${Math.round(toReady)} ms ` +
        `(the seed, one transaction: ${seeded?.ms} ms)`,
    );
  }, 120_000);

  it('leaves nothing when killed during the seed, and seeds it whole at the next start', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await start(dataDir);
    await first.server.until(async () => {
      const r = await probe(`${first.url}/ready`);
      return r?.status === 503 && r.body.checks.seed === 'running' ? true : undefined;
    });
    // Well into the seed: hashing the seven passwords alone takes longer at the default cost.
    await new Promise((r) => setTimeout(r, 100));
    const killed = await first.server.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(first.server.output).not.toContain('Seeded the demo');
    expect(demoIn(dataDir)).toEqual({ organizations: 0, people: 0, channels: 0, messages: 0 });

    const second = await start(dataDir);
    await second.server.until(async () =>
      (await probe(`${second.url}/ready`))?.status === 200 ? true : undefined,
    );
    expect(demoIn(dataDir)).toEqual({ organizations: 1, ...COMPLETE_DEMO });
  }, 120_000);

  it('stops at once on SIGTERM during the seed, leaving nothing', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const { server, url } = await start(dataDir);
    await server.until(async () =>
      (await probe(`${url}/ready`))?.status === 503 ? true : undefined,
    );
    expect((await server.stop('SIGTERM')).code).toBe(0);
    expect(server.output).toContain('SIGTERM: shutting down');
    expect(demoIn(dataDir)).toEqual({ organizations: 0, people: 0, channels: 0, messages: 0 });
  }, 120_000);
});

describe.each(DATABASES)('writes joined into one transaction on %s', (db) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('commits all of them or nothing', async () => {
    server = await startTestServer({ db, demo: false });
    const { ctx } = server;
    await expect(
      inOneTransaction(ctx, async (joined) => {
        await createRealm(joined.db, { stringId: 'halfway', name: 'Halfway' });
        throw new Error('stopped halfway');
      }),
    ).rejects.toThrow('stopped halfway');
    expect(await ctx.db.selectFrom('realms').selectAll().execute()).toEqual([]);
  });

  it('rolls a refused action back alone, and publishes the events after the commit', async () => {
    server = await startTestServer({ db, demo: true });
    const { ctx } = server;
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const queue = (await hamlet.post('/register', { event_types: '["message"]' })).body;
    const realm = await ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    const sender = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'iago@example.com')
      .executeTakeFirstOrThrow();
    const send = (c: typeof ctx, stream: string, content: string) =>
      sendMessage(c, realm, sender, {
        recipient: { type: 'stream', streamName: stream, topic: 'joined' },
        content,
        client: 'test',
      });
    const delivered = () => localQueues(ctx).byId(queue.queue_id)!.lastEventId;
    const before = delivered();
    await inOneTransaction(ctx, async (joined) => {
      await send(joined, 'general', 'first');
      await expect(send(joined, 'no such channel', 'refused')).rejects.toThrow();
      await send(joined, 'general', 'second');
      // Nothing is published before the commit.
      expect(delivered()).toBe(before);
    });
    const sent = await ctx.db
      .selectFrom('messages')
      .select('content')
      .where('topic', '=', 'joined')
      .orderBy('id')
      .execute();
    expect(sent.map((m) => m.content)).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('second'),
    ]);
    expect(delivered()).toBe(before + 2);
  });
});

describe.skipIf(!DATABASES.includes('postgres'))('servers starting together on PostgreSQL', () => {
  it('seed the demo once between them', async () => {
    // A new schema, migrated, without an organization.
    const empty = await startTestServer({ db: 'postgres', demo: false });
    const dirs = [tempDataDir(), tempDataDir()];
    const servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ ...empty.ctx.config, port: 0, dataDir }, { demoPassword: DEMO_PASSWORD }),
      ),
    );
    try {
      expect(servers.map((s) => s.ctx.readiness!.seed).sort()).toEqual(['present', 'seeded']);
      const count = async (table: 'realms' | 'messages') =>
        Number(
          (
            await empty.ctx.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('realms')).toBe(1);
      expect(await count('messages')).toBe(COMPLETE_DEMO.messages);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await empty.close();
      dirs.forEach(removeDataDir);
    }
  }, 60_000);
});
