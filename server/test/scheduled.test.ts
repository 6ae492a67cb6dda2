import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './harness.js';
import { drain, TestClient } from './client.js';
import { deliverDueScheduledMessages, startScheduler } from '../actions/scheduler.js';
import { databases, useServer } from './fixtures.js';

const now = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;

describe.each(databases('both'))('scheduled messages on %s', (db) => {
  const w = useServer({ db });
  let hamlet: TestClient;
  let othello: TestClient;
  let iago: TestClient;
  let streams: Record<string, number>;

  const newest = async (c: TestClient, narrow: unknown[]) =>
    (await c.get('/messages', { anchor: 'newest', num_before: 1, narrow, apply_markdown: 'false' }))
      .body.messages[0];

  beforeAll(async () => {
    [hamlet, othello, iago] = await Promise.all(
      ['hamlet', 'othello', 'iago'].map((n) =>
        TestClient.login(w.server.url, `${n}@example.com`, DEMO_PASSWORD),
      ),
    );
    const all = (await iago.get('/streams', { include_all_active: 'true' })).body.streams as any[];
    streams = Object.fromEntries(all.map((s) => [s.name, s.stream_id]));
  });

  it('schedules stream and direct messages, telling only the sender', async () => {
    const mine = await hamlet.post('/register', { event_types: ['scheduled_messages'] });
    const theirs = await othello.post('/register', { event_types: ['scheduled_messages'] });
    const at = now() + HOUR;
    const s = await hamlet.post('/scheduled_messages', {
      type: 'stream',
      to: streams.general,
      topic: 'later',
      content: '**Soon**',
      scheduled_delivery_timestamp: at,
    });
    expect(s.status).toBe(200);
    const d = await hamlet.post('/scheduled_messages', {
      type: 'direct',
      to: [w.id.othello],
      content: 'psst',
      scheduled_delivery_timestamp: at + 60,
    });
    expect(d.status).toBe(200);
    const events = await drain(hamlet, mine.body.queue_id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'scheduled_messages',
        op: 'add',
        scheduled_messages: [
          expect.objectContaining({ scheduled_message_id: s.body.scheduled_message_id }),
        ],
      }),
      expect.objectContaining({
        op: 'add',
        scheduled_messages: [
          expect.objectContaining({ scheduled_message_id: d.body.scheduled_message_id }),
        ],
      }),
    ]);
    expect(await drain(othello, theirs.body.queue_id)).toEqual([]);
    const list = (await hamlet.get('/scheduled_messages')).body.scheduled_messages;
    expect(list).toEqual([
      {
        scheduled_message_id: s.body.scheduled_message_id,
        type: 'stream',
        to: streams.general,
        topic: 'later',
        content: '**Soon**',
        rendered_content: expect.stringContaining('Soon'),
        scheduled_delivery_timestamp: at,
        failed: false,
      },
      {
        scheduled_message_id: d.body.scheduled_message_id,
        type: 'private',
        to: [w.id.othello],
        content: 'psst',
        rendered_content: expect.any(String),
        scheduled_delivery_timestamp: at + 60,
        failed: false,
      },
    ]);
    expect(
      (await hamlet.post('/register', { fetch_event_types: ['scheduled_messages'] })).body
        .scheduled_messages,
    ).toEqual(list);
    expect((await othello.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
  });

  it('checks the message as a send would, and the time', async () => {
    const at = now() + HOUR;
    const post = (params: Record<string, unknown>) =>
      hamlet.post('/scheduled_messages', {
        scheduled_delivery_timestamp: at,
        content: 'x',
        ...params,
      });
    expect(
      (
        await post({
          type: 'stream',
          to: streams.general,
          topic: 't',
          scheduled_delivery_timestamp: now() - 5,
        })
      ).body.msg,
    ).toBe('Scheduled delivery time must be in the future.');
    expect((await post({ type: 'stream', to: 99999, topic: 't' })).body).toMatchObject({
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: 99999,
    });
    expect(
      (
        await othello.post('/scheduled_messages', {
          type: 'stream',
          to: streams.design,
          topic: 't',
          content: 'x',
          scheduled_delivery_timestamp: at,
        })
      ).body.msg,
    ).toBe("Not authorized to send to channel 'design'");
    expect((await post({ type: 'stream', to: streams.announce, topic: 't' })).body.msg).toBe(
      'Only organization administrators can send to this channel.',
    );
    expect((await post({ type: 'stream', to: streams.general })).body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'topic',
    });
    expect(
      (await post({ type: 'stream', to: streams.general, topic: 't', content: '   ' })).body.msg,
    ).toBe('Message must not be empty');
    expect((await post({ type: 'direct', to: [99999] })).body.msg).toBe('Invalid user ID 99999');
    expect((await post({ type: 'direct', to: 'someone' })).body.msg).toBe(
      'Invalid data type for recipients',
    );
    expect(
      (await post({ type: 'stream', to: [streams.general, streams.welcome], topic: 't' })).body.msg,
    ).toBe('Invalid data type for channel ID');
    expect((await post({ type: 'huddle', to: [w.id.othello] })).status).toBe(400);
    expect(
      (
        await hamlet.post('/scheduled_messages', {
          type: 'direct',
          to: [w.id.othello],
          content: 'x',
        })
      ).body.var_name,
    ).toBe('scheduled_delivery_timestamp');
  });

  it('edits and deletes scheduled messages', async () => {
    const q = await hamlet.post('/register', { event_types: ['scheduled_messages'] });
    const [s, d] = (await hamlet.get('/scheduled_messages')).body.scheduled_messages;
    const path = `/scheduled_messages/${s.scheduled_message_id}`;
    expect((await hamlet.patch(path, { content: 'Changed *plan*' })).status).toBe(200);
    expect(
      (
        await hamlet.patch(path, {
          topic: 'much later',
          scheduled_delivery_timestamp: now() + 2 * HOUR,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await hamlet.patch(`/scheduled_messages/${d.scheduled_message_id}`, {
          type: 'stream',
          to: streams.general,
          topic: 'now public',
        })
      ).status,
    ).toBe(200);
    const updates = (await drain(hamlet, q.body.queue_id)).map((e) => e.scheduled_message);
    expect(updates[0]).toMatchObject({ content: 'Changed *plan*', topic: 'later' });
    expect(updates[0].rendered_content).toContain('plan');
    expect(updates[1]).toMatchObject({ topic: 'much later', content: 'Changed *plan*' });
    expect(updates[2]).toMatchObject({
      type: 'stream',
      to: streams.general,
      topic: 'now public',
      content: 'psst',
    });

    expect((await hamlet.patch(path, {})).body.msg).toBe('Nothing to change');
    expect((await hamlet.patch(path, { type: 'direct' })).body.msg).toBe(
      'Recipient required when updating type of scheduled message.',
    );
    expect((await hamlet.patch(path, { scheduled_delivery_timestamp: now() - 1 })).body.msg).toBe(
      'Scheduled delivery time must be in the future.',
    );
    expect((await hamlet.patch(path, { type: 'direct', to: [99999] })).body.msg).toBe(
      'Invalid user ID 99999',
    );
    expect((await othello.patch(path, { content: 'mine' })).body.msg).toBe(
      'Scheduled message does not exist',
    );
    expect(await othello.delete(path)).toMatchObject({
      status: 404,
      body: { code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' },
    });

    const moved = `/scheduled_messages/${d.scheduled_message_id}`;
    expect((await hamlet.patch(moved, { type: 'direct', to: [w.id.othello] })).status).toBe(200);
    expect((await hamlet.patch(moved, { type: 'stream', to: streams.general })).body.msg).toBe(
      'Topic required when updating scheduled message type to channel.',
    );
    expect((await hamlet.delete(moved)).status).toBe(200);
    expect(await hamlet.delete(moved)).toMatchObject({
      status: 404,
      body: { code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' },
    });
    expect((await drain(hamlet, q.body.queue_id)).slice(-1)).toEqual([
      expect.objectContaining({ op: 'remove', scheduled_message_id: d.scheduled_message_id }),
    ]);
  });

  it('delivers due messages once, as the sender, and forgets them', async () => {
    const [s] = (await hamlet.get('/scheduled_messages')).body.scheduled_messages;
    const q = await hamlet.post('/register', { event_types: ['scheduled_messages', 'message'] });
    const other = await othello.post('/register', { event_types: ['message'] });
    expect(
      await deliverDueScheduledMessages(w.server.ctx, s.scheduled_delivery_timestamp - 1),
    ).toBe(0);
    expect(await deliverDueScheduledMessages(w.server.ctx, s.scheduled_delivery_timestamp)).toBe(1);
    expect(
      await deliverDueScheduledMessages(w.server.ctx, s.scheduled_delivery_timestamp + 5),
    ).toBe(0);
    const sent = await newest(othello, [{ operator: 'stream', operand: 'general' }]);
    expect(sent).toMatchObject({
      sender_email: 'hamlet@example.com',
      subject: 'much later',
      content: 'Changed *plan*',
    });
    const events = await drain(hamlet, q.body.queue_id);
    expect(events.map((e) => [e.type, e.op])).toEqual([
      ['message', undefined],
      ['scheduled_messages', 'remove'],
    ]);
    expect(events[1].scheduled_message_id).toBe(s.scheduled_message_id);
    expect(
      (await drain(othello, other.body.queue_id)).filter((e) => e.type === 'message'),
    ).toHaveLength(1);
    expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    expect(
      (await hamlet.patch(`/scheduled_messages/${s.scheduled_message_id}`, { content: 'too late' }))
        .body.msg,
    ).toBe('Scheduled message was already sent');
  });

  it('records a failure, tells the sender, and lets them reschedule', async () => {
    const at = now() + HOUR;
    const r = await hamlet.post('/scheduled_messages', {
      type: 'stream',
      to: streams.design,
      topic: 'secret',
      content: 'for designers',
      scheduled_delivery_timestamp: at,
    });
    expect(r.status).toBe(200);
    // Hamlet leaves the private stream before the message is due.
    expect(
      (
        await iago.delete('/users/me/subscriptions', {
          subscriptions: ['design'],
          principals: ['hamlet@example.com'],
        })
      ).status,
    ).toBe(200);
    const q = await hamlet.post('/register', { event_types: ['scheduled_messages', 'message'] });
    expect(await deliverDueScheduledMessages(w.server.ctx, at + 1)).toBe(1);
    const [failed] = (await hamlet.get('/scheduled_messages')).body.scheduled_messages;
    expect(failed).toMatchObject({
      scheduled_message_id: r.body.scheduled_message_id,
      failed: true,
    });
    const events = await drain(hamlet, q.body.queue_id);
    expect(events.find((e) => e.type === 'scheduled_messages')).toMatchObject({
      op: 'update',
      scheduled_message: { failed: true },
    });
    const notice = events.find((e) => e.type === 'message');
    expect(notice.message.sender_full_name).toBe('Notification Bot');
    expect(notice.message.content).toContain('was not sent because of the following error');
    expect(await deliverDueScheduledMessages(w.server.ctx, at + 2)).toBe(0); // failed ones wait for the user

    const path = `/scheduled_messages/${r.body.scheduled_message_id}`;
    expect((await hamlet.patch(path, { content: 'again' })).body.msg).toBe(
      'Scheduled delivery time must be in the future.',
    );
    expect(
      (
        await hamlet.patch(path, {
          type: 'stream',
          to: streams.general,
          topic: 'open now',
          scheduled_delivery_timestamp: at + 60,
        })
      ).status,
    ).toBe(200);
    expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages[0]).toMatchObject({
      failed: false,
      to: streams.general,
    });
    // Far too late: the real server gives up ten minutes after the time.
    expect(await deliverDueScheduledMessages(w.server.ctx, at + 60 + 11 * 60)).toBe(1);
    expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages[0]).toMatchObject({
      failed: true,
    });
    await hamlet.delete(path);
  });

  it('runs by itself on a timer until stopped', async () => {
    const stop = startScheduler(w.server.ctx, { intervalMs: 50 });
    try {
      const r = await hamlet.post('/scheduled_messages', {
        type: 'direct',
        to: [w.id.othello],
        content: 'on the dot',
        // A few seconds ahead: one second (in whole seconds) could be past by the time a loaded
        // machine reads the request.
        scheduled_delivery_timestamp: now() + 3,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const deadline = Date.now() + 15_000;
      while (
        (await hamlet.get('/scheduled_messages')).body.scheduled_messages.length &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
      expect(
        (await newest(othello, [{ operator: 'dm', operand: 'hamlet@example.com' }])).content,
      ).toBe('on the dot');
    } finally {
      await stop();
    }
  });
});
