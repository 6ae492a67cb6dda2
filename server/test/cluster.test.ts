import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';

/**
 * `npm run cluster -- --processes 3` (scripts/cluster.mjs): three processes behind Debian's
 * HAProxy with the shipped configuration, on a database of this test's own in PostgreSQL and
 * keys of its own in Redis. One process is killed with SIGKILL while people send and long-poll
 * steadily: nothing acknowledged is lost, and every client receives every message, its polls
 * going on through the other processes without registering anew.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p));

async function reachable(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || fallbackPort), hostname);
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const available =
  !!process.env.TEST_DATABASE_URL && !!HAPROXY && (await reachable(REDIS_URL, 6379));
if (!available)
  console.warn('cluster test: needs TEST_DATABASE_URL, Redis and HAProxy; stepping aside');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!available)('npm run cluster', () => {
  let cluster: ChildProcess;
  let url: string;
  let database: string;
  let output = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cluster-test-'));

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query(sql);
    await client.end();
  };

  beforeAll(async () => {
    database = `parley_cluster_${process.pid}_${Date.now()}`;
    await admin(`CREATE DATABASE ${database}`);
    const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
    dbUrl.pathname = `/${database}`;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    cluster = spawn(process.execPath, ['scripts/cluster.mjs', '--processes', '3'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl.toString(),
        REDIS_URL,
        PARLEY_REDIS_PREFIX: `${database}:`,
        PARLEY_DATA_DIR: dataDir,
        PARLEY_DEMO_PASSWORD: DEMO_PASSWORD,
        PARLEY_SCRYPT_COST: '1024',
        PARLEY_RATE_LIMIT: '100000',
        PARLEY_LONGPOLL_SECONDS: '10',
        PARLEY_CLUSTER_SERVER: `${process.execPath} --import tsx server/main.ts`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cluster.stdout!.on('data', (chunk) => (output += chunk));
    cluster.stderr!.on('data', (chunk) => (output += chunk));
    const until = Date.now() + 150_000;
    while (!output.includes('behind HAProxy on')) {
      if (cluster.exitCode !== null || Date.now() > until)
        throw new Error(`the cluster did not start:\n${output.slice(-3000)}`);
      await sleep(200);
    }
    // HAProxy itself listens a moment after it is started.
    while ((await fetch(`${url}/ready`).catch(() => null))?.status !== 200) {
      if (Date.now() > until) throw new Error('HAProxy never answered');
      await sleep(100);
    }
  }, 180_000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      cluster.kill('SIGTERM');
      await new Promise((r) => cluster.once('exit', r));
    }
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const pids = () =>
    [...output.matchAll(/process (\d+): pid (\d+)/g)].reduce(
      (byProcess, [, n, pid]) => byProcess.set(Number(n), Number(pid)),
      new Map<number, number>(),
    );

  it('keeps every acknowledged message and every client live through a kill -9 of one process', async () => {
    const senders = await Promise.all(
      ['hamlet', 'iago', 'cordelia', 'desdemona'].map((name) =>
        TestClient.login(url, `${name}@example.com`, DEMO_PASSWORD),
      ),
    );
    const readers = await Promise.all(
      ['othello', 'polonius', 'shiva'].map((name) =>
        TestClient.login(url, `${name}@example.com`, DEMO_PASSWORD),
      ),
    );
    const topic = `through a crash ${Date.now()}`;
    let sending = true;
    const acknowledged: number[] = [];
    const refused: number[] = [];
    const sendLoop = async (client: TestClient, n: number) => {
      for (let i = 0; sending; i++) {
        const res = await client
          .post('/messages', { type: 'stream', to: 'general', topic, content: `${n}.${i}` })
          .catch(() => null);
        if (res?.status === 200) acknowledged.push(res.body.id);
        else refused.push(res?.status ?? 0);
        await sleep(40);
      }
    };
    const received = readers.map(() => new Set<number>());
    const registrations = readers.map(() => 0);
    let polling = true;
    const register = async (client: TestClient, r: number) => {
      registrations[r]++;
      return (await client.post('/register', { event_types: ['message'] })).body;
    };
    // Every queue exists before the first message is sent.
    const queues = await Promise.all(readers.map(register));
    const pollLoop = async (client: TestClient, r: number) => {
      let queue = queues[r];
      let last = queue.last_event_id;
      while (polling) {
        const res = await client
          .get('/events', { queue_id: queue.queue_id, last_event_id: last })
          .catch(() => null);
        if (res?.status === 200) {
          for (const e of res.body.events) {
            last = e.id;
            if (e.type === 'message' && e.message.subject === topic) received[r].add(e.message.id);
          }
        } else if (res?.body?.code === 'BAD_EVENT_QUEUE_ID') {
          queue = await register(client, r);
          last = queue.last_event_id;
        } else await sleep(200); // the process answering it went away: poll again
      }
    };
    const polls = readers.map(pollLoop);
    const sends = senders.map(sendLoop);
    await sleep(1500);
    const victim = pids().get(2)!;
    process.kill(victim, 'SIGKILL');
    await sleep(3000);
    sending = false;
    await Promise.all(sends);
    // Every acknowledged message reaches every reader (polls answer within PARLEY_LONGPOLL_SECONDS).
    const until = Date.now() + 20_000;
    while (Date.now() < until && received.some((got) => acknowledged.some((id) => !got.has(id))))
      await sleep(100);
    polling = false;

    expect(acknowledged.length).toBeGreaterThan(40);
    for (const got of received) expect(acknowledged.filter((id) => !got.has(id))).toEqual([]);
    // No client had to start over: each kept the queue it registered first.
    expect(registrations).toEqual([1, 1, 1]);
    // Everything acknowledged is in the database, once.
    const history = await senders[0].get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: topic },
      ]),
    });
    const stored = new Set<number>(history.body.messages.map((m: { id: number }) => m.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // The killed process was started again, and serves.
    await expect.poll(() => pids().get(2), { timeout: 30_000 }).not.toBe(victim);
    void polls;
  }, 120_000);
});

/** HAProxy's own check of the shipped file, where HAProxy is installed. */
describe.skipIf(!HAPROXY)('deploy/haproxy/parley.cfg', () => {
  it('is a valid HAProxy configuration as shipped', () => {
    const file = path.join(ROOT, 'deploy/haproxy/parley.cfg');
    const check = spawnSync(HAPROXY!, ['-c', '-f', file], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/Configuration file is valid/);
    expect(check.status).toBe(0);
  });
});
