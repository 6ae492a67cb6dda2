/**
 * npm run bench [-- --scale 10k|100k|1m] [--rounds N] [--polls auto|same|child]
 * npm run bench -- --delivery-on DIR   (only the delivery figures, on a copy of a populated data dir)
 *
 * Populates a temporary database with an organization of the chosen size (npm run manage --
 * populate), starts a real server on it and measures over HTTP on loopback every figure of the
 * scale goals (register, message fetches, search, sending, delivery to many long-polls, memory,
 * start-up, page weight, the client's event reducer), each beside its floor measured in the same
 * run (bare route, bare insert, bare publish) and its goal. SQLite always; PostgreSQL too when
 * BENCH_DATABASE_URL is set (in a schema of its own, dropped at the end). Prints a table and one
 * JSON line per figure. Every step is bounded in count; traffic goes only to 127.0.0.1.
 * BENCH_PROFILE_DIR=DIR writes a CPU profile of each delivery round (the server's process) there;
 * BENCH_DEBUG=1 prints each delivery round's acknowledgement, first, median and last answer.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { configFromEnv, type Config } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { populate, POPULATE_DEFAULTS } from '../server/populate.js';
import { startServer } from '../server/server.js';
import { TestClient } from '../server/test/client.js';
import { renderMarkdown } from '../server/markdown/index.js';
import { bareInsert, barePublish, bareRoute, sameWritesInsert } from './floors.js';
import { clockMs, openFileLimit, pollerFor, type Poller } from './pollers.js';
import { sendFromChild } from './senders.js';
import { lighthouseFigures } from './lighthouse.js';
import { median, startFigures } from './warm-start.js';
import { stats, timeEach, type Stats } from './stats.js';
import { localQueues } from '../server/events/manager.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const SCALES = {
  '10k': { messages: 10_000, users: 1_000, channels: 50, unread: 5_000 },
  '100k': { messages: 100_000, users: 10_000, channels: 500, unread: 50_000 },
  '1m': { messages: 1_000_000, users: 10_000, channels: 500, unread: 50_000 },
} as const;
type ScaleName = keyof typeof SCALES;

interface Figure {
  db: string;
  name: string;
  value: number;
  unit: string;
  floor: number | null;
  goal: { max?: number; min?: number } | null;
  detail?: Record<string, unknown>;
}

const figures: Figure[] = [];
/** where the parked polls of a delivery figure are held (bench/pollers.ts) */
let pollMode: 'auto' | 'same' | 'child' = 'auto';

function record(figure: Figure) {
  figures.push(figure);
  const met = goalMet(figure);
  console.log(
    JSON.stringify({ bench: figure.name, db: figure.db, value: figure.value, unit: figure.unit,
      floor: figure.floor, goal: figure.goal, met, ...figure.detail }), // prettier-ignore
  );
}

