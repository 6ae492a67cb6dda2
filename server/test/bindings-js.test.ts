import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { localQueues } from '../events/manager.js';

/**
 * The official JavaScript bindings (zulip-js) against a real server: they send multipart POST
 * bodies, put the parameters of other methods in the query string, and JSON-encode only some
 * lists themselves. The wire format is the same on every database, so SQLite is enough here.
 */

const require = createRequire(import.meta.url);
const zulipInit: (config: Record<string, unknown>) => Promise<any> = require('zulip-js');

describe('zulip-js, the official JavaScript bindings', () => {
  let server: TestServer;
  let hamlet: any;
  let othello: any;
  let othelloTest: TestClient;
  let othelloId: number;

  beforeAll(async () => {
    server = await startTestServer({ db: 'sqlite' });
    hamlet = await zulipInit({
      username: 'hamlet@example.com',
      password: DEMO_PASSWORD,
      realm: server.url,
    });
    othelloTest = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    othello = await zulipInit({
      username: othelloTest.email,
      apiKey: othelloTest.apiKey,
      realm: `${server.url}/api`,
    });
    othelloId = (await othelloTest.get('/users/me')).body.user_id;
  });
  afterAll(() => server?.close());

  it('fetches an API key with email and password', async () => {
    const direct = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    expect(hamlet.config.apiKey).toBe(direct.apiKey);
    const me = await hamlet.users.me.getProfile();
    expect(me).toMatchObject({
      result: 'success',
      email: 'hamlet@example.com',
      full_name: 'King Hamlet',
    });
    const wrong = await zulipInit({
      username: 'hamlet@example.com',
      password: 'not it',
      realm: server.url,
    });
    expect(wrong.config.apiKey).toBeUndefined();
    expect(await wrong.users.me.getProfile()).toMatchObject({
      result: 'error',
      code: 'INVALID_API_KEY',
    });
  });

  it('reads the server settings', async () => {
    const settings = await hamlet.server.settings();
    expect(settings).toMatchObject({
      result: 'success',
      realm_name: 'Parley Demo',
      email_auth_enabled: true,
      zulip_feature_level: 222,
    });
    expect(settings.realm_uri).toBe(server.url);
  });

  it('sends stream and direct messages, in the forms the README shows', async () => {
    const stream = await hamlet.messages.send({
      to: 'general',
      type: 'stream',
      topic: 'bindings',
      content: 'from **zulip-js**',
    });
    expect(stream).toMatchObject({ result: 'success' });
    const legacy = await hamlet.messages.send({
      to: 'general',
      type: 'stream',
      subject: 'bindings',
      content: 'with subject',
    });
    expect(legacy.id).toBeGreaterThan(stream.id);
    const dm = await hamlet.messages.send({
      to: [othelloId],
      type: 'direct',
      content: 'a word in private',
    });
    const byEmail = await hamlet.messages.send({
      to: 'othello@example.com',
      type: 'private',
      content: 'by email',
    });
    expect([dm.result, byEmail.result]).toEqual(['success', 'success']);
    const seen = await othelloTest.get(`/messages/${dm.id}`);
    expect(seen.body.message).toMatchObject({
      type: 'private',
      sender_email: 'hamlet@example.com',
    });
    const topics = await hamlet.streams.topics.retrieve({
      stream_id: (await hamlet.streams.getStreamId('general')).stream_id,
    });
    expect(topics.topics.map((t: any) => t.name)).toContain('bindings');
    const refused = await hamlet.messages.send({
      to: 'nowhere',
      type: 'stream',
      topic: 'x',
      content: 'y',
    });
    expect(refused).toMatchObject({
      result: 'error',
      code: 'STREAM_DOES_NOT_EXIST',
      stream: 'nowhere',
    });
  });

  it('fetches messages with a narrow and changes their flags', async () => {
    const r = await othello.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'bindings' },
      ],
    });
    expect(r.result).toBe('success');
    expect(r.messages.map((m: any) => m.content)).toEqual([
      '<p>from <strong>zulip-js</strong></p>',
      '<p>with subject</p>',
    ]);
    expect(r.found_newest).toBe(true);
    const ids = r.messages.map((m: any) => m.id);
    expect(await othello.messages.flags.add({ messages: ids, flag: 'read' })).toMatchObject({
      result: 'success',
      messages: ids,
    });
    const unread = await othello.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        ['topic', 'bindings'],
        ['is', 'unread'],
      ],
    });
    expect(unread.messages).toEqual([]);
    const reacted = await othello.reactions.add({ message_id: ids[0], emoji_name: 'octopus' });
    expect(reacted.result).toBe('success');
    const single = await othello.messages.getById({ message_id: ids[0] });
    expect(single.message.reactions).toMatchObject([{ emoji_name: 'octopus', user_id: othelloId }]);
  });

  it('registers a queue and long-polls it until another client sends a message', async () => {
    const queue = await othello.queues.register({ event_types: ['message'] });
    expect(queue).toMatchObject({ result: 'success', last_event_id: -1 });
    const poll = othello.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    while (!localQueues(server.ctx).get(queue.queue_id, othelloId)?.isWaiting)
      await new Promise((r) => setTimeout(r, 5));
    const sent = await hamlet.messages.send({
      to: 'general',
      type: 'stream',
      topic: 'long poll',
      content: 'ping',
    });
    const delivered = await poll;
    expect(delivered).toMatchObject({ result: 'success', queue_id: queue.queue_id });
    expect(delivered.events).toMatchObject([
      { id: 0, type: 'message', message: { id: sent.id, sender_email: 'hamlet@example.com' } },
    ]);
    const acked = await othello.events.retrieve({
      queue_id: queue.queue_id,
      last_event_id: 0,
      dont_block: true,
    });
    expect(acked.events).toEqual([]);
    expect(await othello.queues.deregister({ queue_id: queue.queue_id })).toMatchObject({
      result: 'success',
    });
    const gone = await othello.events.retrieve({ queue_id: queue.queue_id, dont_block: true });
    expect(gone).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('subscribes and unsubscribes', async () => {
    const added = await othello.users.me.subscriptions.add({
      subscriptions: [{ name: 'js bindings', description: 'made by zulip-js' }],
    });
    expect(added).toMatchObject({
      result: 'success',
      subscribed: { 'othello@example.com': ['js bindings'] },
    });
    const subs = await othello.streams.subscriptions.retrieve();
    expect(subs.subscriptions.find((s: any) => s.name === 'js bindings')).toMatchObject({
      description: 'made by zulip-js',
    });
    const streams = await othello.streams.retrieve();
    expect(streams.streams.map((s: any) => s.name)).toContain('js bindings');
    const removed = await othello.users.me.subscriptions.remove({
      subscriptions: JSON.stringify(['js bindings']),
    });
    expect(removed).toMatchObject({ result: 'success', removed: ['js bindings'], not_removed: [] });
    const again = await othello.users.me.subscriptions.remove({
      subscriptions: JSON.stringify(['js bindings']),
    });
    expect(again).toMatchObject({ removed: [], not_removed: ['js bindings'] });
  });

  it('reaches other endpoints through callEndpoint and sends typing notifications', async () => {
    const rendered = await hamlet.callEndpoint('/messages/render', 'POST', { content: '*hi*' });
    expect(rendered).toMatchObject({ result: 'success', rendered: '<p><em>hi</em></p>' });
    expect(await hamlet.typing.send({ to: [othelloId], op: 'start' })).toMatchObject({
      result: 'success',
    });
    const users = await hamlet.users.retrieve();
    expect(users.members.map((u: any) => u.email)).toContain('othello@example.com');
  });
});
