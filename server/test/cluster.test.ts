import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';
import { freePort, startCluster, type RunningCluster } from './process.js';

/**
 * `npm run cluster -- --processes 3` (scripts/cluster.mjs): three processes behind Debian's
 * HAProxy with the shipped configuration, on a database of this test's own in PostgreSQL and
 * keys of its own in Redis. One process is killed with SIGKILL while people send and long-poll
 * steadily: nothing acknowledged is lost, and every client receives every message, its polls
 * going on through the other processes without registering anew.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p));
const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/sbin/redis-server'].find((p) =>
  fs.existsSync(p),
);

async function reachable(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || fallbackPort), hostname);
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const available = !!process.env.TEST_DATABASE_URL && !!HAPROXY && !!REDIS_SERVER;
if (!available)
  console.warn('cluster test: needs TEST_DATABASE_URL, redis-server and HAProxy; stepping aside');

const fetchJson = async (address: string) => (await fetch(address)).json() as Promise<unknown>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Redis of the test's own, keeping nothing on disk, so that the test may stop it. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    REDIS_SERVER!,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const until = Date.now() + 10_000;
  while (!(await reachable(`redis://127.0.0.1:${port}`, port))) {
    if (Date.now() > until) throw new Error('redis-server did not start');
    await sleep(50);
  }
  return redis;
}

describe.skipIf(!available)('npm run cluster', () => {
  let cluster: RunningCluster;
  let redis: ChildProcess;
  let redisPort: number;
  let url: string;
  let database: string;
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
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    cluster = await startCluster(3, {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      PARLEY_DATA_DIR: dataDir,
      PARLEY_DEMO_PASSWORD: DEMO_PASSWORD,
      PARLEY_SCRYPT_COST: '1024',
      PARLEY_RATE_LIMIT: '100000',
      PARLEY_LONGPOLL_SECONDS: '10',
      PARLEY_CLUSTER_SERVER: `${process.execPath} --import tsx server/main.ts`,
    });
    url = cluster.url;
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    redis?.kill('SIGKILL');
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * Four people send and three long-poll (through HAProxy) while `fault` happens; then sending
   * stops, and the readers poll until they have every acknowledged message or 20 s passed. A
   * reader whose queue is refused registers anew, as the clients do.
   */
  async function traffic(topic: string, fault: () => Promise<void>) {
    const login = (name: string) => TestClient.login(url, `${name}@example.com`, DEMO_PASSWORD);
    const senders = await Promise.all(['hamlet', 'iago', 'cordelia', 'desdemona'].map(login));
    const readers = await Promise.all(['othello', 'polonius', 'shiva'].map(login));
    const acknowledged = new Map<number, number>(); // message id -> when its answer came
    let sending = true;
    const sendLoop = async (client: TestClient, n: number) => {
      for (let i = 0; sending; i++) {
        const res = await client
          .post('/messages', { type: 'stream', to: 'general', topic, content: `${n}.${i}` })
          .catch(() => null);
        if (res?.status === 200) acknowledged.set(res.body.id, Date.now());
        await sleep(40);
      }
    };
    const received = readers.map(() => new Set<number>());
    // The newest message each queue's snapshot knows of (its max_message_id): a client that
    // registers anew fetches the messages up to it, so those it holds without an event.
    const registered = readers.map(() => [] as number[]);
    const register = async (client: TestClient, r: number) => {
      for (;;) {
        const res = await client.post('/register', { event_types: ['message'] }).catch(() => null);
        if (res?.status === 200) {
          registered[r].push(res.body.max_message_id);
          return res.body;
        }
        await sleep(200);
      }
    };
    // Every queue exists before the first message is sent.
    const queues = await Promise.all(readers.map(register));
    let polling = true;
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
        } else await sleep(200); // the process or Redis is away: poll again
      }
    };
    const polls = readers.map(pollLoop);
    const sends = senders.map(sendLoop);
    await sleep(1500);
    await fault();
    await sleep(2000);
    sending = false;
    await Promise.all(sends);
    // Until each reader has each message, or registered anew after it (the snapshot has it).
    const missing = (r: number) =>
      [...acknowledged.keys()].filter(
        (id) => !received[r].has(id) && !registered[r].some((newest) => newest >= id),
      );
    const until = Date.now() + 20_000;
    while (Date.now() < until && readers.some((_, r) => missing(r).length)) await sleep(100);
    polling = false;
    await Promise.all(polls);
    return { senders, acknowledged, received, registered, missing };
  }

  /** The acknowledged messages in the database, of one topic. */
  async function stored(client: TestClient, topic: string) {
    const history = await client.get('/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: topic },
      ]),
    });
    return new Set<number>(history.body.messages.map((m: { id: number }) => m.id));
  }

  it('gives links to the balancer’s port rather than to a process’s', async () => {
    const settings = (await fetchJson(`${url}/api/v1/server_settings`)) as { realm_icon: string };
    expect(settings.realm_icon.startsWith(`${url}/`)).toBe(true);
    const icon = await fetch(settings.realm_icon);
    expect(icon.status).toBe(200);
  });

  it('keeps every acknowledged message and every client live through a kill -9 of one process', async () => {
    const topic = `through a crash ${Date.now()}`;
    let victim = 0;
    const run = await traffic(topic, async () => {
      victim = cluster.pids().get(2)!;
      process.kill(victim, 'SIGKILL');
    });
    const ids = [...run.acknowledged.keys()];
    expect(ids.length).toBeGreaterThan(40);
    for (const got of run.received) expect(ids.filter((id) => !got.has(id))).toEqual([]);
    // No client had to start over: each kept the queue it registered first.
    expect(run.registered.map((times) => times.length)).toEqual([1, 1, 1]);
    const inDatabase = await stored(run.senders[0], topic);
    expect(ids.filter((id) => !inDatabase.has(id))).toEqual([]);
    // The killed process was started again, and serves.
    await expect.poll(() => cluster.pids().get(2), { timeout: 30_000 }).not.toBe(victim);
  }, 120_000);

  it('never leaves a client with a silent gap when Redis is stopped and started again', async () => {
    const topic = `through a Redis restart ${Date.now()}`;
    const before = [...cluster.pids().values()];
    const logFrom = cluster.output().length;
    const run = await traffic(topic, async () => {
      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      await sleep(1500);
      redis = await startRedis(redisPort); // empty: every queue is gone
    });
    const ids = [...run.acknowledged.keys()];
    expect(ids.length).toBeGreaterThan(20);
    // Each message reached each reader, or the reader registered anew after it was sent (its
    // snapshot holds it): never missed without a resync.
    for (const r of [0, 1, 2]) expect(run.missing(r)).toEqual([]);
    // The queues died with Redis: every reader registered anew, and is live again.
    for (const times of run.registered) expect(times.length).toBeGreaterThan(1);
    const inDatabase = await stored(run.senders[0], topic);
    expect(ids.filter((id) => !inDatabase.has(id))).toEqual([]);
    // No process ended.
    expect([...cluster.pids().values()]).toEqual(before);
    expect(cluster.output().slice(logFrom)).not.toMatch(/ended \(/);
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
