import { CompiledQuery, type Compilable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { findStream } from '../lib/streams.js';
import { rowsWith } from '../db/flag-conditions.js';
import { databases, useServer } from './fixtures.js';

/**
 * The lookups every send makes are answered from an index, not by reading the whole table: a
 * channel by its name in any case, who muted the sender, the realm's linkifiers; and so are the
 * `is:alerted` and `dm-including` narrows. PostgreSQL is
 * told to avoid sequential scans, as a small test table would otherwise be read whole anyway.
 */
describe.each(databases('both'))('the per-send lookups use indexes (%s)', (db) => {
  const w = useServer({ db });

  async function plan(query: Compilable): Promise<string> {
    const compiled = query.compile();
    return w.server.ctx.db.connection().execute(async (conn) => {
      if (db === 'postgres') await conn.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
      try {
        const prefix = db === 'sqlite' ? 'explain query plan ' : 'explain ';
        const { rows } = await conn.executeQuery(
          CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]),
        );
        return rows.map((r: any) => r.detail ?? r['QUERY PLAN']).join('\n');
      } finally {
        if (db === 'postgres') await conn.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
      }
    });
  }

  it('finds a channel by its name in any case through streams_realm_lower_name', async () => {
    const realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    const stream = await w.server.ctx.db
      .selectFrom('streams')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('deactivated', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const found = await findStream(w.server.ctx.db, realm, { name: stream.name.toUpperCase() });
    expect(found?.id).toBe(stream.id);
    // The query findStream builds for a name.
    const byName = w.server.ctx.db
      .selectFrom('streams')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('deactivated', '=', 0)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', stream.name.toLowerCase()));
    expect(await plan(byName)).toContain('streams_realm_lower_name');
  });

  it('finds who muted a sender through muted_users_muted_user', async () => {
    const q = w.server.ctx.db
      .selectFrom('muted_users')
      .select('user_id')
      .where('muted_user_id', '=', 1);
    expect(await plan(q)).toContain('muted_users_muted_user');
  });

  it("reads a realm's linkifiers in order through linkifiers_realm", async () => {
    const q = w.server.ctx.db
      .selectFrom('linkifiers')
      .select(['id', 'pattern', 'url_template'])
      .where('realm_id', '=', 1)
      .orderBy('order')
      .orderBy('id');
    const p = await plan(q);
    expect(p).toContain('linkifiers_realm');
    // SQLite reads them in order from the index; PostgreSQL may still choose to sort a few rows.
    if (db === 'sqlite') expect(p).not.toContain('TEMP B-TREE');
  });

  it('reads who holds each role (the system groups) from users_realm_active_role alone', async () => {
    const q = w.server.ctx.db
      .selectFrom('users')
      .select(['role', 'id'])
      .where('realm_id', '=', 1)
      .where('is_active', '=', 1)
      .orderBy('role');
    const p = await plan(q);
    expect(p).toContain('users_realm_active_role');
    if (db === 'sqlite') expect(p).toContain('COVERING INDEX');
  });

  // Narrows of few rows read them from a partial index of the person's rows, not all of theirs.
  for (const [kind, index] of [
    ['alerted', 'user_messages_alerted'],
    ['private', 'user_messages_private'],
  ] as const)
    it(`reads a person's ${kind} rows through ${index}`, async () => {
      const q = w.server.ctx.db
        .selectFrom('user_messages as um')
        .select('um.message_id')
        .where('um.user_id', '=', 1)
        .where(rowsWith(kind, 'um'))
        .orderBy('um.message_id', 'desc');
      expect(await plan(q)).toContain(index);
    });
});
