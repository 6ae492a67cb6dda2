import fs from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { transact } from '../context.js';
import type { Delivery } from '../events/types.js';
import { drain } from './client.js';
import { type TestServer } from './harness.js';
import { databases, useServer } from './fixtures.js';

/** How long a commit may take to show on a loaded machine: the default second is too short. */
const SLOW = { timeout: 20_000 };

/** A promise resolved or rejected from outside: a sync to disk the test decides the end of. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

describe.each(databases('both'))('group commit of concurrent writes (%s)', (db) => {
  const w = useServer({ db, people: ['hamlet'] });
  const { hamlet } = w.as;
  let userId: number;
  beforeAll(async () => {
    userId = (
      await w.server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('delivery_email', '=', 'hamlet@example.com')
        .executeTakeFirstOrThrow()
    ).id;
  });

  const words = async () =>
    (
      await w.server.ctx.db
        .selectFrom('alert_words')
        .select('word')
        .where('user_id', '=', userId)
        .execute()
    )
      .map((r) => r.word)
      .sort();

  const write = (word: string, fail = false) =>
    transact(w.server.ctx, async (trx, events: Delivery[]) => {
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
    const publish = vi.spyOn(w.server.ctx.queues.bus, 'publish');
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

  it('rolls back a failing first and last write of a batch and keeps the one between', async () => {
    const results = await Promise.allSettled([
      write('first', true),
      write('middle'),
      write('last', true),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect(await words()).toEqual(['alpha', 'gamma', 'middle']);
    await w.server.ctx.db.deleteFrom('alert_words').where('word', '=', 'middle').execute();
  });

  it('a write alone rolls back entirely when it fails, and later writes go on', async () => {
    await expect(write('delta', true)).rejects.toThrow('refused delta');
    expect(await write('epsilon')).toBe('epsilon');
    expect(await words()).toEqual(['alpha', 'epsilon', 'gamma']);
  });

  it('writes that see each other run in arrival order', async () => {
    const seen: number[] = [];
    const count = () =>
      transact(w.server.ctx, async (trx) => {
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

  describe('the sync to disk', () => {
    let realToDisk: TestServer['ctx']['toDisk'];
    beforeAll(() => (realToDisk = w.server.ctx.toDisk));
    afterEach(() => {
      w.server.ctx.toDisk = realToDisk;
      vi.restoreAllMocks();
    });

    /** Each sync the server starts waits for the next of `gates`, then really syncs. */
    const syncsWaitFor = (...gates: ReturnType<typeof gate>[]) => {
      let started = 0;
      w.server.ctx.toDisk = () => {
        const g = gates[started++];
        return g ? g.promise.then(() => realToDisk()) : realToDisk();
      };
      return () => started;
    };

    it.runIf(db === 'sqlite')('on SQLite, syncs the write-ahead log to disk itself', async () => {
      const synced: string[] = [];
      const fsync = fs.fsync;
      vi.spyOn(fs, 'fsync').mockImplementation(((fd: number, done: (e: unknown) => void) => {
        // Which file the descriptor is open on (Linux).
        synced.push(fs.readlinkSync(`/proc/self/fd/${fd}`));
        return fsync(fd, done);
      }) as typeof fs.fsync);
      expect(await write('zeta')).toBe('zeta');
      expect(synced).toEqual([fs.realpathSync(`${w.server.dataDir}/parley.sqlite3-wal`)]);
      // The commit itself does not wait for the disk; the sync above is what makes it durable.
      const mode = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(w.server.ctx.db);
      expect(mode.rows[0].synchronous).toBe(1);
    });

    it('answers a write and publishes its events only once its commit is on disk', async () => {
      const publish = vi.spyOn(w.server.ctx.queues.bus, 'publish');
      const disk = gate();
      const syncs = syncsWaitFor(disk);
      let answered = false;
      const done = write('eta').then((w) => ((answered = true), w));
      // Committed (another connection's read sees it) and its sync started, not finished.
      await vi.waitFor(async () => expect(await words()).toContain('eta'), SLOW);
      await vi.waitFor(() => expect(syncs()).toBe(1), SLOW);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      expect(publish).not.toHaveBeenCalled();
      disk.open();
      expect(await done).toBe('eta');
      expect(publish).toHaveBeenCalledTimes(1);
    });

    it('runs the next batch while the last one syncs, and publishes in commit order', async () => {
      const publish = vi.spyOn(w.server.ctx.queues.bus, 'publish');
      const first = gate();
      const second = gate();
      const syncs = syncsWaitFor(first, second);
      const order: string[] = [];
      const a = write('theta').then((w) => order.push(w));
      await vi.waitFor(() => expect(syncs()).toBe(1), SLOW);
      // The first batch's sync has not ended, and the next write still commits.
      const b = write('iota').then((w) => order.push(w));
      await vi.waitFor(() => expect(syncs()).toBe(2), SLOW);
      expect(await words()).toEqual(expect.arrayContaining(['theta', 'iota']));
      // The later sync ends first: its write waits for the earlier one's.
      second.open();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      expect(publish).not.toHaveBeenCalled();
      first.open();
      await Promise.all([a, b]);
      expect(order).toEqual(['theta', 'iota']);
      const published = publish.mock.calls.map(
        (call) => ((call[0] as Delivery[])[0].event as { alert_words: string[] }).alert_words[0],
      );
      expect(published).toEqual(['theta', 'iota']);
    });

    it('refuses the writes of a batch whose sync failed, and publishes none of its events', async () => {
      const publish = vi.spyOn(w.server.ctx.queues.bus, 'publish');
      const logged = vi.spyOn(w.server.ctx.log, 'error').mockImplementation(() => {});
      const disk = gate();
      syncsWaitFor(disk);
      const refused = write('kappa');
      await vi.waitFor(async () => expect(await words()).toContain('kappa'), SLOW);
      disk.fail(new Error('EIO: the disk failed'));
      await expect(refused).rejects.toThrow('EIO: the disk failed');
      expect(publish).not.toHaveBeenCalled();
      expect(logged).toHaveBeenCalledWith(
        { err: expect.any(Error) },
        'Syncing the database to disk failed',
      );
      // The next write syncs anew and is answered.
      w.server.ctx.toDisk = realToDisk;
      expect(await write('lambda')).toBe('lambda');
    });

    it('a registration waits for a committed write and then has it in its snapshot, not its queue', async () => {
      const disk = gate();
      const syncs = syncsWaitFor(disk);
      const written = write('mu');
      await vi.waitFor(() => expect(syncs()).toBe(1), SLOW);
      let registered = false;
      const registration = hamlet
        .post('/register', { event_types: ['alert_words'] })
        .then((r) => ((registered = true), r));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(registered).toBe(false);
      disk.open();
      await written;
      const { body } = await registration;
      expect(body.alert_words).toContain('mu');
      expect(await drain(hamlet, body.queue_id)).toEqual([]);
    });
  });
});
