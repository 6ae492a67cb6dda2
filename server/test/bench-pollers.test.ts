import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  childPoller,
  clockMs,
  h2ChildPoller,
  inProcessPoller,
  pollerFor,
} from '../../bench/pollers.js';
import { oneListener } from '../http/listener.js';

/**
 * The benchmark's delivery figures hold their parked polls here or in a child process; either
 * way each answer's time is read on the clock the sender reads, after the release.
 */
describe('the benchmark pollers', () => {
  // HTTP/1.1 and HTTP/2 on one port, as the server serves them.
  const app = Fastify({ serverFactory: oneListener({ longPollSeconds: 60 }) });
  let parked: ((value: unknown) => void)[] = [];
  let url = '';
  beforeAll(async () => {
    app.get('/wait', () => new Promise((resolve) => parked.push(resolve)));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => app.close());

  async function releaseWhenParked(count: number): Promise<number> {
    while (parked.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
    const released = clockMs();
    parked.forEach((resolve, i) => resolve({ events: [{ id: 100 + i }] }));
    parked = [];
    return released;
  }

  for (const [where, make] of [
    ['this process', inProcessPoller],
    ['a child process', childPoller],
    ['a child process over HTTP/2, as the balancer', h2ChildPoller],
  ] as const) {
    it(`answers every poll, after the release, from ${where}`, async () => {
      const poller = make();
      try {
        for (let round = 0; round < 2; round++) {
          const answers = poller.poll(Array.from({ length: 20 }, () => ({ url: `${url}/wait` })));
          const released = await releaseWhenParked(20);
          const got = await answers;
          expect(got).toHaveLength(20);
          for (const a of got) expect(a.at).toBeGreaterThanOrEqual(released);
          expect(new Set(got.map((a) => a.lastEventId))).toEqual(
            new Set(Array.from({ length: 20 }, (_, i) => 100 + i)),
          );
        }
      } finally {
        await poller.close();
      }
    });
  }

  it('refuses a failed poll rather than timing it', async () => {
    for (const make of [childPoller, h2ChildPoller]) {
      const poller = make();
      try {
        await expect(poller.poll([{ url: `${url}/nowhere` }])).rejects.toThrow(/404/);
      } finally {
        await poller.close();
      }
    }
  });

  it('holds polls in a child unless told otherwise, and nowhere past the open-file limit', () => {
    expect(pollerFor(10, 'auto')).toBe(childPoller);
    expect(pollerFor(10, 'child')).toBe(childPoller);
    expect(pollerFor(10, 'same')).toBe(inProcessPoller);
    expect(pollerFor(1e9, 'auto')).toBeNull();
    expect(pollerFor(1e9, 'same')).toBeNull();
    // HTTP/2 streams share connections: no count is past the limit.
    expect(pollerFor(1e9, 'h2')).toBe(h2ChildPoller);
  });
});
