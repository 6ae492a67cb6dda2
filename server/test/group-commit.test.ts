import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transact } from '../context.js';
import type { Delivery } from '../events/types.js';
import { DATABASES, startTestServer, type TestServer } from './harness.js';

describe.each(DATABASES)('group commit of concurrent writes (%s)', (db) => {
  let server: TestServer;
  let userId: number;
  beforeAll(async () => {
    server = await startTestServer({ db });
    userId = (
      await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('delivery_email', '=', 'hamlet@example.com')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => server?.close());

  const words = async () =>
    (
      await server.ctx.db
        .selectFrom('alert_words')
        .select('word')
        .where('user_id', '=', userId)
        .execute()
    )
      .map((r) => r.word)
      .sort();

  const write = (word: string, fail = false) =>
    transact(server.ctx, async (trx, events: Delivery[]) => {
      await trx.insertInto('alert_words').values({ user_id: userId, word }).execute();
      events.push({
        realmId: 1,
        userIds: [userId],
        event: { type: 'alert_words', alert_words: [word] },
      });
      if (fail) throw new Error(`refused ${word}`);
      return word;
    });

  it('commits writes that arrive together in one transaction, each as if alone', async () => {
    const publish = vi.spyOn(server.ctx.queues.bus, 'publish');
    const results = await Promise.allSettled([write('alpha'), write('beta', true), write('gamma')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused beta');
    // The failing write is rolled back to its savepoint; the others are durable.
    expect(await words()).toEqual(['alpha', 'gamma']);
    // One commit, one publication, carrying only the successful writes' events.
    expect(publish).toHaveBeenCalledTimes(1);
    const published = publish.mock.calls[0][0] as Delivery[];
    expect(published.map((d) => (d.event as { alert_words: string[] }).alert_words[0])).toEqual([
      'alpha',
      'gamma',
    ]);
    publish.mockRestore();
  });

  it('a write alone rolls back entirely when it fails, and later writes go on', async () => {
    await expect(write('delta', true)).rejects.toThrow('refused delta');
    expect(await write('epsilon')).toBe('epsilon');
    expect(await words()).toEqual(['alpha', 'epsilon', 'gamma']);
  });

  it('writes that see each other run in arrival order', async () => {
    const seen: number[] = [];
    const count = () =>
      transact(server.ctx, async (trx) => {
        const n = await trx
          .selectFrom('alert_words')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        seen.push(Number(n.n));
        await trx
          .insertInto('alert_words')
          .values({ user_id: userId, word: `w${seen.length}` })
          .execute();
      });
    await Promise.all([count(), count(), count(), count()]);
    expect(seen).toEqual([3, 4, 5, 6]);
  });
});
