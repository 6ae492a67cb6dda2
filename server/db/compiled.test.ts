import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { compiledForLength, compiledQuery } from './compiled.js';
import { databases, useServer } from '../test/fixtures.js';

describe.each(databases('both'))('queries compiled once (%s)', (db) => {
  const w = useServer({ db });

  const byEmail = compiledQuery((db, realmId: number, email: string) =>
    db
      .selectFrom('users')
      .select(['id', 'delivery_email'])
      .where('realm_id', '=', realmId)
      .where('delivery_email', '=', email)
      .orderBy('id')
      .limit(5),
  );

  it('answers each execution for its own values, as the query built anew would', async () => {
    const realmId = (
      await w.server.ctx.db.selectFrom('realms').select('id').executeTakeFirstOrThrow()
    ).id;
    for (const email of ['hamlet@example.com', 'iago@example.com', 'nobody@example.com']) {
      const fresh = await w.server.ctx.db
        .selectFrom('users')
        .select(['id', 'delivery_email'])
        .where('realm_id', '=', realmId)
        .where('delivery_email', '=', email)
        .orderBy('id')
        .limit(5)
        .execute();
      expect(await byEmail.all(w.server.ctx.db, realmId, email)).toEqual(fresh);
      expect(await byEmail.first(w.server.ctx.db, realmId, email)).toEqual(fresh[0]);
    }
    // The constant the query was built with (the limit) stays; only the values change.
    expect(await byEmail.all(w.server.ctx.db, realmId + 1000, 'hamlet@example.com')).toEqual([]);
  });

  it('runs inside a transaction, where it sees the transaction’s own writes', async () => {
    const insert = compiledQuery((db, userId: number, word: string) =>
      db.insertInto('alert_words').values({ user_id: userId, word }).returning(['word']),
    );
    const words = compiledQuery((db, userId: number) =>
      db.selectFrom('alert_words').select('word').where('user_id', '=', userId).orderBy('word'),
    );
    const hamlet = await w.server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('delivery_email', '=', 'hamlet@example.com')
      .executeTakeFirstOrThrow();
    await w.server.ctx.db
      .transaction()
      .execute(async (trx) => {
        expect(await insert.first(trx, hamlet.id, 'compiled-once')).toEqual({
          word: 'compiled-once',
        });
        expect((await words.all(trx, hamlet.id)).map((r) => r.word)).toContain('compiled-once');
        throw new Error('roll back');
      })
      .catch(() => {});
    expect((await words.all(w.server.ctx.db, hamlet.id)).map((r) => r.word)).not.toContain(
      'compiled-once',
    );
  });

  it('compiles a list query once per length, and builds longer lists anew', async () => {
    const emailsOf = compiledForLength(
      (db, ids: number[]) =>
        db.selectFrom('users').select('delivery_email').where('id', 'in', ids).orderBy('id'),
      3,
    );
    const people = await w.server.ctx.db
      .selectFrom('users')
      .select(['id', 'delivery_email'])
      .orderBy('id')
      .limit(5)
      .execute();
    expect(people).toHaveLength(5);
    // Lengths 1 to 5 (4 and 5 past the cache), each length twice with other ids.
    for (let n = 1; n <= 5; n++) {
      for (const chosen of [people.slice(0, n), people.slice(5 - n)]) {
        const got = await emailsOf(
          w.server.ctx.db,
          chosen.map((p) => p.id),
        );
        expect(got.map((r) => r.delivery_email)).toEqual(chosen.map((p) => p.delivery_email));
      }
    }
  });

  it('refuses a value that does not end up as a parameter of the query', async () => {
    const ignoresItsValue = compiledQuery((db, _id: number) =>
      db.selectFrom('users').select('id').where('id', '=', sql.lit(1)),
    );
    await expect(ignoresItsValue.all(w.server.ctx.db, 2)).rejects.toThrow(/not a parameter/);
  });
});
