import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateRealm, reactivateRealm } from '../actions/realm-admin.js';
import { confirmEmailChange } from '../actions/settings.js';
import { TestClient } from './client.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';

/**
 * GET /events authenticates through its queue: once a poll's headers were checked against the
 * database, the same headers on the same queue are accepted without reading it again. Every way
 * those credentials can stop being good must still end them at once.
 */
describe.each(DATABASES)('long-polls authenticated by their queue (%s)', (db) => {
  let server: TestServer;
  let hamlet: TestClient;
  let iago: TestClient;

  const userId = async (c: TestClient) => (await c.get('/users/me')).body.user_id as number;
  const register = async (c: TestClient) => {
    const r = await c.post('/register', { event_types: ['message', 'realm_user'] });
    expect(r.status).toBe(200);
    return r.body.queue_id as string;
  };
  const poll = (c: TestClient, queueId: string) =>
    c.get('/events', { queue_id: queueId, dont_block: true });
  const setActive = (id: number, active: boolean) =>
    server.ctx.db
      .updateTable('users')
      .set({ is_active: active ? 1 : 0 })
      .where('id', '=', id)
      .execute();

  beforeAll(async () => {
    server = await startTestServer({ db });
    hamlet = await TestClient.login(server.url, 'hamlet@example.com', DEMO_PASSWORD);
    iago = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
  });
  afterAll(() => server?.close());

  it('accepts a repeated poll without reading the database, and nothing else', async () => {
    const queueId = await register(hamlet);
    expect((await poll(hamlet, queueId)).status).toBe(200);
    // Behind the server's back (no event, no control): the database now refuses Hamlet, so only
    // the queue's memory of the verified headers can let his next poll through.
    const id = await userId(hamlet);
    await setActive(id, false);
    try {
      expect((await hamlet.get('/users/me')).body.code).toBe('USER_DEACTIVATED');
      const vouched = await poll(hamlet, queueId);
      expect(vouched.status).toBe(200);
      expect(vouched.body.queue_id).toBe(queueId);
      // The same queue with other headers goes to the database, which refuses them.
      const wrongKey = new TestClient(server.url, hamlet.email, hamlet.apiKey + 'x');
      expect((await poll(wrongKey, queueId)).body.code).toBe('INVALID_API_KEY');
      const otherQueue = await register(iago);
      expect((await poll(hamlet, otherQueue)).body.code).toBe('USER_DEACTIVATED');
    } finally {
      await setActive(id, true);
    }
  });

  it('never lends a queue to someone else with good credentials of their own', async () => {
    const queueId = await register(hamlet);
    expect((await poll(hamlet, queueId)).status).toBe(200);
    const r = await poll(iago, queueId);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('You are not authorized to get events from this queue');
  });

  it("refuses a bot's old key as soon as the key is regenerated", async () => {
    const created = await hamlet.post('/bots', { full_name: 'Poller', short_name: 'poller' });
    expect(created.status).toBe(200);
    const botEmail = 'poller-bot@parley.bots';
    const oldKey = new TestClient(server.url, botEmail, created.body.api_key);
    const queueId = await register(oldKey);
    expect((await poll(oldKey, queueId)).status).toBe(200);
    expect((await poll(oldKey, queueId)).status).toBe(200);

    const regenerated = await hamlet.post(`/bots/${created.body.user_id}/api_key/regenerate`);
    expect(regenerated.status).toBe(200);
    expect((await poll(oldKey, queueId)).body.code).toBe('INVALID_API_KEY');
    // The queue itself lives on for the new key.
    const newKey = new TestClient(server.url, botEmail, regenerated.body.api_key);
    const r = await poll(newKey, queueId);
    expect(r.status).toBe(200);
    expect(r.body.queue_id).toBe(queueId);
  });

  it('refuses the old address once a new one is confirmed', async () => {
    const othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    const queueId = await register(othello);
    expect((await poll(othello, queueId)).status).toBe(200);
    const newAddress = 'moor@example.com';
    expect((await othello.patch('/settings', { email: newAddress })).status).toBe(200);
    const change = await server.ctx.db
      .selectFrom('email_changes')
      .select('token')
      .where('new_email', '=', newAddress)
      .executeTakeFirstOrThrow();
    expect(await confirmEmailChange(server.ctx, change.token)).toBe(newAddress);
    expect((await poll(othello, queueId)).body.code).toBe('INVALID_API_KEY');
    const renamed = new TestClient(server.url, newAddress, othello.apiKey);
    expect((await poll(renamed, queueId)).status).toBe(200);
  });

  it('ends the polls of a deactivated person', async () => {
    const cordelia = await TestClient.login(server.url, 'cordelia@example.com', DEMO_PASSWORD);
    const id = await userId(cordelia);
    const queueId = await register(cordelia);
    expect((await poll(cordelia, queueId)).status).toBe(200);
    expect((await iago.delete(`/users/${id}`)).status).toBe(200);
    expect((await poll(cordelia, queueId)).body.code).toBe('USER_DEACTIVATED');
    // Reactivated, the old queue is gone rather than vouching again.
    expect((await iago.post(`/users/${id}/reactivate`)).status).toBe(200);
    expect((await poll(cordelia, queueId)).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('answers REALM_DEACTIVATED once the organization is deactivated', async () => {
    const queueId = await register(hamlet);
    expect((await poll(hamlet, queueId)).status).toBe(200);
    const realm = await server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    await deactivateRealm(server.ctx, realm);
    try {
      expect((await poll(hamlet, queueId)).body.code).toBe('REALM_DEACTIVATED');
    } finally {
      await reactivateRealm(server.ctx, realm);
    }
    expect((await poll(hamlet, queueId)).status).toBe(200);
  });
});
