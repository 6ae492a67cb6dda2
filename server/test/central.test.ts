/**
 * The central test: for each action that emits events, register as the web client does, perform
 * the action, apply the events the queue received with the client's own reducers (src/model),
 * and compare the result with the state built from a fresh register.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/api/parse-event.js';
import type { RegisterResponse } from '../../src/api/model/index.js';
import { REGISTER_OPTIONS } from '../../src/model/poller.js';
import { accountStateFromSnapshot, reduceAccountEvent, type AccountState } from '../../src/model/account-state.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { TestClient } from './client.js';

/** Event types the web client does not model yet; it ignores them, and its state must not need them. */
const UNTRACKED_BY_CLIENT = new Set(['user_group', 'realm_linkifiers', 'realm_filters', 'default_streams', 'user_topic']);

/** The parts of the live state a fresh register must reproduce (queue identity and typing aside). */
function comparable(state: AccountState) {
  const { queueId: _queueId, typing: _typing, ...rest } = state;
  return JSON.parse(JSON.stringify(rest));
}

describe.each(DATABASES)('events applied by the client reducers match a fresh register on %s', (db) => {
  let server: TestServer;
  let hamlet: TestClient;
  let othello: TestClient;
  let iago: TestClient;
  let ids: Record<string, number>;

  const register = async (client: TestClient) => {
    const r = await client.post('/register', REGISTER_OPTIONS);
    expect(r.status).toBe(200);
    return r.body as RegisterResponse & { queue_id: string };
  };

  /** Registers, acts, applies what arrived, and compares with a new snapshot. */
  async function checkAction(client: TestClient, act: () => Promise<unknown>) {
    const snapshot = await register(client);
    await act();
    const got = await client.get('/events', { queue_id: snapshot.queue_id, last_event_id: -1, dont_block: true });
    const events = got.body.events as unknown[];
    let state = accountStateFromSnapshot(snapshot);
    for (const raw of events) {
      const parsed = parseEvent(raw);
      if (!UNTRACKED_BY_CLIENT.has((raw as { type: string }).type))
        expect(parsed.type, JSON.stringify(raw).slice(0, 200)).not.toBe('unexpected');
      state = reduceAccountEvent(state, parsed, Date.now());
    }
    const fresh = accountStateFromSnapshot(await register(client));
    expect(comparable(state)).toEqual(comparable(fresh));
    return events;
  }

  beforeAll(async () => {
    server = await startTestServer({ db });
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    ids = {
      hamlet: (await hamlet.get('/users/me')).body.user_id,
      othello: (await othello.get('/users/me')).body.user_id,
      general: (await hamlet.get('/get_stream_id', { stream: 'general' })).body.stream_id,
      engineering: (await hamlet.get('/get_stream_id', { stream: 'engineering' })).body.stream_id,
    };
  });
  afterAll(() => server?.close());

  it('receiving a stream message', async () => {
    const events = await checkAction(hamlet, () =>
      othello.post('/messages', { type: 'stream', to: 'general', topic: 'central', content: 'hi @**King Hamlet**' }),
    );
    expect(events.length).toBeGreaterThan(0);
  });

  it('receiving and sending direct messages', async () => {
    await checkAction(hamlet, () => othello.post('/messages', { type: 'direct', to: [ids.hamlet], content: 'psst' }));
    await checkAction(hamlet, () => hamlet.post('/messages', { type: 'direct', to: [ids.othello], content: 'yes?' }));
  });

  it('marking messages read and unread, starring', async () => {
    const id = (await othello.post('/messages', { type: 'stream', to: 'general', topic: 'central', content: 'read me' })).body.id;
    await checkAction(hamlet, () => hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));
    await checkAction(hamlet, () => hamlet.post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
    await checkAction(hamlet, () => hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }));
    await checkAction(hamlet, () => hamlet.post('/mark_topic_as_read', { stream_id: ids.general, topic_name: 'central' }));
    await checkAction(hamlet, () => hamlet.post('/mark_all_as_read'));
  });

  it('subscribing, changing subscription properties and unsubscribing', async () => {
    await checkAction(hamlet, () => hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'central-new' }] }));
    const streamId = (await hamlet.get('/get_stream_id', { stream: 'central-new' })).body.stream_id;
    await checkAction(hamlet, () =>
      hamlet.post('/users/me/subscriptions/properties', {
        subscription_data: [
          { stream_id: streamId, property: 'color', value: '#123456' },
          { stream_id: streamId, property: 'is_muted', value: true },
          { stream_id: streamId, property: 'pin_to_top', value: true },
        ],
      }),
    );
    await checkAction(othello, () => hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'central-new' }], principals: [ids.othello] }));
    await checkAction(hamlet, () => hamlet.delete('/users/me/subscriptions', { subscriptions: ['central-new'] }));
  });

  it('changing personal settings', async () => {
    await checkAction(hamlet, () => hamlet.patch('/settings', { twenty_four_hour_time: 'true', web_home_view: 'recent_topics', timezone: 'Europe/Oslo' }));
  });

  it('creating, editing and deleting drafts', async () => {
    await checkAction(hamlet, () => hamlet.post('/drafts', { drafts: [{ type: 'stream', to: [ids.general], topic: 't', content: 'draft' }] }));
    const draftId = (await hamlet.get('/drafts')).body.drafts[0].id;
    await checkAction(hamlet, () => hamlet.patch(`/drafts/${draftId}`, { draft: { type: 'stream', to: [ids.general], topic: 't', content: 'edited' } }));
    await checkAction(hamlet, () => hamlet.delete(`/drafts/${draftId}`));
  });

  it('editing, moving and deleting messages', async () => {
    const id = (await othello.post('/messages', { type: 'stream', to: 'engineering', topic: 'central edit', content: 'first' })).body.id;
    await checkAction(hamlet, () => othello.patch(`/messages/${id}`, { content: 'second @**King Hamlet**' }));
    await checkAction(hamlet, () => othello.patch(`/messages/${id}`, { topic: 'central moved', propagate_mode: 'change_all' }));
    await checkAction(hamlet, () => othello.delete(`/messages/${id}`));
  });

  it('organization changes by an administrator', async () => {
    await checkAction(hamlet, () => iago.patch('/realm', { name: 'Parley Central', mandatory_topics: 'true' }));
    await checkAction(hamlet, () => iago.post('/users', { email: 'newcomer@example.com', password: 'newcomer-pass', full_name: 'New Comer' }));
  });
});
