/**
 * The `edit_history` of message objects: what clients read to tell an edited message from a moved
 * one, built from the same rows as GET /messages/{id}/history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('edit_history on message objects on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello'] });
  const { hamlet, othello } = w.as;
  let topicSeq = 0;

  const setRealm = async (settings: Record<string, unknown>) => {
    const realm = await w.server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    const merged = { ...JSON.parse(realm.settings), ...settings };
    await w.server.ctx.db
      .updateTable('realms')
      .set({ settings: JSON.stringify(merged) })
      .where('id', '=', realm.id)
      .execute();
  };
  afterEach(() => setRealm({ allow_edit_history: true, move_messages_between_streams_policy: 2 }));

  const send = async (c: TestClient, topic: string, content = 'hello') =>
    (await c.post('/messages', { type: 'stream', to: w.stream.engineering, topic, content })).body
      .id as number;
  const fetchOne = async (c: TestClient, id: number) =>
    (await c.get(`/messages/${id}`)).body.message;
  const topicMessages = async (topic: string) =>
    (
      await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [
          ['channel', String(w.stream.engineering)],
          ['topic', topic],
        ],
      })
    ).body.messages as Record<string, any>[];

  it('a content edit gives the message an entry with its previous content', async () => {
    const id = await send(hamlet, `history ${topicSeq++}`, 'first draft');
    const untouched = await send(hamlet, `history ${topicSeq++}`, 'never edited');
    expect((await hamlet.patch(`/messages/${id}`, { content: 'second draft' })).status).toBe(200);
    const m = await fetchOne(othello, id);
    expect(m.edit_history).toEqual([
      {
        user_id: w.id.hamlet,
        timestamp: m.last_edit_timestamp,
        prev_content: 'first draft',
        prev_rendered_content: '<p>first draft</p>',
      },
    ]);
    const other = await fetchOne(othello, untouched);
    expect(other).not.toHaveProperty('edit_history');
    expect(other).not.toHaveProperty('last_edit_timestamp');
  });

  it('renaming a whole topic gives every message a topic entry, newest first', async () => {
    const topic = `history ${topicSeq++}`;
    const a = await send(hamlet, topic, 'from hamlet');
    const b = await send(othello, topic, 'from othello');
    expect((await hamlet.patch(`/messages/${a}`, { content: 'hamlet, edited' })).status).toBe(200);
    const r = await othello.patch(`/messages/${b}`, {
      topic: `${topic} (renamed)`,
      propagate_mode: 'change_all',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const messages = await topicMessages(`${topic} (renamed)`);
    const byId = new Map(messages.map((m) => [m.id, m]));
    const move = {
      user_id: w.id.othello,
      prev_topic: topic,
      topic: `${topic} (renamed)`,
    };
    expect(byId.get(b)!.edit_history).toEqual([expect.objectContaining(move)]);
    expect(byId.get(b)!.edit_history[0]).not.toHaveProperty('prev_content');
    expect(byId.get(b)!.edit_history[0]).not.toHaveProperty('prev_stream');
    // Hamlet's own message, edited before the move: the move first, then the edit.
    const history = byId.get(a)!.edit_history;
    expect(history).toHaveLength(2);
    expect(history[0]).toEqual(expect.objectContaining(move));
    expect(history[0]).not.toHaveProperty('prev_content');
    expect(history[1]).toMatchObject({ user_id: w.id.hamlet, prev_content: 'from hamlet' });
    // The notification bot's notice was posted after the move: nothing to show.
    const notice = messages[messages.length - 1];
    expect(notice.sender_full_name).toBe('Notification Bot');
    expect(notice).not.toHaveProperty('edit_history');
    expect(notice).not.toHaveProperty('last_edit_timestamp');
  });

  it('moving to another channel names both channels', async () => {
    const topic = `history ${topicSeq++}`;
    const a = await send(hamlet, topic);
    await setRealm({ move_messages_between_streams_policy: 1 });
    const r = await hamlet.patch(`/messages/${a}`, {
      stream_id: w.stream.general,
      propagate_mode: 'change_one',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [entry] = (await fetchOne(hamlet, a)).edit_history;
    expect(entry).toMatchObject({ prev_stream: w.stream.engineering, stream: w.stream.general });
    expect(entry).not.toHaveProperty('prev_topic');
    expect(entry).not.toHaveProperty('prev_content');
  });

  it('an organization that hides edit history sends none, but still the edit time', async () => {
    const topic = `history ${topicSeq++}`;
    const a = await send(hamlet, topic);
    expect((await hamlet.patch(`/messages/${a}`, { content: 'changed' })).status).toBe(200);
    await setRealm({ allow_edit_history: false });
    const m = await fetchOne(othello, a);
    expect(m.last_edit_timestamp).toBeGreaterThan(0);
    expect(m).not.toHaveProperty('edit_history');
    const [listed] = await topicMessages(topic);
    expect(listed.id).toBe(a);
    expect(listed).not.toHaveProperty('edit_history');
  });
});
