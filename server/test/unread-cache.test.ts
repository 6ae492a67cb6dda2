import { beforeAll, describe, expect, it } from 'vitest';
import { unreadMessages } from '../register/unread-messages.js';
import { randomSource } from '../populate.js';
import type { User } from '../db/schema.js';
import { TestClient } from './client.js';
import { DEMO_PASSWORD } from './harness.js';
import { databases, useServer } from './fixtures.js';

/**
 * The unread summary /register answers comes from a copy in memory that follows events
 * (register/unread-cache.ts). Over long random runs of everything that changes unread messages
 * (sending with and without mentions, direct messages, reading, marking unread, mark-all, edits
 * that add or remove mentions, topic and channel moves, deletions), the copy must answer exactly
 * what the database answers, capped (a person with more unread messages than the limit) or not.
 */
describe.each(databases('both'))('the unread copy in memory against the database (%s)', (db) => {
  const w = useServer({ db });
  const c: Record<string, TestClient> = {};
  const users: Record<string, User> = {};

  /** `pick(n)` is 0 to n - 1, from populate's seeded generator. */
  function random(seed: number) {
    const next = randomSource(seed);
    return (n: number) => Math.floor(next() * n);
  }

  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const got = await r;
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return got.body;
  };

  beforeAll(async () => {
    for (const name of ['hamlet', 'othello', 'iago', 'cordelia']) {
      c[name] = await TestClient.login(w.server.url, `${name}@example.com`, DEMO_PASSWORD);
      const me = (await c[name].get('/users/me')).body;
      users[name] = await w.server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', me.user_id)
        .executeTakeFirstOrThrow();
    }
  });

  it.each([11, 12, 13])(
    'answers as the database does over a random run (seed %i)',
    async (seed) => {
      const pick = random(seed);
      const sent: number[] = [];
      const topics = ['alpha', 'Beta', 'beta', 'gamma'];
      const streams = ['general', 'engineering'];
      const mentions = [
        '',
        "@**Cordelia, Lear's daughter** ",
        '@**all** ',
        '@**topic** ',
        '@**Othello, the Moor of Venice** ',
      ];
      const { ctx } = w.server;
      const someSent = () =>
        Array.from({ length: 1 + pick(3) }, () => sent[pick(sent.length)]).filter(Boolean);

      for (let step = 0; step < 60; step++) {
        const kind = pick(12);
        const sender = ['hamlet', 'othello', 'iago'][pick(3)];
        if (kind <= 3 || sent.length < 3) {
          const r = await ok(
            c[sender].post('/messages', {
              type: 'stream',
              to: streams[pick(2)],
              topic: topics[pick(topics.length)],
              content: `${mentions[pick(mentions.length)]}step ${step}`,
            }),
          );
          sent.push(r.id);
        } else if (kind === 4) {
          const to = pick(2) === 0 ? [users.cordelia.id] : [users.cordelia.id, users.othello.id];
          const from = sender === 'othello' ? 'hamlet' : sender;
          sent.push(
            (await ok(c[from].post('/messages', { type: 'direct', to, content: `dm ${step}` }))).id,
          );
        } else if (kind === 5 || kind === 6) {
          const reader = pick(2) ? 'cordelia' : 'othello';
          // Deleted or moved out of reach, a message is refused: "Invalid message(s)".
          await c[reader].post('/messages/flags', {
            messages: someSent(),
            op: kind === 5 ? 'add' : 'remove',
            flag: 'read',
          });
        } else if (kind === 7) {
          const reader = pick(2) ? 'cordelia' : 'othello';
          if (pick(4) === 0) await ok(c[reader].post('/mark_all_as_read'));
          else {
            const general = (await c[reader].get('/get_stream_id', { stream: 'general' })).body;
            // A topic may have no messages left: "No such topic".
            await c[reader].post('/mark_topic_as_read', {
              stream_id: general.stream_id,
              topic_name: topics[pick(topics.length)],
            });
          }
        } else if (kind === 8) {
          // An edit by the sender that adds or removes a mention.
          const id = sent[pick(sent.length)];
          const row = await ctx.db
            .selectFrom('messages')
            .select(['sender_id', 'type'])
            .where('id', '=', id)
            .executeTakeFirst();
          const author = Object.keys(users).find((n) => users[n].id === row?.sender_id);
          if (author && row?.type === 'stream')
            await c[author].patch(`/messages/${id}`, {
              content: `${mentions[pick(mentions.length)]}edited ${step}`,
            });
        } else if (kind === 9) {
          const id = sent[pick(sent.length)];
          await c.iago.patch(`/messages/${id}`, {
            topic: topics[pick(topics.length)],
            propagate_mode: ['change_one', 'change_later', 'change_all'][pick(3)],
          });
        } else if (kind === 10) {
          const id = sent[pick(sent.length)];
          const target = (
            await c.iago.get('/get_stream_id', {
              stream: ['engineering', 'design', 'general'][pick(3)],
            })
          ).body.stream_id;
          await c.iago.patch(`/messages/${id}`, {
            stream_id: target,
            propagate_mode: 'change_all',
          });
        } else {
          await c.iago.delete(`/messages/${sent[pick(sent.length)]}`);
        }

        // Cordelia registers as a client does (the copy answers); Othello's copy is capped at
        // three unread messages, so it holds only the newest of them.
        const registered = await ok(
          c.cordelia.post('/register', { fetch_event_types: ['message', 'update_message_flags'] }),
        );
        const fresh = await unreadMessages(ctx, users.cordelia, undefined, 'database');
        expect(registered.unread_msgs, `step ${step}`).toEqual(fresh);
        expect(await unreadMessages(ctx, users.othello, 3)).toEqual(
          await unreadMessages(ctx, users.othello, 3, 'database'),
        );
      }
    },
  );

  it('names a topic as its oldest unread message does, after that one is read', async () => {
    const send = async (topic: string) =>
      (
        await ok(
          c.hamlet.post('/messages', { type: 'stream', to: 'general', topic, content: topic }),
        )
      ).id as number;
    const topicOf = async (id: number) => {
      const r = await ok(
        c.cordelia.post('/register', { fetch_event_types: ['message', 'update_message_flags'] }),
      );
      return r.unread_msgs.streams.find((s: any) => s.unread_message_ids.includes(id))?.topic;
    };
    const older = await send('Shout CASE');
    expect(await topicOf(older)).toBe('Shout CASE');
    const newer = await send('shout case');
    expect(await topicOf(newer)).toBe('Shout CASE');
    await ok(c.cordelia.post('/messages/flags', { messages: [older], op: 'add', flag: 'read' }));
    expect(await topicOf(newer)).toBe('shout case');
  });

  it('answers from memory, not from the database, while they agree on the count', async () => {
    const send = async (topic: string) =>
      (
        await ok(
          c.hamlet.post('/messages', { type: 'stream', to: 'general', topic, content: topic }),
        )
      ).id as number;
    const first = await send('proof one');
    const second = await send('proof two');
    await ok(
      c.cordelia.post('/register', { fetch_event_types: ['message', 'update_message_flags'] }),
    );
    // Behind the server's back: the second message joins the first one's topic; no unread row
    // changes, so the count and the newest unread message stay as the copy expects.
    await w.server.ctx.db
      .updateTable('messages')
      .set({ topic: 'proof one', topic_key: 'proof one' })
      .where('id', '=', second)
      .execute();
    const groupOf = (u: Awaited<ReturnType<typeof unreadMessages>>, id: number) =>
      u.streams.find((s) => s.unread_message_ids.includes(id))?.unread_message_ids;
    const fromDatabase = await unreadMessages(w.server.ctx, users.cordelia, undefined, 'database');
    expect(groupOf(fromDatabase, second)).toEqual([first, second]);
    const fromMemory = await unreadMessages(w.server.ctx, users.cordelia);
    expect(groupOf(fromMemory, second)).toEqual([second]);
    // A change that shows in the count (read behind the server's back) makes it read afresh.
    await w.server.ctx.db
      .updateTable('user_messages')
      .set({ flags: 1 })
      .where('message_id', '=', first)
      .where('user_id', '=', users.cordelia.id)
      .execute();
    expect(await unreadMessages(w.server.ctx, users.cordelia)).toEqual(
      await unreadMessages(w.server.ctx, users.cordelia, undefined, 'database'),
    );
  });
});
