import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transact } from '../context.js';
import { findStream } from '../actions/streams.js';
import type { Realm } from './schema.js';
import { TestClient } from '../test/client.js';
import { DATABASES, startTestServer, type TestServer } from '../test/harness.js';

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
describe.each(DATABASES)('rows kept between requests (%s)', (db) => {
  let server: TestServer;
  let realm: Realm;
  let hamlet: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ db });
    realm = await server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', 'parley-demo');
  });
  afterAll(() => server?.close());

  const statements = () => {
    const executor = server.ctx.db.getExecutor();
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

  it('sees a change written by this server, however it was written', async () => {
    expect((await hamlet.get('/users/me')).body.full_name).toBe('King Hamlet');
    // Raw SQL, not the query builder: the statement itself is what drops the kept rows.
    await sql`update users set api_key = ${'k'.repeat(32)} where delivery_email = 'hamlet@example.com'`.execute(
      server.ctx.db,
    );
    expect((await hamlet.get('/users/me')).status).toBe(401);
    const renewed = new TestClient(server.url, hamlet.email, 'k'.repeat(32));
    expect((await renewed.get('/users/me')).status).toBe(200);
    hamlet = renewed;
  });

  it('sees a change committed by another process (a management command)', async () => {
    expect((await hamlet.get('/users/me')).status).toBe(200);
    await writeFromAnotherProcess(
      server,
      db,
      "update users set is_active = 0 where delivery_email = 'hamlet@example.com'",
    );
    // SQLite sees it at the next request; PostgreSQL's notification arrives just after the commit.
    await vi.waitFor(async () => expect((await hamlet.get('/users/me')).status).toBe(401), {
      timeout: 10_000,
    });
    expect((await hamlet.get('/users/me')).body.code).toBe('USER_DEACTIVATED');
    await sql`update users set is_active = 1 where delivery_email = 'hamlet@example.com'`.execute(
      server.ctx.db,
    );
    expect((await hamlet.get('/users/me')).status).toBe(200);
  });

  it('never keeps a value written by a transaction that is rolled back', async () => {
    const before = await findStream(server.ctx.db, realm, { name: 'engineering' });
    expect(before?.description).toBeTruthy();
    await transact(server.ctx, async (trx) => {
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
    expect((await findStream(server.ctx.db, realm, { name: 'engineering' }))?.description).toBe(
      before!.description,
    );
  });

  it('keeps a row read inside a transaction that had not written, and drops it at a later write', async () => {
    const denmark = (await findStream(server.ctx.db, realm, { name: 'engineering' }))!;
    await transact(server.ctx, async (trx) => {
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
        expect((await findStream(server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
          denmark.description,
        );
      }
    });
    expect((await findStream(server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
      'committed',
    );
    const copy = (await findStream(server.ctx.db, realm, { id: denmark.id }))!;
    // Callers get copies: changing one changes no later answer.
    copy.description = 'changed by a caller';
    expect((await findStream(server.ctx.db, realm, { id: denmark.id }))?.description).toBe(
      'committed',
    );
  });
});
