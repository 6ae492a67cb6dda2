import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { transact } from '../context.js';
import { findStream, realmStreams } from '../lib/streams.js';
import { tableVersion } from './row-cache.js';
import type { Realm } from './schema.js';
import { TestClient } from '../test/client.js';
import { type TestServer } from '../test/harness.js';
import { databases, useServer } from '../test/fixtures.js';

/** What another process does: a management command, or another server on the same database. */
async function writeFromAnotherProcess(
  server: TestServer,
  db: 'sqlite' | 'postgres',
  text: string,
) {
  if (db === 'sqlite') {
    const other = new SQLite(path.join(server.dataDir, 'parley.sqlite3'));
    try {
      other.prepare(text).run();
    } finally {
      other.close();
    }
    return;
  }
  const { default: pg } = await import('pg');
  const other = new pg.Client({ connectionString: server.ctx.config.databaseUrl });
  await other.connect();
  try {
    await other.query(text);
  } finally {
    await other.end();
  }
}

/** The rows kept between requests (db/row-cache.ts). */
describe.each(databases('both'))('rows kept between requests (%s)', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet', 'othello'] });
  const { hamlet, othello, iago } = w.as;
  let realm: Realm;
  beforeAll(async () => {
    realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  });

  const statements = () => {
    const executor = w.server.ctx.db.getExecutor();
    return vi.spyOn(executor, 'executeQuery');
  };

  it('answers a repeated request without reading the organization or the person again', async () => {
    expect((await hamlet.get('/users/me')).status).toBe(200);
    const spy = statements();
    try {
      expect((await hamlet.get('/users/me')).status).toBe(200);
      const texts = spy.mock.calls.map(([q]) => (q as { sql: string }).sql);
      expect(texts.some((t) => /from "realms"/.test(t))).toBe(false);
      expect(
        texts.some((t) => /from "users" where "realm_id" = \? and "delivery_email"/.test(t)),
      ).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('sees a change written by this w.server, however it was written', async () => {
    expect((await hamlet.get('/users/me')).body.full_name).toBe('King Hamlet');
    // Raw SQL, not the query builder: the statement itself is what drops the kept rows.
    await sql`update users set api_key = ${'k'.repeat(32)} where delivery_email = 'hamlet@example.com'`.execute(
      w.server.ctx.db,
    );
    expect((await hamlet.get('/users/me')).status).toBe(401);
    const renewed = new TestClient(w.server.url, hamlet.email, 'k'.repeat(32));
    expect((await renewed.get('/users/me')).status).toBe(200);
    hamlet.adopt(renewed);
  });

  it('sees a change this server wrote with RETURNING (which SQLite counts as a read)', async () => {
    const stream = (await findStream(w.server.ctx.db, realm, { name: 'engineering' }))!;
    await sql`update streams set description = ${'returned'} where id = ${stream.id} returning id`.execute(
      w.server.ctx.db,
    );
    expect((await findStream(w.server.ctx.db, realm, { name: 'engineering' }))?.description).toBe(
      'returned',
    );
    await sql`update streams set description = ${stream.description} where id = ${stream.id}`.execute(
      w.server.ctx.db,
    );
  });

  it('sees a change committed by another process (a management command)', async () => {
    expect((await hamlet.get('/users/me')).status).toBe(200);
    await writeFromAnotherProcess(
      w.server,
      db,
      "update users set is_active = 0 where delivery_email = 'hamlet@example.com'",
    );
    // SQLite sees it at the next request; PostgreSQL's notification arrives just after the commit.
    await vi.waitFor(async () => expect((await hamlet.get('/users/me')).status).toBe(401), {
      timeout: 10_000,
    });
    expect((await hamlet.get('/users/me')).body.code).toBe('USER_DEACTIVATED');
    await sql`update users set is_active = 1 where delivery_email = 'hamlet@example.com'`.execute(
      w.server.ctx.db,
    );
    expect((await hamlet.get('/users/me')).status).toBe(200);
  });

  it('never keeps a value written by a transaction that is rolled back', async () => {
    const before = await findStream(w.server.ctx.db, realm, { name: 'engineering' });
    expect(before?.description).toBeTruthy();
    await transact(w.server.ctx, async (trx) => {
      await trx
        .updateTable('streams')
        .set({ description: 'never committed' })
        .where('id', '=', before!.id)
        .execute();
      // Read inside the transaction after its own write: the uncommitted value, not to be kept.
      expect((await findStream(trx, realm, { name: 'engineering' }))?.description).toBe(
        'never committed',
      );
      throw new Error('roll back');
    }).catch(() => {});
    expect((await findStream(w.server.ctx.db, realm, { name: 'engineering' }))?.description).toBe(
      before!.description,
    );
  });

  it('keeps a row read inside a transaction that had not written, and drops it at a later write', async () => {
    const denmark = (await findStream(w.server.ctx.db, realm, { name: 'engineering' }))!;
    await transact(w.server.ctx, async (trx) => {
      expect((await findStream(trx, realm, { id: denmark.id }))?.name).toBe('engineering');
      await trx
        .updateTable('streams')
        .set({ description: 'committed' })
        .where('id', '=', denmark.id)
        .execute();
      expect((await findStream(trx, realm, { id: denmark.id }))?.description).toBe('committed');
      if (db === 'postgres') {
        // Meanwhile another connection reads the committed value, which must not outlive the commit.
        // (SQLite's one connection waits for the transaction: the read would wait forever here.)
        expect((await findStream(w.server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
          denmark.description,
        );
      }
    });
    expect((await findStream(w.server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
      'committed',
    );
    const copy = (await findStream(w.server.ctx.db, realm, { id: denmark.id }))!;
    // Callers get copies: changing one changes no later answer.
    copy.description = 'changed by a caller';
    expect((await findStream(w.server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
      'committed',
    );
  });

  it('says when the people or their messages may have changed but by its own events', async () => {
    const users = () => tableVersion(w.server.ctx.db, 'users');
    const messages = () => tableVersion(w.server.ctx.db, 'user_messages');
    const before = { users: users(), messages: messages() };
    expect(before.users).not.toBeNull();
    // Reading changes nothing (on PostgreSQL, the notifications of earlier tests' writes may
    // still be arriving, each a change as far as this process can tell).
    await realmStreams(w.server.ctx.db, realm.id);
    if (db === 'sqlite') expect(users()).toBe(before.users);
    // This process writing the people.
    await sql`update users set timezone = 'UTC' where delivery_email = 'iago@example.com'`.execute(
      w.server.ctx.db,
    );
    expect(users()).not.toBe(before.users);
    if (db === 'postgres') {
      // No trigger announces the messages people have: never vouched for.
      expect(messages()).toBeNull();
      return;
    }
    const afterUsers = messages();
    expect(messages()).toBe(afterUsers);
    await sql`update user_messages set flags = flags where message_id = (select min(message_id) from user_messages)`.execute(
      w.server.ctx.db,
    );
    expect(messages()).not.toBe(afterUsers);
    // Another process committing anything.
    const beforeOther = { users: users(), messages: messages() };
    await writeFromAnotherProcess(
      w.server,
      db,
      "update users set timezone = 'Europe/Oslo' where delivery_email = 'iago@example.com'",
    );
    expect(users()).not.toBe(beforeOther.users);
    expect(messages()).not.toBe(beforeOther.messages);
  });

  it('registers with the unread messages and people another process changed', async () => {
    const unreadCount = (body: Record<string, unknown>) =>
      (body.unread_msgs as { count: number }).count;
    const register = async () => {
      const r = await hamlet.post('/register', {});
      expect(r.body.result).toBe('success');
      await hamlet.request('DELETE', '/events', { queue_id: r.body.queue_id });
      return r.body as Record<string, unknown>;
    };
    await register();
    const first = await register();
    if (db === 'sqlite') {
      // Nothing changed since: the copies are used without reading the counts that prove them.
      const spy = statements();
      try {
        await register();
        const texts = spy.mock.calls.map(([q]) => (q as { sql: string }).sql);
        expect(texts.some((s) => /count\(\*\).*from "user_messages"/.test(s))).toBe(false);
        expect(texts.some((s) => /count\(\*\).*from "users"/.test(s))).toBe(false);
      } finally {
        spy.mockRestore();
      }
    }
    const hamletId = (first.realm_users as { email: string; user_id: number }[]).find(
      (u) => u.email === hamlet.email,
    )!.user_id;
    await writeFromAnotherProcess(
      w.server,
      db,
      `update user_messages set flags = flags | 1 where user_id = ${hamletId} and (flags & 1) = 0`,
    );
    await writeFromAnotherProcess(
      w.server,
      db,
      `insert into users (realm_id, email, delivery_email, full_name, api_key, password_hash, role, date_joined)
       select realm_id, 'newcomer@example.com', 'newcomer@example.com', 'Newcomer', '${'n'.repeat(32)}', '', 400, date_joined
       from users where id = ${hamletId}`,
    );
    await vi.waitFor(
      async () => {
        const after = await register();
        expect(unreadCount(after)).toBe(0);
        expect(
          (after.realm_users as { email: string }[]).some(
            (u) => u.email === 'newcomer@example.com',
          ),
        ).toBe(true);
      },
      { timeout: 10_000 },
    );
    expect(unreadCount(first)).toBeGreaterThan(0);
  });

  it('sees alert words, mutes and linkifiers change between two sends, however they changed', async () => {
    const othelloId = (await othello.get('/users/me')).body.user_id as number;
    const hamletId = (await hamlet.get('/users/me')).body.user_id as number;
    const send = async (content: string) => {
      const r = await othello.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'kept rows',
        content,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.id as number;
    };
    const hamletSees = async (id: number) =>
      (await hamlet.get(`/messages/${id}`)).body.message as {
        flags: string[];
        content: string;
      };

    // Each is read once before it changes, so that a kept copy would show.
    expect((await hamletSees(await send('zebra crossing PR-7'))).flags).not.toContain(
      'has_alert_word',
    );
    expect((await hamlet.post('/users/me/alert_words', { alert_words: ['zebra'] })).status).toBe(
      200,
    );
    expect((await hamletSees(await send('zebra again'))).flags).toContain('has_alert_word');
    await writeFromAnotherProcess(
      w.server,
      db,
      `delete from alert_words where user_id = ${hamletId}`,
    );
    await vi.waitFor(
      async () =>
        expect((await hamletSees(await send('zebra once more'))).flags).not.toContain(
          'has_alert_word',
        ),
      { timeout: 10_000 },
    );

    expect((await hamletSees(await send('loud'))).flags).not.toContain('read');
    expect((await hamlet.post(`/users/me/muted_users/${othelloId}`, {})).status).toBe(200);
    expect((await hamletSees(await send('still loud'))).flags).toContain('read');
    expect((await hamlet.delete(`/users/me/muted_users/${othelloId}`)).status).toBe(200);
    expect((await hamletSees(await send('heard again'))).flags).not.toContain('read');

    expect((await hamletSees(await send('see PR-8'))).content).not.toContain('<a ');
    const filter = await iago.post('/realm/filters', {
      pattern: 'PR-(?P<id>[0-9]+)',
      url_template: 'https://example.com/pr/{id}',
    });
    expect(filter.status, JSON.stringify(filter.body)).toBe(200);
    expect((await hamletSees(await send('see PR-9'))).content).toContain(
      'href="https://example.com/pr/9"',
    );
    expect((await iago.delete(`/realm/filters/${filter.body.id}`)).status).toBe(200);
    expect((await hamletSees(await send('see PR-10'))).content).not.toContain('<a ');
  });
});
