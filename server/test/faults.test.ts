/**
 * Faults of the storage under a running server (issue 38, item 4): a full disk, and the database
 * connections ended under load. Requests that meet one fail with a clear error in the API's
 * envelope (503 STORAGE_UNAVAILABLE, never a bare 500 or a hang), reads go on, the server goes
 * on by itself once the fault is gone, and nothing it acknowledged is lost.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { DEMO_PASSWORD, startTestServer } from './harness.js';

const send = (client: TestClient, content: string) =>
  client.post('/messages', { type: 'stream', to: 'general', topic: 'faults', content });

describe('a full disk (SQLite)', () => {
  it('refuses writes with a clear error while reads go on, and writes again once there is room', async () => {
    const server = await startTestServer({ db: 'sqlite' });
    try {
      const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
      // The database may not grow past the pages it has: to SQLite, the disk is full.
      const pages = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db))
        .rows[0]!.page_count;
      await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(server.ctx.db);
      const acknowledged: number[] = [];
      let refusal: { status: number; body: Record<string, unknown> } | null = null;
      for (let i = 0; i < 500 && !refusal; i++) {
        const r = await send(hamlet, `while the disk fills ${i} ${'x'.repeat(2000)}`);
        if (r.status === 200) acknowledged.push(r.body.id);
        else refusal = r;
      }
      expect(refusal).toMatchObject({
        status: 503,
        body: { result: 'error', code: 'STORAGE_UNAVAILABLE' },
      });
      expect(String(refusal!.body.msg)).toMatch(/disk is full or read-only.*nothing was changed/);
      // Reads go on.
      expect((await hamlet.get('/users/me')).status).toBe(200);
      const read = await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }]),
      });
      expect(read.status).toBe(200);

      // Room again: writes go on, and every acknowledged message is there.
      await sql.raw(`PRAGMA max_page_count = 1073741823`).execute(server.ctx.db);
      expect((await send(hamlet, 'after the disk was freed')).status).toBe(200);
      for (const id of acknowledged) expect((await hamlet.get(`/messages/${id}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('database connections ended (PostgreSQL)', () => {
  it('fails the requests in flight in the envelope, reconnects by itself and loses nothing acknowledged', async () => {
    const server = await startTestServer({ db: 'postgres' });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const name = new URL(server.ctx.config.databaseUrl!).searchParams.get('application_name');
      const senders = await Promise.all(
        ['hamlet', 'othello', 'cordelia', 'iago'].map((who) =>
          TestClient.login(server.url, `${who}@example.com`, DEMO_PASSWORD),
        ),
      );
      const acknowledged: number[] = [];
      const failures: { status: number; body: unknown }[] = [];
      let stop = false;
      const sending = senders.map(async (client, c) => {
        for (let i = 0; !stop; i++) {
          const r = await send(client, `under fire ${c}.${i}`);
          if (r.status === 200) acknowledged.push(r.body.id);
          else failures.push(r);
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Every connection of this server, the pool's and the listener's, ended at once, twice.
      for (let round = 0; round < 2; round++) {
        const ended = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [name],
        );
        expect(ended.rowCount).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      const before = acknowledged.length;
      // It goes on by itself: new messages are acknowledged after the last round.
      const until = Date.now() + 20_000;
      while (acknowledged.length < before + 20 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
      stop = true;
      await Promise.all(sending);
      expect(acknowledged.length).toBeGreaterThanOrEqual(before + 20);

      // Whatever failed said why, in the envelope: no bare 500.
      for (const failure of failures)
        expect(failure).toMatchObject({
          status: 503,
          body: { result: 'error', code: 'STORAGE_UNAVAILABLE' },
        });
      // Nothing acknowledged was lost.
      const reader = senders[0]!;
      for (const id of acknowledged) expect((await reader.get(`/messages/${id}`)).status).toBe(200);
    } finally {
      await admin.end();
      await server.close();
    }
  });
});