function goalMet(f: Figure): boolean | null {
  if (!f.goal) return null;
  if (Number.isNaN(f.value)) return false;
  if (f.goal.max !== undefined && f.value > f.goal.max) return false;
  if (f.goal.min !== undefined && f.value < f.goal.min) return false;
  return true;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function freshPostgresSchema(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

interface Floors {
  route: Stats;
  insert: Awaited<ReturnType<typeof bareInsert>>;
  sameWrites: Awaited<ReturnType<typeof sameWritesInsert>>;
}

/** The scale figures on one database. */
async function databaseFigures(
  db: 'sqlite' | 'postgres',
  scale: (typeof SCALES)[ScaleName],
  rounds: number,
  floors: Floors,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const schema =
    db === 'postgres' ? await freshPostgresSchema(process.env.BENCH_DATABASE_URL!) : null;
  const config: Config = {
    ...configFromEnv({}),
    port: 0,
    dataDir,
    databaseUrl: schema?.url,
    rateLimitPerMinute: 10_000_000,
    demo: false,
  };
  try {
    const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, lock: false });
    const populated = await populate(
      handle,
      config,
      {
        ...POPULATE_DEFAULTS,
        users: scale.users,
        channels: scale.channels,
        messages: scale.messages,
        unreadFor: 'admin@populated.example',
        unread: scale.unread,
        stars: 500,
        reactions: Math.round(scale.messages / 50),
      },
      (line) => console.log(`  populate: ${line}`),
    );
    await handle.close();
    console.log(
      `[${db}] populated ${populated.messages} messages, ${populated.users} people, ${populated.channels} channels in ${populated.seconds.toFixed(1)} s`,
    );
    record({ db, name: 'populate_seconds', value: round(populated.seconds), unit: 's',
      floor: null, goal: db === 'sqlite' && scale.messages >= 1_000_000 ? { max: 120 } : null }); // prettier-ignore

    const server = await startServer(config);
    try {
      await serverFigures(db, server, rounds, floors, scale);
    } finally {
      await server.close();
    }
    heldApart(db, dataDir, config.databaseUrl);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await schema?.drop();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * How each of the 16 senders sends, for the figure and its floor alike: a warm-up of 100
 * messages (1,600 in all, uncounted), then three timed rounds of `rounds * 5` messages each; the
 * figure is the median round (bench/senders.ts).
 */
const sendPlan = (rounds: number) => ({
  perClient: Math.max(10, rounds * 5),
  warmUp: 100,
  rounds: 3,
});

async function serverFigures(
  db: 'sqlite' | 'postgres',
  server: Awaited<ReturnType<typeof startServer>>,
  rounds: number,
  floors: Floors,
  scale: (typeof SCALES)[ScaleName],
) {
  const admin = await TestClient.login(server.url, 'admin@populated.example', 'parley-demo');
  const route = floors.route.p50_ms;
  await registerFigures(db, admin, rounds, route, scale);
  await messagesFigures(db, admin, rounds, route);
  await searchFigures(db, admin, rounds, route);
  await sendFigures(db, admin, server.url, rounds, floors);
  await deliveryFigures(db, server, scale.users);
}

/** POST /register, the first after the start and then as usual. */
async function registerFigures(
  db: 'sqlite' | 'postgres',
  admin: TestClient,
  rounds: number,
  route: number,
  scale: (typeof SCALES)[ScaleName],
) {
  // The first registration after start reads from the database what later ones find in memory
  // (the people, the person's unread messages by conversation): reported beside the p50.
  const first = await registerAnswer(admin, 'gzip, deflate, br');
  const firstMs = Math.round(first.ms);
  await readRegisterAnswer(admin, first);
  // POST /register for the person with the unread messages, asking for the encodings a browser
  // takes (the server answers gzip), timed to the answer's last byte. The client's own decoding
  // and parsing of the answer (several MB of JSON) is its work, not the server's: it is timed
  // apart and shown beside the figure.
  const parses: number[] = [];
  const register = stats(
    await (async () => {
      const samples: number[] = [];
      for (let i = -2; i < rounds; i++) {
        const answer = await registerAnswer(admin, 'gzip, deflate, br');
        const parse = await readRegisterAnswer(admin, answer);
        if (i < 0) continue; // two warm-up calls, as timeEach makes
        samples.push(answer.ms);
        parses.push(parse);
      }
      return samples;
    })(),
  );
  // Sizes on the wire, measured apart from the timing.
  const sizes = {
    response_bytes: await registerBytes(admin, 'identity'),
    gzip_bytes: await registerBytes(admin, 'gzip'),
    br_bytes: await registerBytes(admin, 'br'),
  };
  record({ db, name: 'register_p50', value: register.p50_ms, unit: 'ms', floor: route,
    goal: { max: db === 'sqlite' ? 60 : 120 },
    detail: { unread: scale.unread, ...sizes, p95_ms: register.p95_ms, first_ms: firstMs,
      client_parse_p50_ms: stats(parses).p50_ms } }); // prettier-ignore
}

/** GET /messages for the common narrows. */
async function messagesFigures(
  db: 'sqlite' | 'postgres',
  admin: TestClient,
  rounds: number,
  route: number,
) {
  const me = (await admin.get('/users/me')).body.user_id as number;
  const dmPartner = (
    await admin.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'dm' }],
    })
  ).body.messages[0]?.display_recipient?.find((u: { id: number }) => u.id !== me)?.id;
  const someSender = (
    await admin.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] })
  ).body.messages[0].sender_id as number;
  const narrows: [string, unknown[], string | number][] = [
    ['home_first_unread', [], 'first_unread'],
    ['channel', [{ operator: 'channel', operand: 'firehose' }], 'newest'],
    ['topic', [{ operator: 'channel', operand: 'firehose' }, { operator: 'topic', operand: 'general chat' }], 'newest'],
    ['dm_conversation', [{ operator: 'dm', operand: [dmPartner ?? someSender] }], 'newest'],
    ['is_unread', [{ operator: 'is', operand: 'unread' }], 'newest'],
    ['is_starred', [{ operator: 'is', operand: 'starred' }], 'newest'],
    ['is_mentioned', [{ operator: 'is', operand: 'mentioned' }], 'newest'],
    ['is_alerted', [{ operator: 'is', operand: 'alerted' }], 'newest'],
    ['dm_including', [{ operator: 'dm-including', operand: dmPartner ?? someSender }], 'newest'],
    ['sender', [{ operator: 'sender', operand: someSender }], 'newest'],
    ['has_link', [{ operator: 'has', operand: 'link' }], 'newest'],
    ['is_resolved', [{ operator: 'is', operand: 'resolved' }], 'newest'],
  ]; // prettier-ignore
  for (const [name, narrow, anchor] of narrows) {
    let count = 0;
    const s = await timeEach(rounds, async () => {
      const r = await admin.get('/messages', { anchor, num_before: 50, num_after: 50, narrow });
      if (r.body.result !== 'success') throw new Error(`${name}: ${JSON.stringify(r.body)}`);
      count = r.body.messages.length;
    });
    record({ db, name: `messages_${name}_p50`, value: s.p50_ms, unit: 'ms', floor: route,
      goal: { max: db === 'sqlite' ? 10 : 20 }, detail: { messages: count, p95_ms: s.p95_ms } }); // prettier-ignore
  }
}

