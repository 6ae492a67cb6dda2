import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameWritesInsert } from '../../bench/floors.js';
import { sendFromChild } from '../../bench/senders.js';

/** The benchmark's concurrent senders (bench/senders.ts), run from a child process. */
describe('the benchmark senders', () => {
  const app = Fastify();
  const bodies: string[] = [];
  let url = '';
  beforeAll(async () => {
    app.post('/x', async (request) => {
      bodies.push((request.body as { content: string }).content);
      return { result: 'success' };
    });
    app.post('/refuse', async (_request, reply) => reply.code(400).send({ result: 'error' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => app.close());

  const plan = (
    route: string,
    body: string,
    clients: number,
    perClient: number,
    warmUp: number,
    rounds = 1,
  ) => ({
    url: `${url}${route}`,
    headers: { 'content-type': 'application/json' },
    body,
    clients,
    perClient,
    warmUp,
    rounds,
  });

  it('sends every request of every client, numbered, after the uncounted warm-up', async () => {
    bodies.length = 0;
    const result = await sendFromChild(plan('/x', '{"content":"n{i}"}', 4, 5, 2, 3));
    expect(result.rounds).toHaveLength(3);
    for (const rate of result.rounds) expect(rate).toBeGreaterThan(0);
    expect(result.median).toBe([...result.rounds].sort((a, b) => a - b)[1]);
    expect(bodies).toHaveLength(4 * 2 + 3 * 4 * 5);
    const counted = bodies.filter((b) => Number(b.slice(1)) < 1_000_000);
    // Every round's requests are numbered apart from the other rounds'.
    expect(new Set(counted)).toEqual(new Set(Array.from({ length: 60 }, (_, i) => `n${i}`)));
  });

  it('fails rather than counting a refused request', async () => {
    await expect(sendFromChild(plan('/refuse', '{}', 2, 2, 0))).rejects.toThrow(/400/);
  });
});

/** The floor of sending with 16 clients without group commit (bench/floors.ts). */
describe("the benchmark's floor of a message's writes", () => {
  it("writes each request's message, its search row and a row per recipient, in Parley's schema", async () => {
    let seen: { messages: number; recipients: number; unread: number; found: number } | null = null;
    const result = await sameWritesInsert(5, 3, { perClient: 4, warmUp: 2, rounds: 2 }, (db) => {
      const count = (q: string) => (db.prepare(q).get() as { n: number }).n;
      seen = {
        messages: count('SELECT count(*) AS n FROM messages'),
        recipients: count('SELECT count(*) AS n FROM user_messages'),
        unread: count('SELECT count(*) AS n FROM user_messages WHERE flags & 1 = 0'),
        // Through the search index the triggers fill: "message" is in every one.
        found: count(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'message'`),
      };
    });
    expect(result.concurrent_rounds).toHaveLength(2);
    for (const rate of result.concurrent_rounds) expect(rate).toBeGreaterThan(0);
    const sent = 3 * 2 + 2 * 3 * 4;
    expect(seen).toEqual({ messages: sent, recipients: 5 * sent, unread: 4 * sent, found: sent });
  });
});
