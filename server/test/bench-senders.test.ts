import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
