import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './harness.js';
import { drain, TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

/**
 * Access that must not outlive membership, and posting rules that every path applies (issue 20:
 * 2, 3, 4), plus what deactivation ends. Each attack as the review did it, next to the
 * legitimate use that keeps working.
 */

const NAMES = ['desdemona', 'iago', 'hamlet', 'othello', 'cordelia'] as const;
type Name = (typeof NAMES)[number];
const INVALID = { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' };

describe.each(databases('both'))('message access and sending rules on %s', (db) => {
  const w = useServer({ db });
  let c: Record<Name, TestClient>;
  let ids: Record<Name, number>;
  let streams: Record<string, number>;

  const send = async (who: Name, stream: string, topic: string, content: string) => {
    const r = await c[who].post('/messages', {
      type: 'stream',
      to: streams[stream],
      topic,
      content,
    });
    expect(r.body, `${who} sends to ${stream}`).toMatchObject({ result: 'success' });
    return r.body.id as number;
  };

  beforeAll(async () => {
    c = Object.fromEntries(
      await Promise.all(
        NAMES.map(async (n) => [
          n,
          await TestClient.login(w.server.url, `${n}@example.com`, DEMO_PASSWORD),
        ]),
      ),
    ) as Record<Name, TestClient>;
    ids = Object.fromEntries(
      await Promise.all(NAMES.map(async (n) => [n, (await c[n].get('/users/me')).body.user_id])),
    ) as Record<Name, number>;
    // A private channel of Desdemona, Cordelia and Hamlet; the administrator Iago is not in it.
    const made = await c.desdemona.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'council' }],
      invite_only: true,
      principals: [ids.desdemona, ids.cordelia, ids.hamlet],
    });
    expect(made.body).toMatchObject({ result: 'success' });
    const all = (await c.desdemona.get('/streams', { include_all_active: 'true' })).body
      .streams as any[];
    streams = Object.fromEntries(all.map((s) => [s.name, s.stream_id]));
  });

  it("ends a former subscriber's access to a private channel's messages (20.2)", async () => {
    const theirs = await send('hamlet', 'council', 'plans', 'my old proposal');
    const others = await send('cordelia', 'council', 'plans', 'a reply');
    const removed = await c.desdemona.delete('/users/me/subscriptions', {
      subscriptions: ['council'],
      principals: [ids.hamlet],
    });
    expect(removed.body).toMatchObject({ result: 'success', removed: ['council'] });
    expect(
      (
        await c.cordelia.patch(`/messages/${others}`, {
          content: 'a reply, edited after Hamlet left',
        })
      ).body,
    ).toMatchObject({ result: 'success' });

    const h = c.hamlet;
    expect((await h.get(`/messages/${others}`)).body).toMatchObject(INVALID);
    expect((await h.get(`/messages/${others}/history`)).body).toMatchObject(INVALID);
    expect((await h.get(`/messages/${others}/read_receipts`)).body).toMatchObject(INVALID);
    expect(
      (await h.post(`/messages/${others}/reactions`, { emoji_name: 'smile' })).body,
    ).toMatchObject(INVALID);
    expect(
      (await h.patch(`/messages/${theirs}`, { content: 'rewritten from outside' })).body,
    ).toMatchObject(INVALID);
    expect(
      (await h.patch(`/messages/${theirs}`, { topic: 'hijacked', propagate_mode: 'change_all' }))
        .body,
    ).toMatchObject(INVALID);
    expect((await h.delete(`/messages/${theirs}`)).body).toMatchObject(INVALID);

    // Nothing changed for the people still in the channel, who keep every right.
    const seen = (await c.cordelia.get(`/messages/${theirs}`)).body;
    expect(seen).toMatchObject({
      result: 'success',
      raw_content: 'my old proposal',
      message: { subject: 'plans' },
    });
    expect(
      (await c.cordelia.post(`/messages/${theirs}/reactions`, { emoji_name: 'smile' })).body,
    ).toMatchObject({ result: 'success' });
    expect((await c.cordelia.get(`/messages/${others}/read_receipts`)).body).toMatchObject({
      result: 'success',
    });
    expect(
      (
        await c.cordelia.patch(`/messages/${others}`, {
          topic: 'plans, renamed',
          propagate_mode: 'change_all',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    // Back in the channel, the history is Hamlet's again.
    await c.desdemona.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'council' }],
      principals: [ids.hamlet],
    });
    expect((await h.get(`/messages/${others}`)).body).toMatchObject({ result: 'success' });
  });

  it('keeps direct messages to those who received them', async () => {
    const dm = (
      await c.hamlet.post('/messages', {
        type: 'direct',
        to: [ids.cordelia],
        content: 'between us',
      })
    ).body.id;
    expect((await c.cordelia.get(`/messages/${dm}`)).body).toMatchObject({ result: 'success' });
    expect((await c.iago.get(`/messages/${dm}`)).body).toMatchObject(INVALID);
  });

  it("applies the destination's posting policy to a move (20.3)", async () => {
    expect(
      (await c.desdemona.patch('/realm', { move_messages_between_streams_policy: 1 })).body,
    ).toMatchObject({ result: 'success' });
    const own = await send('hamlet', 'general', 'to move', 'please move me');
    const moved = await c.hamlet.patch(`/messages/${own}`, {
      stream_id: streams.announce,
      propagate_mode: 'change_one',
    });
    expect(moved.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Only organization administrators can send to this channel.',
    });
    expect((await c.hamlet.get(`/messages/${own}`)).body.message.stream_id).toBe(streams.general);
    // Members still move into channels they may post in; administrators into announce.
    expect(
      (
        await c.hamlet.patch(`/messages/${own}`, {
          stream_id: streams.engineering,
          propagate_mode: 'change_one',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect(
      (
        await c.iago.patch(`/messages/${own}`, {
          stream_id: streams.announce,
          propagate_mode: 'change_one',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect((await c.hamlet.get(`/messages/${own}`)).body.message.stream_id).toBe(streams.announce);
  });

  it('lets only those who may post in a channel type there (20.4)', async () => {
    const queue = (
      await c.cordelia.post('/register', {
        event_types: ['typing'],
        client_capabilities: { stream_typing_notifications: true },
      })
    ).body.queue_id;
    // An administrator outside a private channel cannot reach it at all (no administrators' exception).
    const privateTyping = await c.iago.post('/typing', {
      type: 'stream',
      stream_id: streams.council,
      topic: 'plans',
      op: 'start',
    });
    expect(privateTyping.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid channel ID',
    });
    const announceTyping = await c.hamlet.post('/typing', {
      type: 'stream',
      stream_id: streams.announce,
      topic: 'news',
      op: 'start',
    });
    expect(announceTyping.body).toMatchObject({
      result: 'error',
      msg: 'Only organization administrators can send to this channel.',
    });
    expect(await drain(c.cordelia, queue)).toEqual([]);

    expect(
      (
        await c.hamlet.post('/typing', {
          type: 'stream',
          stream_id: streams.council,
          topic: 'plans',
          op: 'start',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect((await drain(c.cordelia, queue)).map((e) => [e.type, e.sender?.user_id])).toEqual([
      ['typing', ids.hamlet],
    ]);
  });

  it('applies the same rule to scheduling and to the scheduled send', async () => {
    const later = Math.floor(Date.now() / 1000) + 3600;
    const refused = await c.hamlet.post('/scheduled_messages', {
      type: 'stream',
      to: streams.announce,
      topic: 'news',
      content: 'scheduled',
      scheduled_delivery_timestamp: later,
    });
    expect(refused.body).toMatchObject({
      result: 'error',
      msg: 'Only organization administrators can send to this channel.',
    });
    const allowed = await c.iago.post('/scheduled_messages', {
      type: 'stream',
      to: streams.announce,
      topic: 'news',
      content: 'scheduled',
      scheduled_delivery_timestamp: later,
    });
    expect(allowed.body).toMatchObject({ result: 'success' });
  });

  const hamletsBot = async () => {
    const bots = (await c.hamlet.post('/register', { fetch_event_types: ['realm_bot'] })).body
      .realm_bots as any[];
    return new TestClient(w.server.url, bots[0].email, bots[0].api_key);
  };

  it("lets a bot post by its owner's rights", async () => {
    const bot = await hamletsBot();
    expect(
      (
        await bot.post('/messages', {
          type: 'stream',
          to: streams.general,
          topic: 'x',
          content: 'hello',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect(
      (
        await bot.post('/messages', {
          type: 'stream',
          to: streams.announce,
          topic: 'x',
          content: 'news',
        })
      ).body,
    ).toMatchObject({
      result: 'error',
      msg: 'Only organization administrators can send to this channel.',
    });
  });

  it('ends what a deactivated user started: key, queues, bots', async () => {
    const asBot = await hamletsBot();
    expect((await asBot.get('/users/me')).status).toBe(200);
    const queue = (await c.hamlet.post('/register', { event_types: ['message'] })).body.queue_id;
    expect(queue).toBeTruthy();

    expect((await c.desdemona.delete(`/users/${ids.hamlet}`)).body).toMatchObject({
      result: 'success',
    });
    const deactivated = { result: 'error', code: 'USER_DEACTIVATED' };
    expect((await c.hamlet.get('/users/me')).body).toMatchObject(deactivated);
    expect(
      (await c.hamlet.get('/events', { queue_id: queue, dont_block: true })).body,
    ).toMatchObject(deactivated);
    expect((await asBot.get('/users/me')).body).toMatchObject(deactivated);
    expect(
      (
        await asBot.post('/messages', {
          type: 'stream',
          to: streams.general,
          topic: 'x',
          content: 'still here?',
        })
      ).status,
    ).toBe(401);

    // Reactivated, his old queue is gone for good (the client registers anew) and the bot stays off.
    expect((await c.desdemona.post(`/users/${ids.hamlet}/reactivate`)).body).toMatchObject({
      result: 'success',
    });
    expect((await asBot.get('/users/me')).body).toMatchObject(deactivated);
    expect(
      (await c.hamlet.get('/events', { queue_id: queue, dont_block: true })).body,
    ).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });
});
