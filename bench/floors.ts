/**
 * The floors of the benchmark: what the machine does with no Parley in the way, measured in the
 * same run so that each figure can be read against it.
 *  - a bare route: Fastify answering a small JSON body;
 *  - a bare insert: Fastify plus one durable SQLite insert (WAL, synchronous=FULL) per request;
 *  - a bare publish: Fastify answering N parked long-polls when one POST arrives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
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
    // From another process, as the figure's senders are (bench/senders.ts).
    const concurrent = await sendFromChild({
      url: `${url}/x`,
      headers: { 'content-type': 'application/json' },
      body: '{"content":"floor {i}"}',
      clients,
      ...send,
    });
    return {
      one,
      concurrent_per_s: concurrent.median,
      concurrent_rounds: concurrent.rounds,
      clients,
    };
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
  const app = Fastify();
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
