import { describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

async function events(client: TestClient, queueId: string) {
  const r = await client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  return r.body.events as any[];
}

describe.each(databases('both'))('marking read and typing on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello'] });
  const { hamlet, othello } = w.as;

  const unreadIn = async (topic: string) => {
    const r = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [
        ['channel', String(w.stream.engineering)],
        ['topic', topic],
        ['is', 'unread'],
      ],
    });
    return r.body.messages.length as number;
  };

  it('marks a topic, a stream and everything as read, with update_message_flags events', async () => {
    for (const topic of ['alpha', 'alpha', 'beta']) {
      await othello.post('/messages', {
        type: 'stream',
        to: w.stream.engineering,
        topic,
        content: `about ${topic}`,
      });
    }
    expect(await unreadIn('alpha')).toBe(2);
    const q = await hamlet.post('/register', { event_types: ['update_message_flags'] });
    const topic = await hamlet.post('/mark_topic_as_read', {
      stream_id: w.stream.engineering,
      topic_name: 'ALPHA',
    });
    expect(topic.status).toBe(200);
    expect(await unreadIn('alpha')).toBe(0);
    expect(await unreadIn('beta')).toBe(1);
    const ev = (await events(hamlet, q.body.queue_id)).find(
      (e) => e.type === 'update_message_flags',
    );
    expect(ev).toMatchObject({ op: 'add', flag: 'read', all: false });
    expect(ev.messages).toHaveLength(2);

    expect(
      (await hamlet.post('/mark_stream_as_read', { stream_id: w.stream.engineering })).status,
    ).toBe(200);
    expect(await unreadIn('beta')).toBe(0);

    await othello.post('/messages', { type: 'direct', to: [w.id.hamlet], content: 'psst' });
    const all = await hamlet.post('/mark_all_as_read');
    expect(all.body.complete).toBe(true);
    const reg = await hamlet.post('/register', {
      fetch_event_types: ['message', 'update_message_flags'],
    });
    expect(reg.body.unread_msgs.count).toBe(0);
  });

  it('refuses unknown streams and topics', async () => {
    expect((await hamlet.post('/mark_stream_as_read', { stream_id: 999999 })).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid channel ID',
    });
    expect(
      (
        await hamlet.post('/mark_topic_as_read', {
          stream_id: w.stream.engineering,
          topic_name: 'never used',
        })
      ).status,
    ).toBe(400);
  });

  it('changes flags over a narrow window and reports counts', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await othello.post('/messages', {
            type: 'stream',
            to: w.stream.engineering,
            topic: 'gamma',
            content: `g${i}`,
          })
        ).body.id,
      );
    const r = await hamlet.post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      op: 'add',
      flag: 'starred',
      narrow: [
        { operator: 'channel', operand: w.stream.engineering },
        { operator: 'topic', operand: 'gamma' },
      ],
    });
    expect(r.body).toMatchObject({
      processed_count: 3,
      updated_count: 3,
      first_processed_id: ids[0],
      last_processed_id: ids[2],
      found_oldest: true,
      found_newest: true,
    });
    const again = await hamlet.post('/messages/flags/narrow', {
      anchor: String(ids[1]),
      include_anchor: false,
      num_before: 0,
      num_after: 10,
      op: 'add',
      flag: 'starred',
      narrow: [
        { operator: 'channel', operand: w.stream.engineering },
        { operator: 'topic', operand: 'gamma' },
      ],
    });
    expect(again.body).toMatchObject({ processed_count: 1, updated_count: 0 });
    // A window past the server's bound is narrowed to it, not refused (upstream's behaviour).
    const wide = await hamlet.post('/messages/flags/narrow', {
      anchor: String(ids[0]),
      num_before: 0,
      num_after: 100_000,
      op: 'remove',
      flag: 'starred',
      narrow: [
        { operator: 'channel', operand: w.stream.engineering },
        { operator: 'topic', operand: 'gamma' },
      ],
    });
    expect(wide.status).toBe(200);
    expect(wide.body).toMatchObject({ processed_count: 3, updated_count: 3, found_newest: true });
    const bad = await hamlet.post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      op: 'add',
      flag: 'historical',
    });
    expect(bad.status).toBe(400);
  });

  it('sends direct and stream typing events to the participants', async () => {
    const q = await othello.post('/register', {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    await hamlet.post('/typing', { op: 'start', to: [w.id.othello] });
    await hamlet.post('/typing', {
      op: 'stop',
      type: 'stream',
      stream_id: w.stream.engineering,
      topic: 'gamma',
    });
    const got = await events(othello, q.body.queue_id);
    expect(got[0]).toMatchObject({
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: w.id.hamlet },
    });
    expect(got[0].recipients.map((r: any) => r.user_id).sort()).toEqual(
      [w.id.hamlet, w.id.othello].sort(),
    );
    expect(got[1]).toMatchObject({
      type: 'typing',
      op: 'stop',
      message_type: 'stream',
      stream_id: w.stream.engineering,
      topic: 'gamma',
    });
  });

  it('refuses private typing, several streams and missing recipients', async () => {
    expect(
      (await hamlet.post('/typing', { op: 'start', type: 'private', to: [w.id.othello] })).status,
    ).toBe(400);
    const many = await hamlet.post('/typing', {
      op: 'start',
      type: 'stream',
      to: [w.stream.engineering, w.stream.engineering + 1],
      topic: 'x',
    });
    expect(many.body).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await hamlet.post('/typing', { op: 'start' })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'to',
    });
  });
});