async function searchFigures(
  db: 'sqlite' | 'postgres',
  admin: TestClient,
  rounds: number,
  route: number,
) {
  // Full-text search: a word that occurs nowhere, a common one, and a quoted phrase of two.
  for (const [name, word] of [
    ['search_nowhere', 'zyxwvutsrq'],
    ['search_common', 'roadmap'],
    ['search_phrase', '"roadmap budget"'],
  ] as const) {
    const s = await timeEach(Math.min(rounds, 10), async () => {
      const r = await admin.get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'search', operand: word }],
      });
      if (r.body.result !== 'success') throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    });
    record({ db, name: `${name}_p50`, value: s.p50_ms, unit: 'ms', floor: route,
      goal: { max: db === 'sqlite' ? 20 : 40 }, detail: { p95_ms: s.p95_ms } }); // prettier-ignore
  }
}

async function sendFigures(
  db: 'sqlite' | 'postgres',
  admin: TestClient,
  url: string,
  rounds: number,
  floors: Floors,
) {
  // Sending: one client, then 16 at once.
  const send = (client: TestClient, i: number) =>
    client.post('/messages', {
      type: 'stream',
      to: 'firehose',
      topic: 'bench',
      content: `bench message ${i}`,
    });
  const one = await timeEach(rounds * 5, (i) => send(admin, i));
  record({ db, name: 'send_one_client_p50', value: one.p50_ms, unit: 'ms',
    floor: floors.insert.one.p50_ms, goal: { max: db === 'sqlite' ? 5 : 10 },
    detail: { p99_ms: one.p99_ms } }); // prettier-ignore
  // Sixteen people sending at once, from another process (bench/senders.ts), as the floor's.
  const senders = 16;
  const throughput = await sendFromChild({
    url: `${url}/api/v1/messages`,
    headers: {
      authorization: 'Basic ' + Buffer.from(`${admin.email}:${admin.apiKey}`).toString('base64'),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'type=stream&to=firehose&topic=bench&content=bench%20message%20{i}',
    clients: senders,
    ...sendPlan(rounds),
  });
  record({ db, name: 'send_16_clients_per_s', value: throughput.median, unit: 'msg/s',
    floor: floors.insert.concurrent_per_s,
    // PostgreSQL within 2x of SQLite's goal, as every other figure.
    goal: { min: db === 'sqlite' ? floors.insert.concurrent_per_s
      : Math.round(floors.insert.concurrent_per_s / 2) },
    detail: { rounds: throughput.rounds, floor_rounds: floors.insert.concurrent_rounds } }); // prettier-ignore
  // What group commit buys: the figure over a server that syncs a message's writes once per
  // request (bench/floors.ts sameWritesInsert), with the same senders.
  record({ db, name: 'send_16_clients_over_same_writes', unit: 'x',
    value: round(throughput.median / floors.sameWrites.concurrent_per_s),
    floor: floors.sameWrites.concurrent_per_s, goal: { min: db === 'sqlite' ? 1 : 0.5 } }); // prettier-ignore
}

/** Delivery of one message to many parked long-polls. */
async function deliveryFigures(
  db: 'sqlite' | 'postgres',
  server: Awaited<ReturnType<typeof startServer>>,
  users: number,
) {
  const url = server.url;
  // 50,000: several queues a person (as people with several tabs and devices), 5 each at 10,000.
  // Over HTTP/1.1 each parked poll holds a socket of its own: where the file limit is lower
  // (20,000 in our sandbox, which cannot raise it), as many as it allows. The 50,000 are held as
  // behind the shipped balancer, which speaks HTTP/2 to the process: streams on 50 connections.
  const most = Math.min(50_000, (openFileLimit() ?? Infinity) - 1_000);
  const rounds: { waiters: number; mode: typeof pollMode | 'h2' }[] = [
    { waiters: 1_000, mode: pollMode },
    { waiters: Math.min(10_000, users - 1), mode: pollMode },
    ...(most < 50_000 ? [{ waiters: most, mode: pollMode }] : []),
    { waiters: 50_000, mode: 'h2' as const },
  ];
  // BENCH_POLLS=50000 (say): only those counts. Without it, every count but 50,000, which
  // `heldApart` measures in a process of its own.
  const only = process.env.BENCH_POLLS?.split(',').map(Number);
  const wanted = (n: number) => (only ? only.includes(n) : n !== 50_000);
  for (const { waiters, mode } of rounds.filter((r) => wanted(r.waiters))) {
    const pollers = pollerFor(waiters, mode);
    if (!pollers) {
      console.log(
        `delivery to ${waiters} polls not measured: ${openFileLimit()} file descriptors allowed (raise with ulimit -n)`,
      );
      continue;
    }
    const name = `delivery_${waiters}_${mode === 'h2' ? 'h2_' : ''}polls_p99`;
    const goal = { max: waiters > 1_000 ? 1_000 : 150 };
    let delivery: Awaited<ReturnType<typeof longPollDelivery>>;
    try {
      delivery = await longPollDelivery(server, url, waiters, waiters > 1_000 ? 2 : 3, pollers);
    } catch (error) {
      // A figure that cannot be taken is a goal not met, with its reason; the other figures
      // (and the other database) are still measured.
      record({ db, name, value: Number.NaN, unit: 'ms', floor: null, goal,
        detail: { not_measured: String((error as Error).message ?? error) } }); // prettier-ignore
      continue;
    }
    record({ db, name, value: delivery.latency.p99_ms, unit: 'ms', floor: delivery.floor.p99_ms,
      goal, detail: { p50_ms: delivery.latency.p50_ms, rss_added_mb: delivery.rssAddedMb,
        heap_added_mb: delivery.heapAddedMb,
        polls_in: delivery.pollsIn } }); // prettier-ignore
    record({ db, name: `park_${waiters}_${mode === 'h2' ? 'h2_' : ''}polls_ms`, value: delivery.parkMs,
      unit: 'ms', floor: null, goal: waiters > 1_000 ? { max: 10_000 } : null }); // prettier-ignore
    if (waiters === 50_000)
      // The process with 50,000 polls parked: the server, and the bench's side of the queues.
      record({ db, name: 'parked_50000_polls_rss_mb', value: delivery.rssParkedMb, unit: 'MB',
        floor: null, goal: { max: 1024 }, detail: { polls_in: delivery.pollsIn,
          heap_limit_mb: v8.getHeapStatistics().heap_size_limit >> 20,
          added_per_1000_polls_mb: Math.round((delivery.rssAddedMb / waiters) * 1000 * 10) / 10 } }); // prettier-ignore
  }
}

/** V8's heap limit for the process that holds 50,000 polls: with the rest, it fits in 1 GB. */
const HELD_HEAP_MB = 768;

/**
 * The 50,000-poll figures, in a process of their own on the populated data (its SQLite
 * directory, or `databaseUrl`), as a deployment runs a server: fresh, with a memory budget (V8's
 * heap limited to HELD_HEAP_MB) rather than after the other rounds, whose garbage V8 keeps while
 * it may. Their lines are recorded here.
 */
function heldApart(db: 'sqlite' | 'postgres', dataDir: string, databaseUrl?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_POLLS: '50000' };
  delete env.BENCH_DATABASE_URL;
  if (databaseUrl) env.BENCH_DATABASE_URL = databaseUrl;
  const run = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HELD_HEAP_MB}`, '--import', 'tsx', path.join(root, 'bench/run.ts'),
      '--delivery-on', dataDir], // prettier-ignore
    { cwd: root, env, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = (run.stdout ?? '').split('\n').filter((l) => l.startsWith('{"bench"'));
  for (const line of lines) {
    const { bench, db: _db, value, unit, floor, goal, met: _met, ...detail } = JSON.parse(line);
    record({ db, name: bench, value: value ?? Number.NaN, unit, floor, goal, detail });
  }
  if (!lines.length)
    record({ db, name: 'delivery_50000_h2_polls_p99', value: Number.NaN, unit: 'ms', floor: null,
      goal: { max: 1_000 }, detail: { not_measured: `its process ended (${run.status ?? run.signal})` } }); // prettier-ignore
}

/**
 * `waiters` people register a queue for public-channel messages, park a GET /events each, and
 * the time from one send to each poll's answer is taken.
 */
async function longPollDelivery(
  server: Awaited<ReturnType<typeof startServer>>,
  url: string,
  waiters: number,
  rounds: number,
  pollers: () => Poller,
) {
  const queues = await registerWaiters(server, url, waiters);
  const sender = await TestClient.login(url, 'admin@populated.example', 'parley-demo');
  const samples: number[] = [];
  let parkMs = Number.NaN;
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  let rssParked = rssBefore;
  // The live objects the parked polls hold (after a full collection): what RSS, which V8 does not
  // give back at once, does not show when earlier work left room in the heap.
  const heapBefore = process.memoryUsage().heapUsed;
  let heapParked = heapBefore;
  const poller = pollers();
  try {
    // Round -1 warms up (as timeEach does for the other figures) and is not counted.
    for (let r = -1; r < rounds; r++) {
      const pollsSent = performance.now();
      const polls = poller.poll(
        queues.map((q) => ({
          url: `${url}/api/v1/events?${TestClient.encode({ queue_id: q.queue, last_event_id: q.last })}`,
          headers: { Authorization: q.auth },
        })),
      );
      // A failed poll fails the figure once awaited below, not as an unhandled rejection meanwhile.
      polls.catch(() => {});
      // Let every poll reach the server and park, as the floor does: a poll still on its way when
      // the message goes out would time the server's intake of polls, not the delivery.
      // The first round's polls are the queues' first: how long until all are parked, each read
      // through the database once (later ones are vouched for by their queue).
      if (r === -1) {
        await untilParked(server, queues, 0);
        parkMs = performance.now() - pollsSent;
      }
      await untilParked(server, queues, 500 + waiters / 10);
      // What the parked polls hold, not what earlier work left for the collector to take.
      collectGarbage();
      rssParked = Math.max(rssParked, process.memoryUsage().rss);
      heapParked = Math.max(heapParked, process.memoryUsage().heapUsed);
      const profile = await startProfile();
      const sent = clockMs();
      await sender.post('/messages', {
        type: 'stream',
        to: 'firehose',
        topic: 'delivery',
        content: `delivery ${r}`,
      });
      const acked = clockMs();
      const answers = await polls;
      if (process.env.BENCH_DEBUG) {
        const at = answers.map((a) => a.at - sent).sort((a, b) => a - b);
        console.log(
          `round ${r}: ack ${(acked - sent).toFixed(1)} first ${at[0]!.toFixed(1)} p50 ${at[at.length >> 1]!.toFixed(1)} last ${at[at.length - 1]!.toFixed(1)}`,
        );
      }
      await profile?.save(`delivery-${waiters}-round-${r}`);
      answers.forEach((a, i) => {
        if (a.lastEventId === undefined) throw new Error('a poll was answered without events');
        if (r >= 0) samples.push(a.at - sent);
        queues[i]!.last = a.lastEventId;
      });
    }
    // Fifty at a time, so that the idle keep-alive connections are reused rather than doubled.
    for (let i = 0; i < queues.length; i += 50)
      await Promise.all(
        queues
          .slice(i, i + 50)
          .map((q) => q.client.request('DELETE', '/events', { queue_id: q.queue })),
      );
  } finally {
    // A child's exit closes its sockets, leaving the descriptors to the floor's (and a failed
    // round leaves no poller behind).
    await poller.close();
  }
  const floorPoller = pollers();
  const floor = await barePublish(waiters, rounds, floorPoller).finally(() => floorPoller.close());
  return {
    pollsIn: poller.where,
    latency: stats(samples),
    floor,
    rssAddedMb: Math.round((rssParked - rssBefore) / 1e6),
    heapAddedMb: Math.round((heapParked - heapBefore) / 1e6),
    rssParkedMb: Math.round(rssParked / 1e6),
    parkMs: Math.round(parkMs),
  };
}

/** A full garbage collection now (V8's `gc`, exposed for this process at its first use). */
function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** Queues for `waiters` people, registered fifty at a time; each waits for any public message. */
async function registerWaiters(
  server: Awaited<ReturnType<typeof startServer>>,
  url: string,
  waiters: number,
) {
  const people = await server.ctx.db
    .selectFrom('users')
    .select(['delivery_email', 'api_key'])
    .where('role', '<=', 400)
    .where('is_bot', '=', 0)
    .where('delivery_email', '!=', 'admin@populated.example')
    .orderBy('id')
    .limit(waiters)
    .execute();
  // More queues than people: each person registers several, as from several tabs and devices.
  const clients = Array.from({ length: waiters }, (_, i) => people[i % people.length]!).map(
    (p) => new TestClient(url, p.delivery_email, p.api_key),
  );
  const queues: { client: TestClient; auth: string; queue: string; last: number }[] = [];
  for (let i = 0; i < clients.length; i += 50) {
    const batch = await Promise.all(
      clients.slice(i, i + 50).map(async (client) => {
        const r = await client.post('/register', {
          event_types: ['message'],
          fetch_event_types: ['message'],
          all_public_streams: true,
        });
        if (r.body.result !== 'success') throw new Error(JSON.stringify(r.body));
        const auth = 'Basic ' + Buffer.from(`${client.email}:${client.apiKey}`).toString('base64');
        return { client, auth, queue: r.body.queue_id as string, last: r.body.last_event_id as number }; // prettier-ignore
      }),
    );
    queues.push(...batch);
  }
  return queues;
}

/**
 * With BENCH_PROFILE_DIR set, a CPU profile of this process (the server's) from now until `save`,
 * written there as NAME.cpuprofile for Chromium's DevTools; otherwise null.
 */
async function startProfile() {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return null;
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return {
    async save(name: string) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/** Waits until every queue has a parked GET /events (at least `minMs`, at most a minute). */
async function untilParked(
  server: Awaited<ReturnType<typeof startServer>>,
  queues: { queue: string }[],
  minMs: number,
) {
  const begin = performance.now();
  await new Promise((resolve) => setTimeout(resolve, minMs));
  while (!queues.every((q) => localQueues(server.ctx).byId(q.queue)?.isWaiting)) {
    if (performance.now() - begin > 60_000) throw new Error('the long-polls did not all park');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Spawn to the first answered GET /server_settings, for the command `npm start` runs, on an
 * existing database (a restart): the first round builds what is missing and seeds the demo, and
 * is not counted.
 */
async function startToReady(rounds: number): Promise<Stats> {
  const samples: number[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-'));
  try {
    for (let r = 0; r < rounds + 1; r++) {
      const port = await freePort();
      const env = { ...process.env, PORT: String(port), PARLEY_DATA_DIR: dataDir,
        PARLEY_QUIET: '1' }; // prettier-ignore
      const begin = performance.now();
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: root,
        env,
        stdio: 'ignore',
      });
      try {
        for (;;) {
          if (child.exitCode !== null) throw new Error('the server exited while starting');
          if (performance.now() - begin > 300_000) throw new Error('the server did not start');
          try {
            const res = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`);
            if (res.ok) break;
          } catch {
            /* not listening yet */
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        if (r > 0) samples.push(performance.now() - begin);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return stats(samples);
}

