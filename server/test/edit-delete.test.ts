import { beforeEach, describe, expect, it } from 'vitest';
import { drain, TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

describe.each(databases('both'))('editing, moving and deleting messages on %s', (db) => {
  const w = useServer({ db, people: ['iago', 'hamlet', 'othello'] });
  const { hamlet, othello, iago } = w.as;
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
  const age = (id: number, seconds: number) =>
    w.server.ctx.db
      .updateTable('messages')
      .set({ date_sent: Math.floor(Date.now() / 1000) - seconds })
      .where('id', '=', id)
      .execute();
  const send = async (c: TestClient, topic: string, content = 'hello') =>
    (await c.post('/messages', { type: 'stream', to: w.stream.engineering, topic, content })).body
      .id as number;
  const fetchOne = async (c: TestClient, id: number) =>
    (await c.get(`/messages/${id}`)).body.message;

  beforeEach(() =>
    setRealm({
      edit_topic_policy: 5,
      move_messages_within_stream_limit_seconds: 604800,
      move_messages_between_streams_policy: 2,
      move_messages_between_streams_limit_seconds: 604800,
      message_content_edit_limit_seconds: 600,
    }),
  );

  it('edits content, re-renders it, updates mentions and keeps history', async () => {
    const id = await send(hamlet, `edit ${topicSeq++}`, 'first draft');
    const q = await othello.post('/register', { event_types: ['update_message'] });
    const r = await hamlet.patch(`/messages/${id}`, {
      content: 'second **draft** @**Othello, the Moor of Venice**',
    });
    expect(r.status).toBe(200);
    const m = await fetchOne(othello, id);
    expect(m.content).toContain('<strong>draft</strong>');
    expect(m.flags).toContain('mentioned');
    expect(m.last_edit_timestamp).toBeGreaterThan(0);
    const [event] = await drain(othello, q.body.queue_id);
    expect(event).toMatchObject({
      type: 'update_message',
      message_id: id,
      orig_content: 'first draft',
      rendering_only: false,
    });
    expect(event.flags).toContain('mentioned');
    const history = await hamlet.get(`/messages/${id}/history`);
    expect(history.body.message_history.map((v: any) => v.content)).toEqual([
      'first draft',
      'second **draft** @**Othello, the Moor of Venice**',
    ]);
    // The edit carries a real diff: the new words marked inserted, the rest as it was.
    const edit = history.body.message_history[1];
    expect(edit.prev_rendered_content).toBe('<p>first draft</p>');
    expect(edit.content_html_diff).toMatch(/^<div><p>/);
    expect(edit.content_html_diff).toContain('<span class="highlight_text_deleted">first</span>');
    expect(edit.content_html_diff).toContain('<span class="highlight_text_inserted">second</span>');
  });

  it('an edit to empty content leaves "(deleted)", as zulip-mobile deletes a message', async () => {
    const id = await send(hamlet, `edit ${topicSeq++}`, 'a regrettable remark');
    const r = await hamlet.patch(`/messages/${id}`, { content: '  \n ' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const m = await fetchOne(othello, id);
    expect(m.content).toBe('<p>(deleted)</p>');
    const raw = await othello.get(`/messages/${id}`, { apply_markdown: false });
    expect(raw.body.message.content).toBe('(deleted)');
    // Others may not blank someone's message either.
    expect((await othello.patch(`/messages/${id}`, { content: '' })).status).toBe(400);
  });

  it('lets only the sender edit content, within the time limit', async () => {
    const id = await send(hamlet, `edit ${topicSeq++}`);
    expect((await othello.patch(`/messages/${id}`, { content: 'hijack' })).status).toBe(400);
    await age(id, 700);
    expect((await hamlet.patch(`/messages/${id}`, { content: 'too late' })).body.msg).toMatch(
      /time limit/,
    );
  });

  it('refuses content with stream_id, nothing to change, and moves of direct messages', async () => {
    const id = await send(hamlet, `edit ${topicSeq++}`);
    expect(
      (await hamlet.patch(`/messages/${id}`, { content: 'x', stream_id: w.stream.general })).status,
    ).toBe(400);
    expect((await hamlet.patch(`/messages/${id}`, {})).status).toBe(400);
    const topic = (await fetchOne(hamlet, id)).subject;
    expect((await hamlet.patch(`/messages/${id}`, { topic })).body.msg).toBe('Nothing to change');
    const untitled = await send(hamlet, '');
    expect((await hamlet.patch(`/messages/${untitled}`, { topic: '✔ ' })).body.msg).toBe(
      'General chat cannot be marked as resolved',
    );
    expect(
      (await hamlet.patch(`/messages/${id}`, { content: 'x', propagate_mode: 'change_all' }))
        .status,
    ).toBe(400);
    const dm = (
      await hamlet.post('/messages', { type: 'direct', to: [w.id.othello], content: 'psst' })
    ).body.id;
    expect((await hamlet.patch(`/messages/${dm}`, { topic: 'x' })).status).toBe(400);
  });

  it('renames a whole topic with change_all and notifies the new thread', async () => {
    const topic = `rename ${topicSeq++}`;
    const a = await send(hamlet, topic);
    const b = await send(othello, topic);
    const r = await othello.patch(`/messages/${b}`, {
      topic: `${topic} (new)`,
      propagate_mode: 'change_all',
    });
    expect(r.status).toBe(200);
    expect((await fetchOne(hamlet, a)).subject).toBe(`${topic} (new)`);
    const thread = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        ['channel', String(w.stream.engineering)],
        ['topic', `${topic} (new)`],
      ],
    });
    const last = thread.body.messages[thread.body.messages.length - 1];
    expect(last.sender_full_name).toBe('Notification Bot');
    expect(last.content).toContain('moved here from');
  });

  const topicMessages = async (topic: string) =>
    (
      await hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 20,
        num_after: 0,
        narrow: [
          ['channel', String(w.stream.engineering)],
          ['topic', topic],
        ],
      })
    ).body.messages as { id: number; content: string; sender_full_name: string; flags: string[] }[];

  it('resolves a topic with the ✔ prefix, announcing it in the topic only (no move notice)', async () => {
    const topic = `resolve ${topicSeq++}`;
    const a = await send(hamlet, topic);
    await age(a, 10 * 86400);
    expect(
      (await othello.patch(`/messages/${a}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' }))
        .status,
    ).toBe(200);
    const resolved = await topicMessages(`✔ ${topic}`);
    expect(resolved).toHaveLength(2);
    expect(resolved[1].sender_full_name).toBe('Notification Bot');
    expect(resolved[1].content).toMatch(/Othello.*has marked this topic as resolved\./);
    // The notice is news to the others, not to whoever resolved the topic.
    expect(resolved[1].flags).not.toContain('read');
    const own = (await othello.get(`/messages/${resolved[1].id}`)).body.message;
    expect(own.flags).toContain('read');
    // A minute later, unresolving is news of its own.
    await age(resolved[1].id, 61);
    expect(
      (await othello.patch(`/messages/${a}`, { topic, propagate_mode: 'change_all' })).status,
    ).toBe(200);
    const reopened = await topicMessages(topic);
    expect(reopened).toHaveLength(3);
    expect(reopened[2].content).toMatch(/has marked this topic as unresolved\./);
  });

  it('undoes a resolve within the minute by taking its notice away', async () => {
    const topic = `undo ${topicSeq++}`;
    const a = await send(hamlet, topic);
    const move = (to: string) =>
      othello.patch(`/messages/${a}`, { topic: to, propagate_mode: 'change_all' });
    expect((await move(`✔ ${topic}`)).status).toBe(200);
    const [, notice] = await topicMessages(`✔ ${topic}`);
    const q = await hamlet.post('/register', { event_types: ['delete_message'] });
    expect((await move(topic)).status).toBe(200);
    expect((await topicMessages(topic)).map((m) => m.id)).toEqual([a]);
    const [event] = await drain(hamlet, q.body.queue_id);
    expect(event.type).toBe('delete_message');
    expect(event.message_ids ?? [event.message_id]).toEqual([notice.id]);
  });

  it('words move notices as the reference server does: a whole topic, one message, several', async () => {
    const topic = `notices ${topicSeq++}`;
    const [a, b, c] = [
      await send(hamlet, topic),
      await send(hamlet, topic),
      await send(hamlet, topic),
    ];
    const move = (id: number, to: string, mode: string) =>
      othello.patch(`/messages/${id}`, {
        topic: to,
        propagate_mode: mode,
        send_notification_to_old_thread: true,
        send_notification_to_new_thread: true,
      });
    expect((await move(c, `${topic} one`, 'change_one')).status).toBe(200);
    expect((await topicMessages(`${topic} one`)).at(-1)!.content).toMatch(
      /<a href="[^"]*\/near\/\d+">A message<\/a> was moved here from .*by .*Othello/,
    );
    expect((await topicMessages(topic)).at(-1)!.content).toMatch(
      /A message was moved from this topic to .*by .*Othello/,
    );
    expect((await move(b, `${topic} two`, 'change_later')).status).toBe(200);
    // b and the notice sent after it moved together
    expect((await topicMessages(`${topic} two`)).at(-1)!.content).toMatch(
      /2 messages were moved here from/,
    );
    expect((await topicMessages(topic)).at(-1)!.content).toMatch(
      /2 messages were moved from this topic to/,
    );
    expect((await move(a, `${topic} all`, 'change_all')).status).toBe(200);
    expect((await topicMessages(`${topic} all`)).at(-1)!.content).toMatch(
      /This topic was moved here from .*by .*Othello/,
    );
    expect((await topicMessages(topic)).at(-1)!.content).toMatch(
      /This topic was moved to .*by .*Othello/,
    );
  });

  it('answers MOVE_MESSAGES_TIME_LIMIT_EXCEEDED and allows the partial move it suggests', async () => {
    await setRealm({ move_messages_within_stream_limit_seconds: 3600 });
    const topic = `old topic ${topicSeq++}`;
    const old1 = await send(hamlet, topic);
    const old2 = await send(hamlet, topic);
    const recent = await send(hamlet, topic);
    await age(old1, 7200);
    await age(old2, 7200);
    const r = await othello.patch(`/messages/${recent}`, {
      topic: `${topic} moved`,
      propagate_mode: 'change_all',
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      first_message_id_allowed_to_move: recent,
      total_messages_in_topic: 3,
      total_messages_allowed_to_move: 1,
    });
    const partial = await othello.patch(`/messages/${r.body.first_message_id_allowed_to_move}`, {
      topic: `${topic} moved`,
      propagate_mode: 'change_later',
    });
    expect(partial.status).toBe(200);
    expect((await fetchOne(hamlet, old1)).subject).toBe(topic);
    const admin = await iago.patch(`/messages/${old1}`, {
      topic: `${topic} moved`,
      propagate_mode: 'change_all',
    });
    expect(admin.status).toBe(200);
    const none = await othello.patch(`/messages/${old1}`, {
      topic: `${topic} again`,
      propagate_mode: 'change_all',
    });
    expect(none.body).toMatchObject({
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      first_message_id_allowed_to_move: recent,
    });
  });

  it('holds a move of both channel and topic to the stricter time limit', async () => {
    await setRealm({
      move_messages_between_streams_policy: 1,
      move_messages_between_streams_limit_seconds: null,
      move_messages_within_stream_limit_seconds: 3600,
    });
    const id = await send(hamlet, `both ${topicSeq++}`);
    await age(id, 7200);
    expect((await othello.patch(`/messages/${id}`, { stream_id: w.stream.general })).status).toBe(
      200,
    );
    const back = await othello.patch(`/messages/${id}`, {
      stream_id: w.stream.engineering,
      topic: 'elsewhere',
    });
    expect(back.body.msg).toMatch(/time limit/);
  });

  it('follows the topic edit policy', async () => {
    await setRealm({ edit_topic_policy: 2 });
    const id = await send(hamlet, `policy ${topicSeq++}`);
    expect((await hamlet.patch(`/messages/${id}`, { topic: 'nope' })).status).toBe(400);
    expect((await iago.patch(`/messages/${id}`, { topic: 'admins may' })).status).toBe(200);
  });

  it('moves messages between streams for administrators only by default', async () => {
    const id = await send(hamlet, `cross ${topicSeq++}`);
    expect((await hamlet.patch(`/messages/${id}`, { stream_id: w.stream.general })).status).toBe(
      400,
    );
    expect(
      (
        await iago.patch(`/messages/${id}`, {
          stream_id: w.stream.general,
          send_notification_to_new_thread: 'false',
        })
      ).status,
    ).toBe(200);
    expect((await fetchOne(hamlet, id)).stream_id).toBe(w.stream.general);
  });

  it('deletes messages with bulk or per-message events by capability', async () => {
    const id = await send(hamlet, `delete ${topicSeq++}`);
    const bulk = await othello.post('/register', {
      event_types: ['delete_message'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const single = await othello.post('/register', { event_types: ['delete_message'] });
    expect((await othello.delete(`/messages/${id}`)).status).toBe(400);
    expect((await hamlet.delete(`/messages/${id}`)).status).toBe(200);
    expect((await hamlet.get(`/messages/${id}`)).status).toBe(400);
    const [b] = await drain(othello, bulk.body.queue_id);
    expect(b).toMatchObject({
      type: 'delete_message',
      message_ids: [id],
      message_type: 'stream',
      stream_id: w.stream.engineering,
    });
    const [s] = await drain(othello, single.body.queue_id);
    expect(s).toMatchObject({ type: 'delete_message', message_id: id });
    expect(s.message_ids).toBeUndefined();
  });
});
