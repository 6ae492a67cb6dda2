import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { drain, TestClient } from './client.js';

/**
 * The security review's findings about organization policies and invitations (issue 16: 1, 2,
 * 6, 7, 8, 10; issue 20: 1), each done as the attacker did it, refused as the reference server
 * refuses it, next to the legitimate use that must keep working.
 */

const NAMES = ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia', 'polonius'] as const;
type Name = (typeof NAMES)[number];

describe.each(DATABASES)('organization policies and invitations on %s', (db) => {
  let server: TestServer;
  let c: Record<Name, TestClient>;
  let ids: Record<Name, number>;
  let streams: Record<string, number>;

  const setRealm = async (params: Record<string, unknown>) =>
    expect((await c.desdemona.patch('/realm', params)).body).toMatchObject({ result: 'success' });
  const outbox = () =>
    fs.readFileSync(path.join(server.dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const signUp = (link: string, form: Record<string, string>) =>
    fetch(`${server.url}${new URL(link).pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  beforeAll(async () => {
    server = await startTestServer({ db });
    c = Object.fromEntries(
      await Promise.all(NAMES.map(async (n) => [n, await TestClient.login(server.url, `${n}@example.com`, DEMO_PASSWORD)])),
    ) as Record<Name, TestClient>;
    ids = Object.fromEntries(
      await Promise.all(NAMES.map(async (n) => [n, (await c[n].get('/users/me')).body.user_id])),
    ) as Record<Name, number>;
    const all = (await c.desdemona.get('/streams', { include_all_active: 'true' })).body.streams as any[];
    streams = Object.fromEntries(all.map((s) => [s.name, s.stream_id]));
  });
  afterAll(() => server?.close());

  it('shows and hands invitations that make owners to owners only (16.1)', async () => {
    const made = await c.desdemona.post('/invites/multiuse', { invite_as: 100, stream_ids: [] });
    expect(made.body).toMatchObject({ result: 'success' });
    const ownerLink = made.body.invite_link as string;
    const adminView = (await c.iago.get('/invites')).body.invites as any[];
    expect(adminView.map((i) => i.link_url)).not.toContain(ownerLink);
    const ownerView = (await c.desdemona.get('/invites')).body.invites as any[];
    const invite = ownerView.find((i) => i.link_url === ownerLink);
    expect(invite).toMatchObject({ invited_as: 100, is_multiuse: true });
    expect((await c.iago.delete(`/invites/multiuse/${invite.id}`)).body).toMatchObject({
      result: 'error', code: 'BAD_REQUEST', msg: 'Must be an organization owner',
    });
    // Invitations that make members stay visible to every administrator.
    const memberLink = (await c.desdemona.post('/invites/multiuse', { invite_as: 400, stream_ids: [] })).body.invite_link;
    expect(((await c.iago.get('/invites')).body.invites as any[]).map((i) => i.link_url)).toContain(memberLink);
    expect((await c.desdemona.delete(`/invites/multiuse/${invite.id}`)).body).toMatchObject({ result: 'success' });
  });

  it('refuses all_public_streams queues to guests (16.2)', async () => {
    const guest = await c.polonius.post('/register', { all_public_streams: true, event_types: ['message'] });
    expect(guest.status).toBe(400);
    expect(guest.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'User not authorized for this query' });
    // A member who is not in engineering still receives its messages on such a queue.
    await c.desdemona.delete('/users/me/subscriptions', { subscriptions: ['engineering'] });
    const queue = (await c.desdemona.post('/register', { all_public_streams: true, event_types: ['message'] })).body.queue_id;
    await c.hamlet.post('/messages', { type: 'stream', to: streams.engineering, topic: 'all public', content: 'for everyone' });
    const events = await drain(c.desdemona, queue);
    expect(events.map((e) => e.message?.content)).toContain('for everyone');
  });

  it('drops a queue of all public channels when its user becomes a guest', async () => {
    const queue = (await c.othello.post('/register', { all_public_streams: true, event_types: ['message'] })).body.queue_id;
    expect((await c.desdemona.patch(`/users/${ids.othello}`, { role: 600 })).status).toBe(200);
    expect((await c.othello.get('/events', { queue_id: queue, dont_block: true })).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
    expect((await c.desdemona.patch(`/users/${ids.othello}`, { role: 400 })).status).toBe(200);
  });

  it('creates web-public channels by create_web_public_stream_policy (16.6)', async () => {
    await setRealm({ create_web_public_stream_policy: 7 });
    const asModerator = await c.shiva.post('/users/me/subscriptions', { subscriptions: [{ name: 'shiva-web' }], is_web_public: true });
    expect(asModerator.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    expect((await c.iago.get('/get_stream_id', { stream: 'shiva-web' })).body.code).toBe('BAD_REQUEST');
    const asOwner = await c.desdemona.post('/users/me/subscriptions', { subscriptions: [{ name: 'owner-web' }], is_web_public: true });
    expect(asOwner.body).toMatchObject({ result: 'success' });
    await setRealm({ create_web_public_stream_policy: 4 });
    expect((await c.shiva.post('/users/me/subscriptions', { subscriptions: [{ name: 'shiva-web' }], is_web_public: true })).body)
      .toMatchObject({ result: 'success' });
  });

  it('creates public and private channels by their policies (16.7)', async () => {
    await setRealm({ create_public_stream_policy: 2, create_private_stream_policy: 2 });
    for (const invite_only of [false, true]) {
      const r = await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: `hamlet-${invite_only}` }], invite_only });
      expect(r.body, `invite_only=${invite_only}`).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect((await c.iago.post('/users/me/subscriptions', { subscriptions: [{ name: `iago-${invite_only}` }], invite_only })).body)
        .toMatchObject({ result: 'success' });
    }
    const me = (await c.hamlet.post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(me).toMatchObject({ can_create_public_streams: false, can_create_private_streams: false, can_create_streams: false });
    await setRealm({ create_public_stream_policy: 1, create_private_stream_policy: 1 });
    expect((await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'hamlet-public' }] })).body)
      .toMatchObject({ result: 'success' });
  });

  it('subscribes other people by invite_to_stream_policy (16.8)', async () => {
    await setRealm({ invite_to_stream_policy: 2 });
    const r = await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'engineering' }], principals: [ids.polonius] });
    expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    const polonius = (await c.polonius.get('/users/me/subscriptions')).body.subscriptions as any[];
    expect(polonius.map((s) => s.name)).not.toContain('engineering');
    // Naming only oneself is not subscribing others; administrators pass the policy.
    expect((await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'engineering' }], principals: [ids.hamlet] })).body)
      .toMatchObject({ result: 'success' });
    expect((await c.iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'engineering' }], principals: [ids.polonius] })).body)
      .toMatchObject({ result: 'success', subscribed: { 'polonius@example.com': ['engineering'] } });
    await setRealm({ invite_to_stream_policy: 1 });
  });

  it('hides a real address from those its owner does not show it to (16.9)', async () => {
    const fake = `user${ids.othello}@parley.invalid`;
    const othelloAs = async (viewer: TestClient) => ({
      list: ((await viewer.get('/users')).body.members as any[]).find((u) => u.user_id === ids.othello),
      one: (await viewer.get(`/users/${ids.othello}`)).body.user,
      registered: ((await viewer.post('/register', { fetch_event_types: ['realm_user'] })).body.realm_users as any[])
        .find((u) => u.user_id === ids.othello),
    });
    const queue = (await c.hamlet.post('/register', { event_types: ['realm_user'] })).body.queue_id;
    expect((await c.othello.patch('/settings', { email_address_visibility: 4 })).body).toMatchObject({ result: 'success' });
    for (const viewer of ['hamlet', 'polonius', 'iago'] as const) {
      const seen = await othelloAs(c[viewer]);
      for (const [where, user] of Object.entries(seen))
        expect(user, `${viewer} ${where}`).toMatchObject({ email: fake, delivery_email: null });
    }
    expect((await drain(c.hamlet, queue)).map((e) => e.person)).toEqual(expect.arrayContaining([
      { user_id: ids.othello, new_email: fake }, { user_id: ids.othello, delivery_email: null },
    ]));
    // Othello himself still sees and logs in with his address; the stand-in works in the API.
    expect((await c.othello.get(`/users/${ids.othello}`)).body.user.delivery_email).toBe('othello@example.com');
    const again = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
    expect((await again.get('/users/me')).body).toMatchObject({ email: fake, delivery_email: 'othello@example.com' });
    expect((await c.hamlet.post('/messages', { type: 'direct', to: [fake], content: 'to the stand-in' })).body)
      .toMatchObject({ result: 'success' });
    expect((await c.hamlet.get(`/users/${fake}`)).body.user).toMatchObject({ user_id: ids.othello });
    // Administrators only: Iago sees it, Hamlet does not.
    expect((await c.othello.patch('/settings', { email_address_visibility: 3 })).body).toMatchObject({ result: 'success' });
    expect((await othelloAs(c.iago)).one).toMatchObject({ email: fake, delivery_email: 'othello@example.com' });
    expect((await othelloAs(c.hamlet)).one).toMatchObject({ email: fake, delivery_email: null });
    expect((await c.othello.patch('/settings', { email_address_visibility: 1 })).body).toMatchObject({ result: 'success' });
    expect((await othelloAs(c.hamlet)).one).toMatchObject({ email: 'othello@example.com', delivery_email: 'othello@example.com' });
  });

  it('answers every anonymous request with 401 while spectator access is off (16.10)', async () => {
    const anon = new TestClient(server.url);
    const topicsPath = `/users/me/${streams.welcome}/topics`;
    expect((await anon.get(topicsPath)).status).toBe(200);
    await setRealm({ enable_spectator_access: false });
    for (const [method, p, params] of [
      ['GET', topicsPath, {}],
      ['GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['channel', String(streams.welcome)]] }],
      ['POST', '/register', {}],
    ] as const) {
      const r = await anon.request(method, p, params);
      expect(r.status, `${method} ${p}`).toBe(401);
      expect(r.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    }
    await setRealm({ enable_spectator_access: true });
    expect((await anon.get(topicsPath)).body.topics.length).toBeGreaterThan(0);
  });

  it('revokes the invitations of a deactivated inviter, which then sign nobody up (20.1)', async () => {
    const admin = await TestClient.login(server.url, 'iago@example.com', DEMO_PASSWORD);
    // An administrator who will leave: a new account made an administrator by the owner.
    const leaving = await c.desdemona.post('/invites', { invitee_emails: 'osric@example.com', invite_as: 200, stream_ids: [] });
    expect(leaving.status).toBe(200);
    const osricLink = outbox().filter((m) => m.to === 'osric@example.com').at(-1).link as string;
    expect((await signUp(osricLink, { full_name: 'Osric', password: 'osric-password' })).status).toBe(200);
    const osric = await TestClient.login(server.url, 'osric@example.com', 'osric-password');
    const osricId = (await osric.get('/users/me')).body.user_id;

    expect((await osric.post('/invites', { invitee_emails: 'fortinbras@example.com', invite_as: 200, stream_ids: [] })).status).toBe(200);
    const emailLink = outbox().filter((m) => m.to === 'fortinbras@example.com').at(-1).link as string;
    const reusable = (await osric.post('/invites/multiuse', { invite_as: 200, stream_ids: [] })).body.invite_link as string;
    const pending = (await admin.get('/invites')).body.invites as any[];
    expect(pending.filter((i) => i.invited_by_user_id === osricId)).toHaveLength(2);

    const queue = (await admin.post('/register', { event_types: ['invites_changed'] })).body.queue_id;
    expect((await c.desdemona.delete(`/users/${osricId}`)).body).toMatchObject({ result: 'success' });
    expect(((await admin.get('/invites')).body.invites as any[]).filter((i) => i.invited_by_user_id === osricId)).toEqual([]);
    expect((await drain(admin, queue)).map((e) => e.type)).toContain('invites_changed');

    for (const link of [emailLink, reusable]) {
      expect((await fetch(`${server.url}${new URL(link).pathname}`)).status, link).toBe(404);
      const r = await signUp(link, { email: 'fortinbras@example.com', full_name: 'Fortinbras', password: 'fortinbras-pw' });
      expect(r.status).not.toBe(200);
    }
    await expect(TestClient.login(server.url, 'fortinbras@example.com', 'fortinbras-pw')).rejects.toThrow();
    // An active administrator's invitations still work.
    expect((await admin.post('/invites', { invitee_emails: 'horatio@example.com', invite_as: 400, stream_ids: [] })).status).toBe(200);
    const horatio = outbox().filter((m) => m.to === 'horatio@example.com').at(-1).link as string;
    expect((await signUp(horatio, { full_name: 'Horatio', password: 'horatio-password' })).status).toBe(200);
  });
});
