/**
 * npm run bench: measures, on loopback against a real server with a temporary database,
 *  1. send-to-long-poll latency: one client sends, another client's pending GET /events answers;
 *  2. history fetches: GET /messages pages in a stream of 100,000 messages.
 * Prints figures and one JSON record per benchmark. Bounded in count and time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { configFromEnv } from '../server/config.js';
import { seedDemo } from '../server/demo/seed.js';
import { startServer } from '../server/server.js';
import { TestClient } from '../server/test/client.js';
import { renderMarkdown } from '../server/markdown/index.js';

const PASSWORD = 'bench-pass';

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    n: sorted.length,
    p50_ms: round(at(0.5)),
    p95_ms: round(at(0.95)),
    p99_ms: round(at(0.99)),
    max_ms: round(sorted[sorted.length - 1]),
  };
}

async function deliveryLatency(url: string, rounds: number) {
  const sender = await TestClient.login(url, 'hamlet@example.com', PASSWORD);
  const receiver = await TestClient.login(url, 'othello@example.com', PASSWORD);
  const reg = await receiver.post('/register', { event_types: ['message'] });
  let lastEventId = reg.body.last_event_id;
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const poll = receiver.get('/events', {
      queue_id: reg.body.queue_id,
      last_event_id: lastEventId,
    });
    await new Promise((r) => setTimeout(r, 5)); // let the long-poll park on the server
    const start = performance.now();
    const sent = sender.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'bench',
      content: `ping ${i}`,
    });
    const got = await poll;
    samples.push(performance.now() - start);
    await sent;
    const events = got.body.events as { id: number; type: string }[];
    if (!events.some((e) => e.type === 'message'))
      throw new Error('long-poll answered without the message');
    lastEventId = events[events.length - 1].id;
  }
  return stats(samples);
}

async function historyFetch(
  server: Awaited<ReturnType<typeof startServer>>,
  url: string,
  total: number,
) {
  const db = server.ctx.db;
  const hamlet = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'hamlet@example.com')
    .executeTakeFirstOrThrow();
  const stream = await db
    .selectFrom('streams')
    .selectAll()
    .where('name', '=', 'engineering')
    .executeTakeFirstOrThrow();
  const subs = await db
    .selectFrom('subscriptions')
    .select('user_id')
    .where('stream_id', '=', stream.id)
    .where('active', '=', 1)
    .execute();
  const insertStart = performance.now();
  const now = Math.floor(Date.now() / 1000);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < total; i += 500) {
      const rows = Array.from({ length: Math.min(500, total - i) }, (_, k) => ({
        realm_id: stream.realm_id,
        sender_id: hamlet.id,
        type: 'stream',
        stream_id: stream.id,
        topic: `topic ${(i + k) % 50}`,
        topic_key: `topic ${(i + k) % 50}`,
        dm_key: null,
        content: `history message ${i + k}`,
        rendered_content: `<p>history message ${i + k}</p>`,
        date_sent: now - total + i + k,
        last_edit_time: null,
        sending_client: 'bench',
      }));
      const ids = await trx.insertInto('messages').values(rows).returning('id').execute();
      const ums = ids.flatMap(({ id }) =>
        subs.map((s) => ({ user_id: s.user_id, message_id: id, flags: 1 })),
      );
      for (let j = 0; j < ums.length; j += 2000)
        await trx
          .insertInto('user_messages')
          .values(ums.slice(j, j + 2000))
          .execute();
    }
  });
  const insertSeconds = (performance.now() - insertStart) / 1000;
  const client = await TestClient.login(url, 'hamlet@example.com', PASSWORD);
  const narrow = [{ operator: 'channel', operand: stream.id }];
  const first = await client.get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow,
  });
  const newest = first.body.messages[0].id as number;
  const samples: Record<string, number[]> = { newest: [], middle: [], topic: [], search: [] };
  for (let i = 0; i < 30; i++) {
    let t = performance.now();
    await client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
    samples.newest.push(performance.now() - t);
    t = performance.now();
    await client.get('/messages', {
      anchor: newest - Math.floor(total / 2) + i * 97,
      num_before: 50,
      num_after: 50,
      narrow,
    });
    samples.middle.push(performance.now() - t);
    t = performance.now();
    await client.get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [...narrow, { operator: 'topic', operand: `topic ${i}` }],
    });
    samples.topic.push(performance.now() - t);
    if (i < 5) {
      t = performance.now();
      await client.get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [...narrow, { operator: 'search', operand: `message ${i}7` }],
      });
      samples.search.push(performance.now() - t);
    }
  }
  return {
    messages: total,
    insert_seconds: Math.round(insertSeconds * 100) / 100,
    newest_page_100: stats(samples.newest),
    middle_page_100: stats(samples.middle),
    topic_page_100: stats(samples.topic),
    search_page_50: stats(samples.search),
  };
}

/** Markdown rendering of a typical message with 2,000 mentionable users. */
function markdownThroughput() {
  const users = Array.from({ length: 2000 }, (_, i) => ({
    id: i + 1,
    full_name: `User Number ${i}`,
  }));
  const ctx = {
    users,
    streams: [{ id: 1, name: 'general' }],
    linkifiers: [
      { id: 1, pattern: '#(?<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' },
    ],
  };
  const message =
    'Hey @**User Number 42**, see #123 in #**general** and https://example.com :smile:\nThanks **a lot**!';
  for (let i = 0; i < 500; i++) renderMarkdown(message, ctx);
  const rounds = 5000;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) renderMarkdown(message, ctx);
  const perMessageUs = Math.round(((performance.now() - start) / rounds) * 1000 * 10) / 10;
  return { rounds, per_message_us: perMessageUs };
}

async function main() {
  const md = markdownThroughput();
  console.log(`Markdown: a typical message with 2,000 users renders in ${md.per_message_us} µs`);
  console.log(JSON.stringify({ bench: 'markdown_render', ...md }));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const config = {
    ...configFromEnv({}),
    port: 0,
    dataDir,
    rateLimitPerMinute: 1_000_000,
    databaseUrl: process.env.BENCH_DATABASE_URL,
  };
  const server = await startServer(config);
  try {
    await seedDemo(server.ctx, PASSWORD);
    const latency = await deliveryLatency(server.url, 300);
    console.log(
      `send -> other client's long-poll (loopback, ${latency.n} rounds): p50 ${latency.p50_ms} ms, p95 ${latency.p95_ms} ms, p99 ${latency.p99_ms} ms, max ${latency.max_ms} ms`,
    );
    console.log(JSON.stringify({ bench: 'delivery_latency', db: server.ctx.dialect, ...latency }));
    const history = await historyFetch(server, server.url, 100_000);
    console.log(
      `GET /messages in a stream of ${history.messages} messages (inserted in ${history.insert_seconds} s):`,
    );
    for (const k of [
      'newest_page_100',
      'middle_page_100',
      'topic_page_100',
      'search_page_50',
    ] as const)
      console.log(`  ${k}: p50 ${history[k].p50_ms} ms, p95 ${history[k].p95_ms} ms`);
    console.log(JSON.stringify({ bench: 'history_fetch', db: server.ctx.dialect, ...history }));
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
