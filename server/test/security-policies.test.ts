import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './harness.js';
import { drain, TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';
import { queuedMails } from './mailbox.js';

/**
 * The security review's findings about organization policies and invitations (issue 16: 1, 2,
 * 6, 7, 8, 10; issue 20: 1), each done as the attacker did it, refused as the reference server
 * refuses it, next to the legitimate use that must keep working.
 */

describe.each(databases('both'))('organization policies and invitations on %s', (db) => {
  const w = useServer({ db });
  const setRealm = async (params: Record<string, unknown>) =>
    expect((await w.as.desdemona.patch('/realm', params)).body).toMatchObject({
      result: 'success',
    });
  const outbox = () => queuedMails(w.server);
  const signUp = (link: string, form: Record<string, string>) =>
    fetch(`${w.server.url}${new URL(link).pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  it('shows and hands invitations that make owners to owners only (16.1)', async () => {
    const made = await w.as.desdemona.post('/invites/multiuse', { invite_as: 100, stream_ids: [] });
    expect(made.body).toMatchObject({ result: 'success' });
    const ownerLink = made.body.invite_link as string;
    const adminView = (await w.as.iago.get('/invites')).body.invites as any[];
    expect(adminView.map((i) => i.link_url)).not.toContain(ownerLink);
    const ownerView = (await w.as.desdemona.get('/invites')).body.invites as any[];
    const invite = ownerView.find((i) => i.link_url === ownerLink);
    expect(invite).toMatchObject({ invited_as: 100, is_multiuse: true });
    expect((await w.as.iago.delete(`/invites/multiuse/${invite.id}`)).body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Must be an organization owner',
    });
    // Invitations that make members stay visible to every administrator.
    const memberLink = (
      await w.as.desdemona.post('/invites/multiuse', { invite_as: 400, stream_ids: [] })
    ).body.invite_link;
    expect(
      ((await w.as.iago.get('/invites')).body.invites as any[]).map((i) => i.link_url),
    ).toContain(memberLink);
    expect((await w.as.desdemona.delete(`/invites/multiuse/${invite.id}`)).body).toMatchObject({
      result: 'success',
    });
  });

  it('refuses all_public_streams queues to guests (16.2)', async () => {
    const guest = await w.as.polonius.post('/register', {
      all_public_streams: true,
      event_types: ['message'],
    });
    expect(guest.status).toBe(400);
    expect(guest.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'User not authorized for this query',
    });
    // A member who is not in engineering still receives its messages on such a queue.
    await w.as.desdemona.delete('/users/me/subscriptions', { subscriptions: ['engineering'] });
    const queue = (
      await w.as.desdemona.post('/register', { all_public_streams: true, event_types: ['message'] })
    ).body.queue_id;
    await w.as.hamlet.post('/messages', {
      type: 'stream',
      to: w.stream.engineering,
      topic: 'all public',
      content: 'for everyone',
    });
    const events = await drain(w.as.desdemona, queue);
    expect(events.map((e) => e.message?.content)).toContain('for everyone');
  });

  it('drops a queue of all public channels when its user becomes a guest', async () => {
    const queue = (
      await w.as.othello.post('/register', { all_public_streams: true, event_types: ['message'] })
    ).body.queue_id;
    expect((await w.as.desdemona.patch(`/users/${w.id.othello}`, { role: 600 })).status).toBe(200);
    expect(
      (await w.as.othello.get('/events', { queue_id: queue, dont_block: true })).body,
    ).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
    expect((await w.as.desdemona.patch(`/users/${w.id.othello}`, { role: 400 })).status).toBe(200);
  });

  it('creates web-public channels by create_web_public_stream_policy (16.6)', async () => {
    await setRealm({ create_web_public_stream_policy: 7 });
    const asModerator = await w.as.shiva.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'shiva-web' }],
      is_web_public: true,
    });
    expect(asModerator.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Insufficient permission',
    });
    expect((await w.as.iago.get('/get_stream_id', { stream: 'shiva-web' })).body.code).toBe(
      'BAD_REQUEST',
    );
    const asOwner = await w.as.desdemona.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'owner-web' }],
      is_web_public: true,
    });
    expect(asOwner.body).toMatchObject({ result: 'success' });
    await setRealm({ create_web_public_stream_policy: 4 });
    expect(
      (
        await w.as.shiva.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'shiva-web' }],
          is_web_public: true,
        })
      ).body,
    ).toMatchObject({ result: 'success' });
  });

  it('creates public and private channels by their policies (16.7)', async () => {
    await setRealm({ create_public_stream_policy: 2, create_private_stream_policy: 2 });
    for (const invite_only of [false, true]) {
      const r = await w.as.hamlet.post('/users/me/subscriptions', {
        subscriptions: [{ name: `hamlet-${invite_only}` }],
        invite_only,
      });
      expect(r.body, `invite_only=${invite_only}`).toMatchObject({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Insufficient permission',
      });
      expect(
        (
          await w.as.iago.post('/users/me/subscriptions', {
            subscriptions: [{ name: `iago-${invite_only}` }],
            invite_only,
          })
        ).body,
      ).toMatchObject({ result: 'success' });
    }
    const me = (await w.as.hamlet.post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(me).toMatchObject({
      can_create_public_streams: false,
      can_create_private_streams: false,
      can_create_streams: false,
    });
    await setRealm({ create_public_stream_policy: 1, create_private_stream_policy: 1 });
    expect(
      (
        await w.as.hamlet.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'hamlet-public' }],
        })
      ).body,
    ).toMatchObject({ result: 'success' });
  });

  it('subscribes other people by invite_to_stream_policy (16.8)', async () => {
    await setRealm({ invite_to_stream_policy: 2 });
    const r = await w.as.hamlet.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'engineering' }],
      principals: [w.id.polonius],
    });
    expect(r.body).toMatchObject({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Insufficient permission',
    });
    const polonius = (await w.as.polonius.get('/users/me/subscriptions')).body
      .subscriptions as any[];
    expect(polonius.map((s) => s.name)).not.toContain('engineering');
    // Naming only oneself is not subscribing others; administrators pass the policy.
    expect(
      (
        await w.as.hamlet.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'engineering' }],
          principals: [w.id.hamlet],
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect(
      (
        await w.as.iago.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'engineering' }],
          principals: [w.id.polonius],
        })
      ).body,
    ).toMatchObject({ result: 'success', subscribed: { 'polonius@example.com': ['engineering'] } });
    await setRealm({ invite_to_stream_policy: 1 });
  });

  it('hides a real address from those its owner does not show it to (16.9)', async () => {
    const fake = `user${w.id.othello}@parley.invalid`;
    const othelloAs = async (viewer: TestClient) => ({
      list: ((await viewer.get('/users')).body.members as any[]).find(
        (u) => u.user_id === w.id.othello,
      ),
      one: (await viewer.get(`/users/${w.id.othello}`)).body.user,
      registered: (
        (await viewer.post('/register', { fetch_event_types: ['realm_user'] })).body
          .realm_users as any[]
      ).find((u) => u.user_id === w.id.othello),
    });
    const queue = (await w.as.hamlet.post('/register', { event_types: ['realm_user'] })).body
      .queue_id;
    expect(
      (await w.as.othello.patch('/settings', { email_address_visibility: 4 })).body,
    ).toMatchObject({ result: 'success' });
    for (const viewer of ['hamlet', 'polonius', 'iago'] as const) {
      const seen = await othelloAs(w.as[viewer]);
      for (const [where, user] of Object.entries(seen))
        expect(user, `${viewer} ${where}`).toMatchObject({ email: fake, delivery_email: null });
    }
    expect((await drain(w.as.hamlet, queue)).map((e) => e.person)).toEqual(
      expect.arrayContaining([
        { user_id: w.id.othello, new_email: fake },
        { user_id: w.id.othello, delivery_email: null },
      ]),
    );
    // Othello himself still sees and logs in with his address; the stand-in works in the API.
    expect((await w.as.othello.get(`/users/${w.id.othello}`)).body.user.delivery_email).toBe(
      'othello@example.com',
    );
    const again = await TestClient.login(w.server.url, 'othello@example.com', DEMO_PASSWORD);
    expect((await again.get('/users/me')).body).toMatchObject({
      email: fake,
      delivery_email: 'othello@example.com',
    });
    expect(
      (
        await w.as.hamlet.post('/messages', {
          type: 'direct',
          to: [fake],
          content: 'to the stand-in',
        })
      ).body,
    ).toMatchObject({ result: 'success' });
    expect((await w.as.hamlet.get(`/users/${fake}`)).body.user).toMatchObject({
      user_id: w.id.othello,
    });
    // Administrators only: Iago sees it, Hamlet does not.
    expect(
      (await w.as.othello.patch('/settings', { email_address_visibility: 3 })).body,
    ).toMatchObject({ result: 'success' });
    expect((await othelloAs(w.as.iago)).one).toMatchObject({
      email: fake,
      delivery_email: 'othello@example.com',
    });
    expect((await othelloAs(w.as.hamlet)).one).toMatchObject({ email: fake, delivery_email: null });
    expect(
      (await w.as.othello.patch('/settings', { email_address_visibility: 1 })).body,
    ).toMatchObject({ result: 'success' });
    expect((await othelloAs(w.as.hamlet)).one).toMatchObject({
      email: 'othello@example.com',
      delivery_email: 'othello@example.com',
    });
  });

  it('answers every anonymous request with 401 while spectator access is off (16.10)', async () => {
    const anon = new TestClient(w.server.url);
    const topicsPath = `/users/me/${w.stream.welcome}/topics`;
    expect((await anon.get(topicsPath)).status).toBe(200);
    await setRealm({ enable_spectator_access: false });
    for (const [method, p, params] of [
      ['GET', topicsPath, {}],
      [
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: [['channel', String(w.stream.welcome)]],
        },
      ],
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
    const admin = await TestClient.login(w.server.url, 'iago@example.com', DEMO_PASSWORD);
    // An administrator who will leave: a new account made an administrator by the owner.
    const leaving = await w.as.desdemona.post('/invites', {
      invitee_emails: 'osric@example.com',
      invite_as: 200,
      stream_ids: [],
    });
    expect(leaving.status).toBe(200);
    const osricLink = (await outbox()).filter((m) => m.to === 'osric@example.com').at(-1)!.link;
    expect(
      (await signUp(osricLink, { full_name: 'Osric', password: 'osric-password' })).status,
    ).toBe(200);
    const osric = await TestClient.login(w.server.url, 'osric@example.com', 'osric-password');
    const osricId = (await osric.get('/users/me')).body.user_id;

    expect(
      (
        await osric.post('/invites', {
          invitee_emails: 'fortinbras@example.com',
          invite_as: 200,
          stream_ids: [],
        })
      ).status,
    ).toBe(200);
    const emailLink = (await outbox())
      .filter((m) => m.to === 'fortinbras@example.com')
      .at(-1)!.link;
    const reusable = (await osric.post('/invites/multiuse', { invite_as: 200, stream_ids: [] }))
      .body.invite_link as string;
    const pending = (await admin.get('/invites')).body.invites as any[];
    expect(pending.filter((i) => i.invited_by_user_id === osricId)).toHaveLength(2);

    const queue = (await admin.post('/register', { event_types: ['invites_changed'] })).body
      .queue_id;
    expect((await w.as.desdemona.delete(`/users/${osricId}`)).body).toMatchObject({
      result: 'success',
    });
    expect(
      ((await admin.get('/invites')).body.invites as any[]).filter(
        (i) => i.invited_by_user_id === osricId,
      ),
    ).toEqual([]);
    expect((await drain(admin, queue)).map((e) => e.type)).toContain('invites_changed');

    for (const link of [emailLink, reusable]) {
      expect((await fetch(`${w.server.url}${new URL(link).pathname}`)).status, link).toBe(404);
      const r = await signUp(link, {
        email: 'fortinbras@example.com',
        full_name: 'Fortinbras',
        password: 'fortinbras-pw',
      });
      expect(r.status).not.toBe(200);
    }
    await expect(
      TestClient.login(w.server.url, 'fortinbras@example.com', 'fortinbras-pw'),
    ).rejects.toThrow();
    // An active administrator's invitations still work.
    expect(
      (
        await admin.post('/invites', {
          invitee_emails: 'horatio@example.com',
          invite_as: 400,
          stream_ids: [],
        })
      ).status,
    ).toBe(200);
    const horatio = (await outbox()).filter((m) => m.to === 'horatio@example.com').at(-1)!.link;
    expect(
      (await signUp(horatio, { full_name: 'Horatio', password: 'horatio-password' })).status,
    ).toBe(200);
  });
});