/**
 * One POST /register answer as it came over the wire, asking for `encoding`, and the time from
 * the request to its last byte.
 */
async function registerAnswer(client: TestClient, encoding: string) {
  const auth = Buffer.from(`${client.email}:${client.apiKey}`).toString('base64');
  const begin = performance.now();
  return new Promise<{ body: Buffer; encoding?: string; ms: number }>((resolve, reject) => {
    http
      .request(
        `${client.baseUrl}/api/v1/register`,
        {
          method: 'POST',
          headers: {
            authorization: `Basic ${auth}`,
            'accept-encoding': encoding,
            'content-length': 0,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              body: Buffer.concat(chunks),
              encoding: res.headers['content-encoding'],
              ms: performance.now() - begin,
            }),
          );
        },
      )
      .on('error', reject)
      .end();
  });
}

/**
 * Decodes and parses a /register answer as a client would, checks it, and deletes its queue;
 * answers the time the decoding and parsing took.
 */
async function readRegisterAnswer(
  client: TestClient,
  answer: { body: Buffer; encoding?: string },
): Promise<number> {
  const begin = performance.now();
  const text =
    answer.encoding === 'br'
      ? zlib.brotliDecompressSync(answer.body)
      : answer.encoding === 'gzip'
        ? zlib.gunzipSync(answer.body)
        : answer.body;
  const body = JSON.parse(text.toString('utf8')) as { result: string; queue_id: string };
  const ms = performance.now() - begin;
  if (body.result !== 'success') throw new Error(`register failed: ${text.toString()}`);
  await client.request('DELETE', '/events', { queue_id: body.queue_id });
  return ms;
}

