import http2 from 'node:http2';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';
import { localQueues } from '../events/manager.js';

/** The event system: long-polling, acknowledgement, heartbeats, filters and the register race. */

type Event = { id: number; type: string; op?: string } & Record<string, any>;

const poll = async (c: TestClient, queueId: string, lastEventId = -1, dontBlock = true) => {
  const r = await c.get('/events', {
    queue_id: queueId,
    last_event_id: lastEventId,
    dont_block: dontBlock,
  });
  if (r.status !== 200) throw new Error(`GET /events: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.events as Event[];
};
/** One request over an HTTP/2 session, as a load balancer speaking `proto h2` sends it. */
const h2Request = (
  session: http2.ClientHttp2Session,
  client: TestClient,
  method: string,
  path: string,
  body?: Record<string, string>,
) =>
  new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: any; stream: http2.ClientHttp2Stream }> // prettier-ignore
  ((resolve, reject) => {
    const stream = session.request({
      ':method': method,
      ':path': `/api/v1${path}`,
      authorization: h2Auth(client),
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    });
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status: Number(headers[':status']), headers, body: JSON.parse(text), stream });
    });
    stream.on('error', reject);
    stream.end(body ? new URLSearchParams(body).toString() : undefined);
  });

const h2Auth = (client: TestClient) =>
  'Basic ' + Buffer.from(`${client.email}:${client.apiKey}`).toString('base64');
const messageIds = (events: Event[]) =>
  events.filter((e) => e.type === 'message').map((e) => e.message.id as number);

describe.each(databases('both'))('event queues on %s', (db) => {
  const w = useServer({ db, people: ['hamlet', 'othello', 'cordelia'] });
  const { hamlet, othello, cordelia } = w.as;
  let anon: TestClient;
  /** a long-poll on a queue that gets no events, started first so that it times out meanwhile */
  let idlePoll: Promise<{ status: number; body: any }>;
  let idleQueue: string;
  const register = async (c: TestClient, params: Record<string, unknown> = {}) => {
    const r = await c.post('/register', params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const send = async (
    c: TestClient,
    to: string,
    topic: string,
    content = `${topic} says hello`,
  ) => {
    const r = await c.post('/messages', { type: 'stream', to, topic, content });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  };

  beforeAll(async () => {
    anon = new TestClient(w.server.url);
    idleQueue = (await othello.post('/register', { event_types: ['realm_emoji'] })).body.queue_id;
    idlePoll = othello.get('/events', { queue_id: idleQueue, last_event_id: -1 });
  });
  /** Resolves once the server holds a long-poll open on the queue. */
  const pending = async (queueId: string, userId: number) => {
    while (!localQueues(w.server.ctx).get(queueId, userId)?.isWaiting)
      await new Promise((r) => setTimeout(r, 5));
  };

  it('wakes a pending long-poll with a message another client sends', async () => {
    const q = await register(othello, { event_types: ['message'] });
    expect(q.last_event_id).toBe(-1);
    const waiting = othello.get('/events', { queue_id: q.queue_id, last_event_id: -1 });
    await pending(q.queue_id, w.id.othello);
    const id = await send(hamlet, 'general', 'wake up');
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(r.body.queue_id).toBe(q.queue_id);
    expect(r.body.events).toHaveLength(1);
    expect(r.body.events[0]).toMatchObject({
      type: 'message',
      id: 0,
      message: { id, subject: 'wake up', sender_email: 'hamlet@example.com' },
    });
    expect(r.body.events[0].flags).not.toContain('read');
  });

  it('answers at once with dont_block, and with what is queued without it', async () => {
    const q = await register(othello, { event_types: ['message'] });
    expect(await poll(othello, q.queue_id)).toEqual([]);
    const id = await send(hamlet, 'general', 'queued');
    expect(messageIds(await poll(othello, q.queue_id, -1, false))).toEqual([id]);
  });

  it('drops acknowledged events and keeps the newer ones', async () => {
    const q = await register(othello, { event_types: ['message'] });
    const ids = [
      await send(hamlet, 'general', 'ack 1'),
      await send(hamlet, 'general', 'ack 2'),
      await send(hamlet, 'general', 'ack 3'),
    ];
    const all = await poll(othello, q.queue_id);
    expect(all.map((e) => e.id)).toEqual([0, 1, 2]);
    expect(messageIds(all)).toEqual(ids);
    expect(messageIds(await poll(othello, q.queue_id, 0))).toEqual(ids.slice(1));
    expect(messageIds(await poll(othello, q.queue_id, 1))).toEqual(ids.slice(2));
    // Acknowledged events are gone even for a client that asks from the start again.
    expect(messageIds(await poll(othello, q.queue_id, -1))).toEqual(ids.slice(2));
    expect(await poll(othello, q.queue_id, 2)).toEqual([]);
    const next = await send(hamlet, 'general', 'ack 4');
    expect(await poll(othello, q.queue_id, 2)).toMatchObject([{ id: 3, message: { id: next } }]);
  });

  it('answers an idle long-poll with a heartbeat when it times out', async () => {
    const r = await idlePoll;
    expect(r.status).toBe(200);
    expect(r.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
    expect(await poll(othello, idleQueue, 0)).toEqual([]);
  });

  it('queues only the requested event types', async () => {
    const q = await register(othello, { event_types: ['subscription'] });
    await send(hamlet, 'general', 'filtered out');
    await othello.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: w.stream.general, property: 'pin_to_top', value: true }],
    });
    const events = await poll(othello, q.queue_id);
    expect(events.map((e) => `${e.type}:${e.op}`)).toEqual(['subscription:update']);
    expect(events[0]).toMatchObject({
      stream_id: w.stream.general,
      property: 'pin_to_top',
      value: true,
    });
  });

  it('filters message events by the narrow given at register', async () => {
    const byStream = await register(othello, {
      narrow: [['stream', 'engineering']],
      event_types: ['message'],
    });
    const byDm = await register(othello, { narrow: [['is', 'dm']], event_types: ['message'] });
    const byTopic = await register(othello, {
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'Narrowed' },
      ],
    });
    const inGeneral = await send(hamlet, 'general', 'narrowed');
    const inEngineering = await send(hamlet, 'engineering', 'narrowed');
    const dm = (
      await hamlet.post('/messages', { type: 'direct', to: [w.id.othello], content: 'psst' })
    ).body.id;
    expect(messageIds(await poll(othello, byStream.queue_id))).toEqual([inEngineering]);
    expect(messageIds(await poll(othello, byDm.queue_id))).toEqual([dm]);
    expect(messageIds(await poll(othello, byTopic.queue_id))).toEqual([inGeneral]);
  });

  it('gives all_public_streams queues the messages of public streams the user is not in', async () => {
    const created = await hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'town square' }],
    });
    expect(created.status).toBe(200);
    const everything = await register(cordelia, {
      all_public_streams: true,
      event_types: ['message'],
    });
    const ordinary = await register(cordelia, { event_types: ['message'] });
    const id = await send(hamlet, 'town square', 'open air');
    const secret = await send(hamlet, 'design', 'closed doors');
    const delivered = (await poll(cordelia, everything.queue_id)).filter(
      (e) => e.type === 'message',
    );
    expect(delivered.map((e) => e.message.id)).toEqual([id, secret]);
    expect(delivered[0].message.display_recipient).toBe('town square');
    // cordelia is in design herself; the public stream's message arrives although she is not.
    expect(messageIds(await poll(cordelia, ordinary.queue_id))).toEqual([secret]);
  });

  it('emits nothing for a change that fails and is rolled back', async () => {
    const q = await register(othello, {});
    const refused = await othello.post('/messages', {
      type: 'stream',
      to: 'announce',
      topic: 'nope',
      content: 'only admins post here',
    });
    expect(refused.status).toBe(400);
    // The new stream is inserted, then the request fails on "design": nothing may leak out.
    const failed = await othello.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'never born' }, { name: 'design' }],
    });
    expect(failed.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await hamlet.get('/get_stream_id', { stream: 'never born' })).status).toBe(400);
    const missing = await othello.post('/messages', {
      type: 'stream',
      to: 'nowhere',
      topic: 't',
      content: 'x',
    });
    expect(missing.body.code).toBe('STREAM_DOES_NOT_EXIST');
    expect(await poll(othello, q.queue_id)).toEqual([]);
  });

  it('loses no message sent while a queue registers, and shows none twice', async () => {
    for (let i = 0; i < 30; i++) {
      const [registered, sent] = await Promise.all([
        othello.post('/register', { event_types: ['message', 'update_message_flags'] }),
        hamlet.post('/messages', {
          type: 'stream',
          to: 'general',
          topic: 'race',
          content: `race ${i}`,
        }),
      ]);
      const snapshot = registered.body;
      const id = sent.body.id as number;
      const inSnapshot = snapshot.max_message_id >= id;
      const unread = snapshot.unread_msgs.streams.some((s: any) =>
        s.unread_message_ids.includes(id),
      );
      expect(unread, `message ${id} in the snapshot's unreads`).toBe(inSnapshot);
      const delivered = messageIds(await poll(othello, snapshot.queue_id)).filter((m) => m === id);
      expect(delivered.length + (inSnapshot ? 1 : 0), `message ${id} (round ${i})`).toBe(1);
      await othello.delete('/events', { queue_id: snapshot.queue_id });
    }
  });

  it('echoes local_id to the sending queue only', async () => {
    const mine = await register(hamlet, { event_types: ['message'] });
    const other = await register(hamlet, { event_types: ['message'] });
    const r = await hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'echo',
      content: 'x',
      queue_id: mine.queue_id,
      local_id: '17.01',
    });
    expect(r.status).toBe(200);
    const [echoed] = await poll(hamlet, mine.queue_id);
    expect(echoed).toMatchObject({
      local_id: '17.01',
      message: { id: r.body.id },
      flags: expect.arrayContaining(['read']),
    });
    const [plain] = await poll(hamlet, other.queue_id);
    expect(plain.local_id).toBeUndefined();
  });

  it('deletes a queue on DELETE /events, and only its owner may', async () => {
    const q = await register(othello, {});
    const stranger = await hamlet.delete('/events', { queue_id: q.queue_id });
    expect(stranger.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'You are not authorized to access this queue',
    });
    expect(
      (await hamlet.get('/events', { queue_id: q.queue_id, dont_block: true })).body,
    ).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'You are not authorized to get events from this queue',
    });
    expect((await othello.delete('/events', { queue_id: q.queue_id })).body).toEqual({
      result: 'success',
      msg: '',
    });
    const gone = await othello.get('/events', {
      queue_id: q.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({
      result: 'error',
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: q.queue_id,
    });
    expect((await othello.delete('/events', { queue_id: q.queue_id })).body.code).toBe(
      'BAD_EVENT_QUEUE_ID',
    );
  });

  it('registers spectators without a queue and refuses what they cannot have', async () => {
    const r = await anon.post('/register', {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      queue_id: null,
      realm_name: 'Parley Demo',
      service_feature_level: 222,
    });
    expect(r.body.streams.map((s: any) => s.name)).toEqual(['welcome']);
    for (const bad of [{ client_gravatar: true }, { include_subscribers: true }]) {
      const refused = await anon.post('/register', bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    }
    expect((await anon.post('/register', { client_gravatar: false })).status).toBe(200);
  });

  it('discards queues idle for longer than the idle time, but not one being polled', async () => {
    const idle = (await register(othello, { event_types: ['message'] })).queue_id;
    const polled = (await register(othello, { event_types: ['message'] })).queue_id;
    const waiting = othello.get('/events', { queue_id: polled, last_event_id: -1 });
    await pending(polled, w.id.othello);
    const idleMs = w.server.ctx.config.queueIdleSeconds * 1000;
    localQueues(w.server.ctx).collectGarbage(Date.now() + idleMs - 5000);
    expect(localQueues(w.server.ctx).get(idle, w.id.othello)).toBeDefined();
    localQueues(w.server.ctx).collectGarbage(Date.now() + idleMs + 1000);
    const gone = await othello.get('/events', {
      queue_id: idle,
      last_event_id: -1,
      dont_block: true,
    });
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({
      result: 'error',
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: idle,
    });
    const id = await send(hamlet, 'general', 'still polled');
    expect((await waiting).body.events).toMatchObject([{ type: 'message', message: { id } }]);
    expect(
      (await othello.get('/events', { queue_id: polled, last_event_id: 0, dont_block: true }))
        .status,
    ).toBe(200);
  });

  it('lets spectators read the web-public stream and nothing else', async () => {
    const welcome = await anon.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      narrow: [{ operator: 'channel', operand: 'welcome' }],
    });
    expect(welcome.status).toBe(200);
    expect(welcome.body.messages.length).toBeGreaterThan(0);
    expect(welcome.body.messages.every((m: any) => m.display_recipient === 'welcome')).toBe(true);
    expect(
      (
        await anon.get('/messages', {
          anchor: 'newest',
          num_before: 1,
          narrow: [['stream', String(w.stream.welcome)]],
        })
      ).status,
    ).toBe(200);
    for (const narrow of [
      [],
      [['channel', 'general']],
      [['channel', 'design']],
      [['is', 'dm']],
      [
        ['channel', 'welcome'],
        ['channel', 'general'],
      ],
    ]) {
      const refused = await anon.get('/messages', { anchor: 'newest', num_before: 5, narrow });
      expect(refused.status, JSON.stringify(narrow)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.result).toBe('error');
    }
  });
  it('serves HTTP/2 from a load balancer on the same port: many long-polls on one connection', async () => {
    const session = http2.connect(w.server.url);
    try {
      // 40 queues of othello's, each parked by a stream of the one connection.
      const queues: string[] = [];
      for (let i = 0; i < 40; i++) queues.push((await register(othello, { event_types: ['message'] })).queue_id); // prettier-ignore
      // Each polls until a message comes (the test server's long-polls end in 2 s with a heartbeat).
      const untilMessage = async (q: string) => {
        for (let last = -1; ;) {
          const r = await h2Request(session, othello, 'GET', `/events?queue_id=${q}&last_event_id=${last}`); // prettier-ignore
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          if (messageIds(r.body.events).length) return r;
          last = Math.max(last, ...r.body.events.map((e: Event) => e.id));
        }
      };
      const polls = queues.map(untilMessage);
      for (const q of queues) await pending(q, w.id.othello);
      // A poll whose stream the balancer resets (its client left) stops waiting.
      const gone = (await register(othello, { event_types: ['message'] })).queue_id;
      const left = session.request({
        ':path': `/api/v1/events?queue_id=${gone}&last_event_id=-1`,
        authorization: h2Auth(othello),
      });
      left.on('error', () => {});
      await pending(gone, w.id.othello);
      left.close(http2.constants.NGHTTP2_CANCEL);
      while (localQueues(w.server.ctx).get(gone, w.id.othello)?.isWaiting)
        await new Promise((r) => setTimeout(r, 5));
      // A message sent over HTTP/2 too (a form body), which every parked stream then receives.
      const sent = await h2Request(session, hamlet, 'POST', '/messages', {
        type: 'stream', to: 'general', topic: 'over h2', content: 'multiplexed',
      }); // prettier-ignore
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.headers.connection).toBeUndefined();
      for (const answer of await Promise.all(polls)) {
        expect(answer.status).toBe(200);
        expect(messageIds(answer.body.events)).toEqual([sent.body.id]);
      }
      // The reset poll's queue kept the message for its next poll.
      expect(messageIds(await poll(othello, gone))).toEqual([sent.body.id]);
      // A connection reset before its first byte (when neither protocol has it) harms nothing.
      const early = net.connect(Number(new URL(w.server.url).port), '127.0.0.1');
      await new Promise((resolve) => early.once('connect', resolve));
      early.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Errors keep the API's envelope over HTTP/2.
      const bad = await h2Request(
        session,
        othello,
        'GET',
        '/events?queue_id=nope&last_event_id=-1',
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID' });
    } finally {
      session.close();
    }
  });
});
