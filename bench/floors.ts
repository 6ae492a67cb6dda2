/**
 * The floors of the benchmark: what the machine does with no Parley in the way, measured in the
 * same run so that each figure can be read against it.
 *  - a bare route: Fastify answering a small JSON body;
 *  - a bare insert: Fastify plus one durable SQLite insert (WAL, synchronous=FULL) per request;
 *  - a message's writes: Fastify plus what Parley writes for one message (in Parley's own schema)
 *    in one durable transaction per request, the way a server without group commit would;
 *  - a bare publish: Fastify answering N parked long-polls when one POST arrives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { openDatabase } from '../server/db/index.js';
import { registerSearchFunctions } from '../server/db/search.js';
import { oneListener } from '../server/http/listener.js';
import { clockMs, type Poller } from './pollers.js';
import { sendFromChild, type SendPlan } from './senders.js';
import { stats, timeEach, type Stats } from './stats.js';

async function listen(app: ReturnType<typeof Fastify>): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

export async function bareRoute(rounds: number): Promise<Stats> {
  const app = Fastify();
  app.get('/x', async () => ({ result: 'success', msg: '' }));
  const url = await listen(app);
  try {
    return await timeEach(rounds, async () => {
      await (await fetch(`${url}/x`)).json();
    });
  } finally {
    await app.close();
  }
}

/** A floor's throughput, sent from another process as the figure's senders are (senders.ts). */
async function concurrentSenders(
  url: string,
  headers: Record<string, string>,
  body: string,
  clients: number,
  send: Pick<SendPlan, 'perClient' | 'warmUp' | 'rounds'>,
): Promise<{ concurrent_per_s: number; concurrent_rounds: number[] }> {
  const result = await sendFromChild({ url, headers, body, clients, ...send });
  return { concurrent_per_s: result.median, concurrent_rounds: result.rounds };
}

export interface InsertFloor {
  one: Stats;
  /** messages per second with `clients` concurrent senders (the median round) */
  concurrent_per_s: number;
  /** each timed round's messages per second */
  concurrent_rounds: number[];
  clients: number;
}

export async function bareInsert(
  rounds: number,
  clients: number,
  send: Pick<SendPlan, 'perClient' | 'warmUp' | 'rounds'>,
): Promise<InsertFloor> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-floor-'));
  const db = new SQLite(path.join(dir, 'floor.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE m (id INTEGER PRIMARY KEY AUTOINCREMENT, sender INTEGER, topic TEXT, content TEXT, sent INTEGER)',
  );
  const insert = db.prepare('INSERT INTO m (sender, topic, content, sent) VALUES (?, ?, ?, ?)');
  const app = Fastify();
  app.post('/x', async (request) => {
    const body = request.body as { content?: string } | undefined;
    const { lastInsertRowid } = insert.run(1, 't', body?.content ?? '', Date.now());
    return { result: 'success', msg: '', id: Number(lastInsertRowid) };
  });
  const url = await listen(app);
  const post = (i: number) =>
    fetch(`${url}/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `floor ${i}` }),
    }).then((r) => r.json());
  try {
    const one = await timeEach(rounds, (i) => post(i));
    const concurrent = await concurrentSenders(
      `${url}/x`,
      { 'content-type': 'application/json' },
      '{"content":"floor {i}"}',
      clients,
      send,
    );
    return { one, ...concurrent, clients };
  } finally {
    await app.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What group commit is measured against: each request writes what Parley writes for a message to
 * a channel of `recipients` subscribers (the message row with its indexes, its row in the search
 * index through Parley's triggers, one row per recipient with theirs) in a transaction of its own,
 * synced to disk before the answer (WAL, synchronous=FULL). The schema is Parley's, migrated into
 * an empty database, so this floor's indexes are shallower than those of a populated
 * organization: it errs in the floor's favour. No authentication, Markdown or events: only the
 * writes, from the same concurrent senders as the figure (form-encoded, as Parley's).
 */
export async function sameWritesInsert(
  recipients: number,
  clients: number,
  send: Pick<SendPlan, 'perClient' | 'warmUp' | 'rounds'>,
  /** shown the database before it is removed (the tests) */
  inspect?: (db: SQLite.Database) => void,
): Promise<{ concurrent_per_s: number; concurrent_rounds: number[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-floor-'));
  const migrated = await openDatabase({ dataDir: dir, lock: false });
  await migrated.close();
  const db = new SQLite(path.join(dir, 'parley.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // No realm, people or channel rows to refer to: the floor writes messages alone.
  db.pragma('foreign_keys = OFF');
  registerSearchFunctions(db);
  const message = db.prepare(
    `INSERT INTO messages (realm_id, sender_id, type, stream_id, topic, topic_key, dm_key, content,
       rendered_content, content_flags, date_sent, sending_client)
     VALUES (1, 1, 'stream', 1, 'bench', 'bench', NULL, ?, ?, 0, ?, 'floor') RETURNING id`,
  );
  const rows = db.prepare(
    `INSERT INTO user_messages (user_id, message_id, flags) VALUES ${Array.from(
      { length: recipients },
      () => '(?, ?, ?)',
    ).join(', ')}`,
  );
  const write = db.transaction((content: string) => {
    const { id } = message.get(content, `<p>${content}</p>`, Math.floor(Date.now() / 1000)) as {
      id: number;
    };
    // The first recipient is the sender, who has read it; the others have not.
    rows.run(Array.from({ length: recipients }, (_, k) => [k + 1, id, k === 0 ? 1 : 0]).flat());
    return id;
  });
  const app = Fastify();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post('/x', async (request) => {
    const body = request.body as { content?: string } | undefined;
    return { result: 'success', msg: '', id: write(body?.content ?? '') };
  });
  const url = await listen(app);
  try {
    const concurrent = await concurrentSenders(
      `${url}/x`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      'type=stream&to=firehose&topic=bench&content=bench%20message%20{i}',
      clients,
      send,
    );
    inspect?.(db);
    return concurrent;
  } finally {
    await app.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Time from the releasing POST to each of `waiters` parked GETs answering; `rounds` times. The
 * GETs are sent by `poller` (this process, or a child when descriptors are short).
 */
export async function barePublish(waiters: number, rounds: number, poller: Poller): Promise<Stats> {
  // HTTP/1.1 and HTTP/2 on one port, as the server (whichever the poller speaks).
  const app = Fastify({ serverFactory: oneListener({ longPollSeconds: 60 }) });
  let parked: ((value: unknown) => void)[] = [];
  app.get('/wait', () => new Promise((resolve) => parked.push(resolve)));
  app.post('/publish', async () => {
    const release = parked;
    parked = [];
    for (const resolve of release) resolve({ result: 'success', events: [{ id: 1 }] });
    return { result: 'success' };
  });
  const url = await listen(app);
  const samples: number[] = [];
  try {
    // Round -1 warms up, as for the figure, and is not counted.
    for (let r = -1; r < rounds; r++) {
      const polls = poller.poll(Array.from({ length: waiters }, () => ({ url: `${url}/wait` })));
      polls.catch(() => {});
      while (parked.length < waiters) await new Promise((resolve) => setTimeout(resolve, 5));
      const started = clockMs();
      await fetch(`${url}/publish`, { method: 'POST' });
      for (const answer of await polls) if (r >= 0) samples.push(answer.at - started);
    }
    return stats(samples);
  } finally {
    await app.close();
  }
}