/** Bytes on the wire of one POST /register answer in the given encoding. */
async function registerBytes(client: TestClient, encoding: string): Promise<number> {
  const answer = await registerAnswer(client, encoding);
  await readRegisterAnswer(client, answer);
  return answer.body.length;
}

/** Bytes on the wire for the first page: index.html and what it links, as a browser asks. */
/** What the browser downloads for the first view, and Lighthouse's view of it. */
async function pageFigures() {
  const page = await firstPageBytes();
  record({ db: '-', name: 'first_page_kb', value: Math.round(page.bytes / 1024), unit: 'KB',
    floor: null, goal: null, detail: { files: page.files, encoding: page.encoding } }); // prettier-ignore
  // Lighthouse on the logged-in inbox (bench/lighthouse.ts), with the goals of issue 35.
  const lh = await lighthouseFigures(root);
  for (const [category, score] of Object.entries(lh.scores))
    record({ db: '-', name: `lighthouse_${category.replace('-', '_')}`, value: score,
      unit: 'score', floor: null, goal: { min: 100 } }); // prettier-ignore
  record({ db: '-', name: 'first_view_script_kb', unit: 'KB', floor: null, goal: { max: 250 },
    value: Math.round(lh.scriptTransferBytes / 1024) }); // prettier-ignore
  record({ db: '-', name: 'first_view_unused_script_kib', unit: 'KiB', floor: null,
    goal: { max: 30 }, value: Math.round(lh.unusedScriptBytes / 102.4) / 10,
    detail: { all_scripts_kib: Math.round(lh.unusedScriptBytesAllScripts / 1024),
      render_blocking_ms: lh.renderBlockingMs, font_display_failures: lh.fontDisplayFailures } }); // prettier-ignore
}

