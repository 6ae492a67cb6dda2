import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { runManage } from '../manage.js';
import { unreadMessages } from '../register/unread-messages.js';
import { PRIVATE_MESSAGE_BIT } from '../db/flag-conditions.js';
import { TestClient } from './client.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

/**
 * The shortcuts taken for large organizations (partial indexes, the people kept as JSON between
 * registrations, the unread summary's cap, recent conversations from the newest direct messages)
 * give the same answers as reading every row: checked on a small populated organization against
 * plain SQL over its tables.
 */
describe.each(DATABASES)('a populated organization (%s)', (db) => {
  let server: TestServer;
  let hamlet: TestClient;
  let hamletId: number;
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});

  const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id));
  /** hamlet's rows whose flags have any of `bits` (or none of them, for `clear`) */
  const rowsOf = async (where: ReturnType<typeof sql>) =>
    (
      await sql<{ id: number; stream_id: number | null; topic_key: string; dm_key: string }>`
        SELECT m.id, m.stream_id, m.topic_key, m.dm_key FROM user_messages um
        JOIN messages m ON m.id = um.message_id
        WHERE um.user_id = ${hamletId} AND ${where} ORDER BY m.id`.execute(server.ctx.db)
    ).rows.map((r) => ({ ...r, id: Number(r.id) }));
  const narrowIds = async (client: TestClient, narrow: unknown[]) => {
    const r = await client.get('/messages', {
      anchor: 'newest',
      num_before: 5000,
      num_after: 0,
      narrow: JSON.stringify(narrow),
    });
    expect(r.status).toBe(200);
    return (r.body.messages as { id: number }[]).map((m) => m.id);
  };

  beforeAll(async () => {
    server = await startTestServer({ db });
    const args = ['populate', '--users', '30', '--channels', '5', '--messages', '2500'];
    args.push('--unread-for', 'hamlet@example.com', '--unread', '300', '--stars', '12');
    expect(await runManage(args, server.ctx.config)).toBe(0);
    server = await server.restart();
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    hamletId = (await hamlet.get('/users/me')).body.user_id;
    // Mentions and a direct message sent the ordinary way, after the populated history.
    const iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    for (const content of ['@**King Hamlet** look', '@**all** everyone', 'no mention'])
      expect(
        (
          await iago.post('/messages', {
            type: 'stream',
            to: 'general',
            topic: 'scale',
            content,
          })
        ).status,
      ).toBe(200);
    expect(
      (
        await iago.post('/messages', {
          type: 'direct',
          to: JSON.stringify([hamletId]),
          content: 'hi',
        })
      ).status,
    ).toBe(200);
  }, 180_000);
  afterAll(async () => {
    quiet.mockRestore();
    await server?.close();
  });

  it('marks every row of a direct message, sent or populated, for the index of direct messages', async () => {
    const unmarked = await sql<{ n: number }>`
      SELECT COUNT(*) AS n FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE m.type = 'private' AND (um.flags & ${sql.lit(PRIVATE_MESSAGE_BIT)}) = 0`.execute(
      server.ctx.db,
    );
    expect(Number(unmarked.rows[0]!.n)).toBe(0);
    const marked = await sql<{ n: number }>`
      SELECT COUNT(*) AS n FROM user_messages um JOIN messages m ON m.id = um.message_id
      WHERE m.type <> 'private' AND (um.flags & ${sql.lit(PRIVATE_MESSAGE_BIT)}) <> 0`.execute(
      server.ctx.db,
    );
    expect(Number(marked.rows[0]!.n)).toBe(0);
    // The mark is no flag of the API.
    const dm = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([['is', 'dm']]),
    });
    expect(dm.body.messages[0].flags).toEqual([]);
  });

  it('summarizes every unread message at /register, each in its conversation', async () => {
    const truth = await rowsOf(sql`(um.flags & 1) = 0`);
    expect(truth.length).toBeGreaterThan(300);
    const unread = (await hamlet.post('/register', {})).body.unread_msgs;
    expect(unread.old_unreads_missing).toBe(false);
    const listed: number[] = [];
    const byId = new Map(truth.map((r) => [r.id, r]));
    for (const s of unread.streams) {
      expect(s.unread_message_ids).toEqual([...s.unread_message_ids].sort((a, b) => a - b));
      for (const id of s.unread_message_ids) {
        expect(byId.get(id)?.stream_id).toBe(s.stream_id);
        expect(byId.get(id)?.topic_key).toBe(s.topic.toLowerCase());
      }
      listed.push(...s.unread_message_ids);
    }
    for (const p of unread.pms) {
      for (const id of p.unread_message_ids)
        expect(byId.get(id)?.dm_key).toBe(
          [hamletId, p.other_user_id].sort((a, b) => a - b).join(','),
        );
      listed.push(...p.unread_message_ids);
    }
    for (const h of unread.huddles) listed.push(...h.unread_message_ids);
    expect(listed.sort((a, b) => a - b)).toEqual(ids(truth));
    const mentioned = await rowsOf(sql`(um.flags & 1) = 0 AND (um.flags & 8) <> 0`);
    expect(unread.mentions).toEqual(expect.arrayContaining(ids(mentioned)));
    expect(ids(mentioned).length).toBeGreaterThan(0);
  });

  it('caps the unread summary at the newest unread messages and says so', async () => {
    const truth = ids(await rowsOf(sql`(um.flags & 1) = 0`));
    const user = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', hamletId)
      .executeTakeFirstOrThrow();
    const capped = await unreadMessages(server.ctx, user, 100);
    expect(capped.old_unreads_missing).toBe(true);
    const listed = [
      ...capped.streams.flatMap((s) => s.unread_message_ids),
      ...capped.pms.flatMap((p) => p.unread_message_ids),
      ...capped.huddles.flatMap((h) => h.unread_message_ids),
    ].sort((a, b) => a - b);
    expect(listed).toEqual(truth.slice(-100));
    expect(capped.count).toBeLessThanOrEqual(100);
    const whole = await unreadMessages(server.ctx, user, truth.length);
    expect(whole.old_unreads_missing).toBe(false);
  });

  it('lists recent direct conversations from the newest 1000 direct messages', async () => {
    const dms = await rowsOf(sql`m.type = 'private'`);
    expect(dms.length).toBeGreaterThan(10);
    const newest = dms.slice(-1000);
    const latest = new Map<string, number>();
    for (const m of newest) latest.set(m.dm_key, Math.max(latest.get(m.dm_key) ?? 0, m.id));
    const expected = [...latest]
      .sort((a, b) => b[1] - a[1])
      .map(([key, max]) => ({
        max_message_id: max,
        user_ids: key
          .split(',')
          .map(Number)
          .filter((id) => id !== hamletId),
      }));
    const register = (await hamlet.post('/register', {})).body;
    expect(register.recent_private_conversations).toEqual(expected);
  });

  it('reads flag narrows and the first unread message as a scan of every row would', async () => {
    const cases: [unknown[], ReturnType<typeof sql>][] = [
      [[['is', 'starred']], sql`(um.flags & 2) <> 0`],
      [[['is', 'mentioned']], sql`(um.flags & 56) <> 0`],
      [[['is', 'unread']], sql`(um.flags & 1) = 0`],
      [[['is', 'dm']], sql`m.type = 'private'`],
      [
        [
          ['is', 'private'],
          ['is', 'unread'],
        ],
        sql`m.type = 'private' AND (um.flags & 1) = 0`,
      ],
    ];
    for (const [narrow, where] of cases) {
      const truth = ids(await rowsOf(where));
      expect(truth.length, JSON.stringify(narrow)).toBeGreaterThan(0);
      expect(await narrowIds(hamlet, narrow), JSON.stringify(narrow)).toEqual(truth.slice(-5000));
    }
    // Negated, the index is not used and the answer is the complement.
    const all = ids(await rowsOf(sql`1 = 1`));
    const starred = new Set(ids(await rowsOf(sql`(um.flags & 2) <> 0`)));
    expect(
      await narrowIds(hamlet, [{ operator: 'is', operand: 'starred', negated: true }]),
    ).toEqual(all.filter((id) => !starred.has(id)).slice(-5000));

    const firehose = await server.ctx.db
      .selectFrom('streams')
      .select('id')
      .where('name', '=', 'firehose')
      .executeTakeFirstOrThrow();
    for (const narrow of [[], [['channel', firehose.id]], [['channel', 'general']]]) {
      const streamId =
        narrow.length === 0
          ? null
          : narrow[0]![1] === 'general'
            ? (
                await server.ctx.db
                  .selectFrom('streams')
                  .select('id')
                  .where('name', '=', 'general')
                  .executeTakeFirstOrThrow()
              ).id
            : firehose.id;
      const unread = await rowsOf(
        streamId === null
          ? sql`(um.flags & 1) = 0`
          : sql`(um.flags & 1) = 0 AND m.stream_id = ${streamId}`,
      );
      const r = await hamlet.get('/messages', {
        anchor: 'first_unread',
        num_before: 0,
        num_after: 0,
        narrow: JSON.stringify(narrow),
      });
      expect(r.body.anchor, JSON.stringify(narrow)).toBe(unread[0]!.id);
    }
  });

  it('gives realm_users as GET /users does to every role, and follows changes', async () => {
    const viewers = ['iago@example.com', 'hamlet@example.com', 'polonius@example.com'];
    const check = async () => {
      for (const email of viewers) {
        const c = await TestClient.login(server.url, email, DEMO_PASSWORD);
        const register = (await c.post('/register', {})).body;
        const users = (await c.get('/users', { include_custom_profile_fields: true })).body
          .members as { user_id: number; is_active: boolean }[];
        const byId = (list: { user_id: number }[]) =>
          new Map(list.map((u) => [u.user_id, u] as const));
        expect(byId(register.realm_users), email).toEqual(byId(users.filter((u) => u.is_active)));
        expect(byId(register.realm_non_active_users), email).toEqual(
          byId(users.filter((u) => !u.is_active)),
        );
      }
    };
    await check();
    // A change of name, and addresses hidden from all but administrators.
    expect((await hamlet.patch('/settings', { full_name: 'Prince Hamlet' })).status).toBe(200);
    expect((await hamlet.patch('/settings', { email_address_visibility: 3 })).status).toBe(200);
    await check();
    const iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    const polonius = await TestClient.login(server.url, 'polonius@example.com', DEMO_PASSWORD);
    const seen = async (c: TestClient) =>
      ((await c.post('/register', {})).body.realm_users as any[]).find(
        (u) => u.user_id === hamletId,
      );
    expect((await seen(iago)).full_name).toBe('Prince Hamlet');
    expect((await seen(iago)).delivery_email).toBe('hamlet@example.com');
    expect((await seen(polonius)).delivery_email).toBe(null);
    expect((await seen(hamlet)).delivery_email).toBe('hamlet@example.com');
    // Someone added by a management command beside the running server.
    expect(
      await runManage(
        ['create-user', '--email', 'newcomer@example.com', '--full-name', 'New Comer'].concat([
          '--password',
          'a-long-password',
        ]),
        server.ctx.config,
      ),
    ).toBe(0);
    expect(
      ((await iago.post('/register', {})).body.realm_users as any[]).some(
        (u) => u.delivery_email === 'newcomer@example.com',
      ),
    ).toBe(true);
    await check();
  });
});
