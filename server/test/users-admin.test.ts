import { beforeAll, describe, expect, it } from 'vitest';
import { createRealm } from '../actions/realm.js';
import { createUser } from '../actions/users.js';
import { type TestServer } from './harness.js';
import { TestClient } from './client.js';
import { drain, expectError, expectEventsMatchSpec, expectResponseMatchesSpec } from './people.js';
import { databases, useServer } from './fixtures.js';
import { localQueues } from '../events/manager.js';

/** A new member (and optionally a bot they own), made through the actions. */
async function newMember(server: TestServer, name: string, withBot = false) {
  const realm = await server.ctx.db
    .selectFrom('realms')
    .selectAll()
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const user = await createUser(server.ctx, realm, {
    email: `${name}@example.com`,
    fullName: name,
    password: `${name}-password`,
  });
  const bot = withBot
    ? await createUser(server.ctx, realm, {
        email: `${name}-bot@parley.bots`,
        fullName: `${name} bot`,
        password: null,
        isBot: true,
        botOwnerId: user.id,
        defaultStreams: false,
      })
    : null;
  return {
    user,
    bot,
    client: await TestClient.login(server.url, `${name}@example.com`, `${name}-password`),
  };
}

describe.each(databases('both'))('deactivating and reactivating users on %s', (db) => {
  const t = useServer({ db });

  it('an administrator deactivates a member: everyone hears it, the key stops working, queues go', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user', 'realm_bot', 'user_group', 'subscription']);
    const own = (await c.othello.post('/register', {})).body.queue_id;
    expect(localQueues(t.server.ctx).queuesOf(id.othello).length).toBeGreaterThan(0);
    const r = await c.iago.delete(`/users/${id.othello}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('DELETE', '/users/{user_id}', r);

    const events = await q.events('hamlet');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.othello, is_active: false },
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'user_group', op: 'remove_members', user_ids: [id.othello] }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [t.stream['general']],
        user_ids: [id.othello],
      }),
    );
    expect(events.some((e) => e.type === 'realm_bot')).toBe(false);
    expectEventsMatchSpec(events);

    expectError(await c.othello.get('/users/me'), 'USER_DEACTIVATED');
    expect(localQueues(t.server.ctx).queuesOf(id.othello)).toEqual([]);
    expectError(
      await c.othello.get('/events', { queue_id: own, last_event_id: -1, dont_block: true }),
      'USER_DEACTIVATED',
    );

    const reg = (
      await c.hamlet.post('/register', {
        fetch_event_types: ['realm_user', 'realm_user_groups', 'subscription'],
        include_subscribers: true,
      })
    ).body;
    expect(reg.realm_non_active_users.map((u: any) => u.user_id)).toContain(id.othello);
    expect(reg.realm_users.map((u: any) => u.user_id)).not.toContain(id.othello);
    expect(reg.subscriptions.find((s: any) => s.name === 'general').subscribers).not.toContain(
      id.othello,
    );
    expect((await c.hamlet.get(`/users/${id.othello}`)).body.user.is_active).toBe(false);
  });

  it('reactivation brings the member back with a working key', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user', 'user_group', 'subscription']);
    expect((await c.iago.post(`/users/${id.othello}/reactivate`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    const events = await q.events('cordelia');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.othello, is_active: true },
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'user_group', op: 'add_members', user_ids: [id.othello] }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'subscription', op: 'peer_add', user_ids: [id.othello] }),
    );
    expectEventsMatchSpec(events);
    expect((await c.othello.get('/users/me')).body.is_active).toBe(true);
  });

  it('deactivating a user deactivates their bots; realm_bot events reach administrators and the owner', async () => {
    const { as: c } = t;
    const { user, bot, client } = await newMember(t.server, 'rosencrantz', true);
    const q = await t.queues(['realm_user', 'realm_bot']);
    const ownerQueue = (await client.post('/register', { event_types: ['realm_bot'] })).body
      .queue_id;
    expect((await c.iago.delete(`/users/${user.id}`)).status).toBe(200);
    const seen = await q.events('hamlet');
    expect(seen.filter((e) => e.type === 'realm_user').map((e) => e.person)).toEqual([
      { user_id: user.id, is_active: false },
      { user_id: bot!.id, is_active: false },
    ]);
    expect(seen.some((e) => e.type === 'realm_bot')).toBe(false);
    const admin = await q.events('iago');
    expect(admin).toContainEqual(
      expect.objectContaining({
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: bot!.id, is_active: false },
      }),
    );
    expectEventsMatchSpec(admin);
    expect(localQueues(t.server.ctx).queuesOf(user.id)).toEqual([]);
    void ownerQueue;

    // Reactivating the owner leaves the bot deactivated; the bot comes back on its own.
    expect((await c.iago.post(`/users/${user.id}/reactivate`)).status).toBe(200);
    const owner = await TestClient.login(
      t.server.url,
      'rosencrantz@example.com',
      'rosencrantz-password',
    );
    const again = (
      await owner.post('/register', {
        event_types: ['realm_bot'],
        fetch_event_types: ['realm_bot'],
      })
    ).body;
    expect(again.realm_bots.find((b: any) => b.user_id === bot!.id).is_active).toBe(false);
    expect((await c.iago.post(`/users/${bot!.id}/reactivate`)).status).toBe(200);
    const ownerEvents = await drain(owner, again.queue_id);
    expect(ownerEvents).toEqual([
      expect.objectContaining({
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: bot!.id, is_active: true },
      }),
    ]);
  });

  it('administrators may deactivate bots directly', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_bot']);
    expect((await c.iago.delete(`/users/${id.bot}`)).status).toBe(200);
    expect(await q.events('hamlet')).toEqual([
      expect.objectContaining({
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: id.bot, is_active: false },
      }),
    ]);
    expect(await q.events('cordelia')).toEqual([]);
    expect((await c.iago.post(`/users/${id.bot}/reactivate`)).status).toBe(200);
  });

  it('refuses what the rules forbid', async () => {
    const { as: c, id } = t;
    expectError(
      await c.hamlet.delete(`/users/${id.cordelia}`),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.shiva.delete(`/users/${id.cordelia}`),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.iago.delete(`/users/${id.desdemona}`),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await c.desdemona.delete(`/users/${id.desdemona}`),
      'BAD_REQUEST',
      'Cannot deactivate the only organization owner',
    );
    expectError(await c.iago.delete('/users/99999'), 'BAD_REQUEST', 'No such user');
    expectError(await c.iago.delete('/users/99999999999'), 'BAD_REQUEST', 'No such user');
    expectError(await c.iago.delete('/users/hamlet@example.com'), 'NOT_FOUND');
    expectError(
      await c.iago.post(`/users/${id.cordelia}/reactivate`),
      'BAD_REQUEST',
      'User is already active',
    );
    expectError(
      await c.hamlet.post(`/users/${id.cordelia}/reactivate`),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(await c.iago.post('/users/99999/reactivate'), 'BAD_REQUEST', 'No such user');
    const { user } = await newMember(t.server, 'guildenstern');
    expect((await c.iago.delete(`/users/${user.id}`)).status).toBe(200);
    expectError(await c.iago.delete(`/users/${user.id}`), 'BAD_REQUEST', 'User is deactivated');
  });

  it('DELETE /users/me: members leave, the only owner may not', async () => {
    const { as: c, id } = t;
    const r = await c.desdemona.delete('/users/me');
    expectError(r, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner.');
    expect(r.body).toMatchObject({ entity: 'organization owner', is_last_owner: true });
    expectResponseMatchesSpec('DELETE', '/users/me', r);

    const q = await t.queues(['realm_user']);
    const bye = await c.cordelia.delete('/users/me');
    expect(bye.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('DELETE', '/users/me', bye);
    expect(await q.events('hamlet')).toEqual([
      expect.objectContaining({ person: { user_id: id.cordelia, is_active: false } }),
    ]);
    expectError(await c.cordelia.get('/users/me'), 'USER_DEACTIVATED');
    expect((await c.iago.post(`/users/${id.cordelia}/reactivate`)).status).toBe(200);

    // With a second owner, the first may leave.
    expect((await c.desdemona.patch(`/users/${id.iago}`, { role: 100 })).status).toBe(200);
    expect((await c.desdemona.delete('/users/me')).status).toBe(200);
    expect((await c.iago.post(`/users/${id.desdemona}/reactivate`)).status).toBe(200);
  });
});

describe.each(databases('both'))('the only user of an organization on %s', (db) => {
  const w = useServer({ db, demo: false });
  beforeAll(async () => {
    const realm = await createRealm(w.server.ctx.db, { stringId: '', name: 'Solo' });
    await createUser(w.server.ctx, realm, {
      email: 'solo@example.com',
      fullName: 'Solo',
      password: 'solo-password',
      role: 100,
    });
  });

  it('cannot deactivate themself', async () => {
    const solo = await TestClient.login(w.server.url, 'solo@example.com', 'solo-password');
    const r = await solo.delete('/users/me');
    expectError(r, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only user.');
    expect(r.body).toMatchObject({ entity: 'user', is_last_owner: false });
  });
});

describe.each(databases('both'))('PATCH /users/{id} on %s', (db) => {
  const t = useServer({ db });

  it('renames users and bots, telling everyone (and the bot owner through realm_bot)', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_user', 'realm_bot']);
    const r = await c.iago.patch(`/users/${id.othello}`, { full_name: '  Othello  ' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('PATCH', '/users/{user_id}', r);
    expect((await c.iago.patch(`/users/${id.bot}`, { full_name: 'Elsinore Herald' })).status).toBe(
      200,
    );
    const events = await q.events('hamlet');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.othello, full_name: 'Othello' },
      }),
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.bot, full_name: 'Elsinore Herald' },
      }),
      expect.objectContaining({
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: id.bot, full_name: 'Elsinore Herald' },
      }),
    ]);
    expectEventsMatchSpec(events);
    expect((await q.events('cordelia')).filter((e) => e.type === 'realm_bot')).toEqual([]);
    // A blank name is ignored; a bad one is refused.
    expect((await c.iago.patch(`/users/${id.othello}`, { full_name: '   ' })).status).toBe(200);
    expectError(
      await c.iago.patch(`/users/${id.othello}`, { full_name: 'x'.repeat(101) }),
      'BAD_REQUEST',
      'Name too long!',
    );
    expect((await c.hamlet.get(`/users/${id.othello}`)).body.user.full_name).toBe('Othello');
  });

  it('promotes to administrator: role event, role groups, private streams appear, and go again', async () => {
    const { as: c, id, stream } = t;
    const q = await t.queues(['realm_user', 'user_group', 'stream', 'subscription']);
    expect((await c.iago.patch(`/users/${id.othello}`, { role: 200 })).status).toBe(200);
    const mine = await q.events('othello');
    const groups = (await c.hamlet.get('/user_groups')).body.user_groups as any[];
    const group = (name: string) => groups.find((g) => g.name === name).id;
    expect(mine).toEqual([
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.othello, role: 200 },
      }),
      expect.objectContaining({
        type: 'user_group',
        op: 'remove_members',
        group_id: group('role:fullmembers'),
        user_ids: [id.othello],
      }),
      expect.objectContaining({
        type: 'user_group',
        op: 'add_members',
        group_id: group('role:administrators'),
        user_ids: [id.othello],
      }),
      expect.objectContaining({
        type: 'stream',
        op: 'create',
        streams: [expect.objectContaining({ stream_id: stream.design, invite_only: true })],
      }),
    ]);
    expectEventsMatchSpec(mine);
    const others = await q.events('hamlet');
    expect(others.filter((e) => e.type === 'stream')).toEqual([]);
    expect(groups.find((g) => g.name === 'role:administrators').members).toContain(id.othello);

    expect((await c.iago.patch(`/users/${id.othello}`, { role: 400 })).status).toBe(200);
    const back = await q.events('othello');
    expect(back).toContainEqual(
      expect.objectContaining({ type: 'stream', op: 'delete', stream_ids: [stream.design] }),
    );
    expectEventsMatchSpec(back);
  });

  it('a member who becomes a guest loses unsubscribed public streams, and regains them with subscribers', async () => {
    const { as: c, id } = t;
    await c.iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }] });
    const lobby = (await c.iago.get('/get_stream_id', { stream: 'lobby' })).body.stream_id;
    const q = await t.queues(['stream', 'subscription', 'realm_user']);
    expect((await c.iago.patch(`/users/${id.othello}`, { role: 600 })).status).toBe(200);
    expect(await q.events('othello')).toContainEqual(
      expect.objectContaining({ type: 'stream', op: 'delete', stream_ids: [lobby] }),
    );
    expect(
      (await c.othello.post('/register', { fetch_event_types: ['stream'] })).body.streams.map(
        (s: any) => s.stream_id,
      ),
    ).not.toContain(lobby);
    expect((await c.iago.patch(`/users/${id.othello}`, { role: 400 })).status).toBe(200);
    const events = await q.events('othello');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'stream',
        op: 'create',
        streams: [expect.objectContaining({ stream_id: lobby })],
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'subscription',
        op: 'peer_add',
        stream_ids: [lobby],
        user_ids: [id.iago],
      }),
    );
    expectEventsMatchSpec(events);
  });

  it('only owners grant or remove the owner role, and the only owner keeps it', async () => {
    const { as: c, id } = t;
    expectError(
      await c.iago.patch(`/users/${id.hamlet}`, { role: 100 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await c.iago.patch(`/users/${id.desdemona}`, { role: 200 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await c.desdemona.patch(`/users/${id.desdemona}`, { role: 200 }),
      'BAD_REQUEST',
      'The owner permission cannot be removed from the only organization owner.',
    );
    expectError(
      await c.iago.patch(`/users/${id.hamlet}`, { role: 250 }),
      'BAD_REQUEST',
      'Invalid role',
    );
    expectError(
      await c.iago.patch(`/users/${id.hamlet}`, { role: 'admin' }),
      'BAD_REQUEST',
      'role is not an integer',
    );
    expectError(
      await c.hamlet.patch(`/users/${id.cordelia}`, { full_name: 'Queen' }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await c.iago.patch('/users/99999', { full_name: 'Nobody' }),
      'BAD_REQUEST',
      'No such user',
    );
    expect((await c.desdemona.patch(`/users/${id.shiva}`, { role: 100 })).status).toBe(200);
    expect((await c.desdemona.patch(`/users/${id.desdemona}`, { role: 200 })).status).toBe(200);
    expect((await c.shiva.get(`/users/${id.desdemona}`)).body.user.role).toBe(200);
  });

  it('GET /users/{id}/subscriptions/{stream_id} answers for streams the caller can see', async () => {
    const { as: c, id, stream } = t;
    const yes = await c.hamlet.get(`/users/${id.othello}/subscriptions/${stream.general}`);
    expect(yes.body).toEqual({ result: 'success', msg: '', is_subscribed: true });
    expectResponseMatchesSpec('GET', '/users/{user_id}/subscriptions/{stream_id}', yes);
    expect(
      (await c.hamlet.get(`/users/${id.othello}/subscriptions/${stream.design}`)).body
        .is_subscribed,
    ).toBe(false);
    expect(
      (await c.iago.get(`/users/${id.hamlet}/subscriptions/${stream.design}`)).body.is_subscribed,
    ).toBe(true);
    expectError(
      await c.othello.get(`/users/${id.hamlet}/subscriptions/${stream.design}`),
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await c.hamlet.get(`/users/${id.othello}/subscriptions/99999`),
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await c.hamlet.get(`/users/99999/subscriptions/${stream.general}`),
      'BAD_REQUEST',
      'No such user',
    );
  });
});
