import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { renderMarkdown } from '../markdown/index.js';
import { runManage } from '../manage.js';
import { randomSource, sentence } from '../populate.js';
import { TestClient } from './client.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

describe('populated messages', () => {
  it('carry exactly the HTML the Markdown renderer gives their text', () => {
    const random = randomSource(7);
    for (let i = 0; i < 300; i++) {
      const { content, rendered } = sentence(random);
      expect(renderMarkdown(content, { users: [], streams: [] }).html).toBe(rendered);
    }
  });
});

describe.each(DATABASES)('npm run manage -- populate (%s)', (db) => {
  let server: TestServer;
  let unreadBefore = 0;
  let usersBefore = 0;
  let starredBefore = 0;
  const starredOf = async (client: TestClient) =>
    (
      await client.get('/messages', {
        anchor: 'newest',
        num_before: 100,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'is', operand: 'starred' }]),
      })
    ).body.messages.length as number;
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
  const quietErr = vi.spyOn(console, 'error').mockImplementation(() => {});

  beforeAll(async () => {
    server = await startTestServer({ db });
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    unreadBefore = (await hamlet.post('/register', {})).body.unread_msgs.count;
    usersBefore = (await hamlet.get('/users')).body.members.length;
    starredBefore = await starredOf(hamlet);
    // A mistake is refused before anything is written.
    expect(
      await runManage(
        ['populate', '--users', '20', '--unread-for', 'nobody@example.com', '--unread', '5'],
        server.ctx.config,
      ),
    ).toBe(1);
    expect(
      await runManage(
        [
          'populate',
          '--users',
          '40',
          '--channels',
          '6',
          '--messages',
          '3000',
          '--unread-for',
          'hamlet@example.com',
          '--unread',
          '150',
          '--stars',
          '12',
          '--reactions',
          '60',
        ],
        server.ctx.config,
      ),
    ).toBe(0);
    // Servers keep nothing of these tables in memory, but start afresh as the command requires.
    server = await server.restart();
  });
  afterAll(async () => {
    quiet.mockRestore();
    quietErr.mockRestore();
    await server?.close();
  });

  it('adds the people, who log in with the given password', async () => {
    const admin = await TestClient.login(server.url, 'admin@populated.example', 'parley-demo');
    const members = (await admin.get('/users')).body.members as { email: string }[];
    expect(members.length).toBe(usersBefore + 40);
    const me = (await admin.get('/users/me')).body;
    expect(me.is_admin).toBe(true);
  });

  it('gives the chosen person exactly that many more unread messages, and their stars', async () => {
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const register = (await hamlet.post('/register', {})).body;
    expect(register.unread_msgs.count).toBe(unreadBefore + 150);
    const subscribed = (register.subscriptions as { name: string }[]).map((s) => s.name);
    expect(subscribed).toContain('firehose');
    expect(await starredOf(hamlet)).toBe(starredBefore + 12);
  });

  it('puts most messages in one large channel, readable through the API', async () => {
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const firehose = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channel', operand: 'firehose' }]),
    });
    expect(firehose.body.result).toBe('success');
    expect(firehose.body.messages.length).toBe(50);
    const ctx = server.ctx;
    const counts = await ctx.db
      .selectFrom('messages')
      .select(['type', 'stream_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('sending_client', '=', 'populate')
      .groupBy(['type', 'stream_id'])
      .execute();
    const total = counts.reduce((sum, c) => sum + Number(c.n), 0);
    expect(total).toBe(3000);
    const largest = Math.max(...counts.filter((c) => c.type === 'stream').map((c) => Number(c.n)));
    expect(largest).toBeGreaterThan(3000 * 0.6);
  });

  it('makes the populated messages searchable, by content and by topic', async () => {
    const hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    const firehose = await hamlet.get('/get_stream_id', { stream: 'firehose' });
    const rows = await server.ctx.db
      .selectFrom('messages')
      .select(['id', 'content', 'topic'])
      .where('stream_id', '=', firehose.body.stream_id)
      .orderBy('id')
      .execute();
    const expected = rows
      .filter((r) => /\broadmap\b/i.test(`${r.content} ${r.topic}`))
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(50);
    const found = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 5000,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'firehose' },
        { operator: 'search', operand: 'roadmaps' },
      ]),
    });
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual(expected);
  });

  it('gives every populated message one recipient row per subscriber or participant', async () => {
    const mismatched = await sql<{ n: number }>`
      SELECT COUNT(*) AS n FROM messages m
      WHERE m.sending_client = 'populate' AND (
        (m.type = 'stream' AND (SELECT COUNT(*) FROM user_messages um WHERE um.message_id = m.id)
          <> (SELECT COUNT(*) FROM subscriptions s WHERE s.stream_id = m.stream_id AND s.active = 1))
        OR (m.type = 'private' AND (SELECT COUNT(*) FROM user_messages um WHERE um.message_id = m.id) <> 2)
        OR NOT EXISTS (SELECT 1 FROM user_messages um
          WHERE um.message_id = m.id AND um.user_id = m.sender_id AND (um.flags & 1) = 1)
      )`.execute(server.ctx.db);
    expect(Number(mismatched.rows[0].n)).toBe(0);
    const reactions = await server.ctx.db
      .selectFrom('reactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(reactions.n)).toBeGreaterThanOrEqual(60);
  });
});