/** From a reload to the first message row, with the account kept in the browser and without. */
async function openingFigures() {
  const start = await startFigures(root);
  record({ db: '-', name: 'reload_to_first_row_warm_ms', unit: 'ms', floor: null,
    goal: { max: 300 }, value: Math.round(median(start.warm)),
    detail: { loads: start.warm.map(Math.round) } }); // prettier-ignore
  record({ db: '-', name: 'open_to_first_row_cold_ms', unit: 'ms', floor: null, goal: null,
    value: Math.round(median(start.cold)), detail: { loads: start.cold.map(Math.round) } }); // prettier-ignore
}

async function firstPageBytes(): Promise<{ bytes: number; files: number; encoding: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-page-'));
  const server = await startServer({ ...configFromEnv({}), port: 0, dataDir, demo: false });
  const get = (pathname: string) =>
    new Promise<{ body: Buffer; encoding: string }>((resolve, reject) => {
      http
        .get(`${server.url}${pathname}`, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              body: Buffer.concat(chunks),
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
            }),
          );
        })
        .on('error', reject);
    });
  try {
    const index = await get('/');
    const html = fs.readFileSync(path.join(root, 'dist', 'index.html'), 'utf8');
    const links = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    let bytes = index.body.length;
    const encodings = new Set([index.encoding]);
    for (const link of links) {
      const asset = await get(link);
      bytes += asset.body.length;
      encodings.add(asset.encoding);
    }
    return { bytes, files: links.length + 1, encoding: [...encodings].join('+') };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function markdownThroughput() {
  const users = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, full_name: `User ${i}` }));
  const ctx = { users, streams: [{ id: 1, name: 'general' }] };
  const message = 'Hey @**User 42**, see #**general** and https://example.com :smile:\n**Thanks**!';
  for (let i = 0; i < 500; i++) renderMarkdown(message, ctx);
  const rounds = 5000;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) renderMarkdown(message, ctx);
  return Math.round(((performance.now() - start) / rounds) * 1000 * 10) / 10;
}

/** The client's figures, from bench/client.ts in a process of its own. */
function clientFigures(users: number, channels: number) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/client.ts', String(users), String(channels)],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const line = run.stdout.trim().split('\n').pop();
  return run.status === 0 && line
    ? (JSON.parse(line) as { applyMs: number; typeaheadMs: number; keepMs: number })
    : null;
}

function printTable() {
  console.log('\n| database | figure | value | floor | goal | met |');
  console.log('|---|---|---|---|---|---|');
  for (const f of figures) {
    const goal = f.goal ? (f.goal.max !== undefined ? `<= ${f.goal.max}` : `>= ${f.goal.min}`) : '';
    const met = goalMet(f);
    console.log(
      `| ${f.db} | ${f.name} | ${Number.isNaN(f.value) ? `not measured: ${String(f.detail?.not_measured)}` : `${f.value} ${f.unit}`} | ${f.floor ?? ''} | ${goal} | ${met === null ? '' : met ? 'yes' : 'NO'} |`,
    );
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '100k' },
      rounds: { type: 'string', default: '20' },
      'skip-start': { type: 'boolean', default: false },
      polls: { type: 'string', default: 'auto' },
      'delivery-on': { type: 'string' },
    },
  });
  if (!['auto', 'same', 'child'].includes(values.polls)) throw new Error('--polls auto|same|child');
  pollMode = values.polls as typeof pollMode;
  if (values['delivery-on']) {
    // Only the delivery figures, on an existing populated SQLite directory (a copy: it is written).
    // With BENCH_DATABASE_URL, the populated database is that PostgreSQL one.
    const databaseUrl = process.env.BENCH_DATABASE_URL;
    const config = { ...configFromEnv({}), port: 0, dataDir: values['delivery-on'],
      rateLimitPerMinute: 10_000_000, demo: false, databaseUrl }; // prettier-ignore
    const server = await startServer(config);
    try {
      const { users } = await server.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('users'))
        .executeTakeFirstOrThrow();
      await deliveryFigures(databaseUrl ? 'postgres' : 'sqlite', server, Number(users));
    } finally {
      await server.close();
    }
    if (!process.env.BENCH_POLLS)
      heldApart(databaseUrl ? 'postgres' : 'sqlite', values['delivery-on'], databaseUrl);
    printTable();
    return;
  }
  const scaleName = values.scale as ScaleName;
  if (!(scaleName in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES)}`);
  const scale = SCALES[scaleName];
  const rounds = Number(values.rounds);
  console.log(
    `Parley benchmark at scale ${scaleName} (${JSON.stringify(scale)}), ${rounds} rounds`,
  );

  record({ db: '-', name: 'markdown_render_us', value: markdownThroughput(), unit: 'µs',
    floor: null, goal: null }); // prettier-ignore
  const route = await bareRoute(rounds * 5);
  record({ db: '-', name: 'floor_bare_route_p50', value: route.p50_ms, unit: 'ms', floor: null,
    goal: null }); // prettier-ignore
  const insert = await bareInsert(rounds * 5, 16, sendPlan(rounds));
  record({ db: '-', name: 'floor_bare_insert_p50', value: insert.one.p50_ms, unit: 'ms',
    floor: null, goal: null }); // prettier-ignore
  record({ db: '-', name: 'floor_bare_insert_16_clients_per_s', value: insert.concurrent_per_s,
    unit: 'msg/s', floor: null, goal: null, detail: { rounds: insert.concurrent_rounds } }); // prettier-ignore
  // The large channel's subscribers, the sender among them: the recipients of the figure's messages.
  const sameWrites = await sameWritesInsert(
    POPULATE_DEFAULTS.largeChannelSubscribers,
    16,
    sendPlan(rounds),
  );
  record({ db: '-', name: 'floor_same_writes_16_clients_per_s', unit: 'msg/s',
    value: sameWrites.concurrent_per_s, floor: null, goal: null,
    detail: { rounds: sameWrites.concurrent_rounds,
      recipients: POPULATE_DEFAULTS.largeChannelSubscribers } }); // prettier-ignore

  if (!values['skip-start']) {
    const start = await startToReady(5);
    record({ db: '-', name: 'start_to_ready_p50', value: start.p50_ms, unit: 'ms', floor: null,
      goal: { max: 800 } }); // prettier-ignore
  }
  if (fs.existsSync(path.join(root, 'dist', 'index.html'))) {
    await pageFigures();
    await openingFigures();
  }
  const client = clientFigures(scale.users, scale.channels);
  if (!client) throw new Error('the client figures could not be taken');
  record({ db: '-', name: 'client_apply_100k_events_ms', value: client.applyMs, unit: 'ms',
    floor: null, goal: { max: 1000 } }); // prettier-ignore
  record({ db: '-', name: 'client_typeahead_keystroke_ms', value: client.typeaheadMs, unit: 'ms',
    floor: null, goal: { max: 16 }, detail: { users: scale.users } }); // prettier-ignore
  record({ db: '-', name: 'client_keep_state_ms', value: client.keepMs, unit: 'ms',
    floor: null, goal: { max: 50 }, detail: { users: scale.users } }); // prettier-ignore

  const floors = { route, insert, sameWrites };
  await databaseFigures('sqlite', scale, rounds, floors);
  if (process.env.BENCH_DATABASE_URL) await databaseFigures('postgres', scale, rounds, floors);
  printTable();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
