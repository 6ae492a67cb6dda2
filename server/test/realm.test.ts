import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { drain, TestClient } from './client.js';
import { deactivateRealm, reactivateRealm } from '../actions/realm-admin.js';
import { localQueues } from '../events/manager.js';

const login = (server: TestServer, name: string) =>
  TestClient.login(server.url, `${name}@example.com`, DEMO_PASSWORD);

describe.each(DATABASES)('PATCH /realm on %s', (db) => {
  let server: TestServer;
  let owner: TestClient;
  let admin: TestClient;
  let moderator: TestClient;
  let member: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db });
    [owner, admin, moderator, member] = await Promise.all(
      ['desdemona', 'iago', 'shiva', 'hamlet'].map((n) => login(server, n)),
    );
  });
  afterAll(() => server?.close());

  it('changes settings, answers with the changes and tells everyone in both event shapes', async () => {
    const q = await member.post('/register', { event_types: ['realm'] });
    const r = await admin.patch('/realm', {
      name: 'Elsinore',
      mandatory_topics: 'true',
      edit_topic_policy: '4',
      message_content_edit_limit_seconds: '3600',
      video_chat_provider: '0',
      default_language: 'de',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      name: 'updated',
      mandatory_topics: true,
      edit_topic_policy: 4,
      default_language: 'updated',
    });
    const events = await drain(member, q.body.queue_id);
    const dict = events.find((e) => e.op === 'update_dict');
    expect(dict).toMatchObject({
      type: 'realm',
      property: 'default',
      data: {
        name: 'Elsinore',
        mandatory_topics: true,
        edit_topic_policy: 4,
        message_content_edit_limit_seconds: 3600,
        video_chat_provider: 0,
        default_language: 'de',
      },
    });
    const singles = events.filter((e) => e.op === 'update').map((e) => [e.property, e.value]);
    expect(singles).toEqual(
      expect.arrayContaining([
        ['name', 'Elsinore'],
        ['mandatory_topics', true],
        ['default_language', 'de'],
      ]),
    );
    // Message-editing settings have only ever been sent as update_dict.
    expect(singles.map(([p]) => p)).not.toContain('edit_topic_policy');
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    expect(reg.body).toMatchObject({
      realm_name: 'Elsinore',
      realm_mandatory_topics: true,
      realm_edit_topic_policy: 4,
      realm_message_content_edit_limit_seconds: 3600,
      realm_video_chat_provider: 0,
      realm_default_language: 'de',
    });
    const settings = await new TestClient(server.url).get('/server_settings');
    expect(settings.body.realm_name).toBe('Elsinore');
  });

  it('sends nothing when nothing changes, and lists unknown parameters', async () => {
    const q = await member.post('/register', { event_types: ['realm'] });
    const r = await admin.patch('/realm', { mandatory_topics: 'true', bogus_setting: '1' });
    expect(r.status).toBe(200);
    expect(r.body.ignored_parameters_unsupported).toEqual(['bogus_setting']);
    expect(await drain(member, q.body.queue_id)).toEqual([]);
  });

  it('accepts null and "unlimited" for time limits, never 0', async () => {
    expect(
      (await admin.patch('/realm', { message_content_edit_limit_seconds: 'null' })).status,
    ).toBe(200);
    expect(
      (await admin.patch('/realm', { message_content_delete_limit_seconds: '"unlimited"' })).status,
    ).toBe(200);
    expect(
      (await admin.patch('/realm', { move_messages_within_stream_limit_seconds: 'unlimited' }))
        .status,
    ).toBe(200);
    expect(
      (await admin.patch('/realm', { move_messages_between_streams_limit_seconds: '86400' }))
        .status,
    ).toBe(200);
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    expect(reg.body).toMatchObject({
      realm_message_content_edit_limit_seconds: null,
      realm_message_content_delete_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: null,
      realm_move_messages_between_streams_limit_seconds: 86400,
    });
    for (const bad of ['0', '-5', '"forever"', '1.5', 'abc']) {
      const r = await admin.patch('/realm', { message_content_edit_limit_seconds: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.msg).toContain('message_content_edit_limit_seconds');
    }
  });

  it('refuses values outside each setting\u2019s allowed set, naming the parameter', async () => {
    const cases: Record<string, string>[] = [
      { move_messages_between_streams_policy: '5' },
      { edit_topic_policy: '7' },
      { edit_topic_policy: '0' },
      { private_message_policy: '3' },
      { user_group_edit_policy: '5' },
      { video_chat_provider: '3' },
      { default_language: 'klingon' },
      { enable_spectator_access: 'maybe' },
      { digest_weekday: '7' },
      { create_web_public_stream_policy: '1' },
      { wildcard_mention_policy: '4' },
      { jitsi_server_url: '"not a url"' },
      { new_stream_announcements_stream_id: '0' },
      { giphy_rating: '9' },
      { bot_creation_policy: 'x' },
    ];
    for (const params of cases) {
      const r = await admin.patch('/realm', params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.msg).toContain(Object.keys(params)[0]);
    }
    expect(
      (await admin.patch('/realm', { new_stream_announcements_stream_id: '99999' })).body.msg,
    ).toBe('Invalid channel ID');
  });

  it('validates the name and the description', async () => {
    expect((await admin.patch('/realm', { name: '   ' })).body.msg).toBe('name cannot be blank');
    expect((await admin.patch('/realm', { name: 'x'.repeat(41) })).body.msg).toContain(
      'name is too long',
    );
    expect((await admin.patch('/realm', { description: 'y'.repeat(1001) })).body.msg).toContain(
      'description is too long',
    );
    const q = await member.post('/register', { event_types: ['realm'] });
    expect(
      (await admin.patch('/realm', { description: 'Something is rotten' })).body.description,
    ).toBe('updated');
    const data = (await drain(member, q.body.queue_id)).find((e) => e.op === 'update_dict').data;
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    expect(data.description).toBe(reg.body.realm_description);
    expect(reg.body.realm_description).toContain('Something is rotten');
  });

  it('is for administrators only, and some settings for owners only', async () => {
    for (const c of [member, moderator]) {
      const r = await c.patch('/realm', { mandatory_topics: 'false' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 'UNAUTHORIZED_PRINCIPAL',
        msg: 'Must be an organization administrator',
      });
    }
    for (const params of [
      { waiting_period_threshold: '3' },
      { invite_to_realm_policy: '2' },
      { message_retention_days: '30' },
      { invite_required: 'true' },
      { emails_restricted_to_domains: 'false' },
    ]) {
      const r = await admin.patch('/realm', params);
      expect(r.body, JSON.stringify(params)).toMatchObject({
        code: 'UNAUTHORIZED_PRINCIPAL',
        msg: 'Must be an organization owner',
      });
      expect((await owner.patch('/realm', params)).status, JSON.stringify(params)).toBe(200);
    }
    expect((await owner.patch('/realm', { waiting_period_threshold: '-1' })).status).toBe(400);
    expect((await owner.patch('/realm', { invite_to_realm_policy: '5' })).body.msg).toContain(
      'invite_to_realm_policy',
    );
    expect(
      (await owner.patch('/realm', { waiting_period_threshold: '0', invite_to_realm_policy: '1' }))
        .status,
    ).toBe(200);
  });

  it('keeps messages forever with -1 or "unlimited", refusing 0', async () => {
    expect(
      (await owner.patch('/realm', { message_retention_days: '"unlimited"' })).body
        .message_retention_days,
    ).toBe(-1);
    expect(
      (await owner.patch('/realm', { message_retention_days: '14' })).body.message_retention_days,
    ).toBe(14);
    expect(
      (await owner.patch('/realm', { message_retention_days: '-1' })).body.message_retention_days,
    ).toBe(-1);
    for (const bad of ['0', '-2', '"soon"']) {
      const r = await owner.patch('/realm', { message_retention_days: bad });
      expect(r.body.msg, bad).toContain('message_retention_days');
    }
  });

  it('sets who may create reusable invitation links to a system group', async () => {
    const groups = (
      await member.post('/register', { fetch_event_types: ['realm_user_groups', 'realm'] })
    ).body;
    const id = (name: string) => groups.realm_user_groups.find((g: any) => g.name === name).id;
    expect(groups.realm_create_multiuse_invite_group).toBe(id('role:administrators'));
    const q = await member.post('/register', { event_types: ['realm'] });
    expect(
      (await admin.patch('/realm', { create_multiuse_invite_group: String(id('role:moderators')) }))
        .body.code,
    ).toBe('UNAUTHORIZED_PRINCIPAL');
    const r = await owner.patch('/realm', {
      create_multiuse_invite_group: JSON.stringify({
        new: id('role:moderators'),
        old: id('role:administrators'),
      }),
    });
    expect(r.status).toBe(200);
    expect((await drain(member, q.body.queue_id)).find((e) => e.op === 'update_dict').data).toEqual(
      { create_multiuse_invite_group: id('role:moderators') },
    );
    expect(
      (await member.post('/register', { fetch_event_types: ['realm'] })).body
        .realm_create_multiuse_invite_group,
    ).toBe(id('role:moderators'));
    expect(
      (await owner.patch('/realm', { create_multiuse_invite_group: String(id('role:owners')) }))
        .body.msg,
    ).toContain("cannot be set to 'role:owners'");
    expect(
      (await owner.patch('/realm', { create_multiuse_invite_group: String(id('role:internet')) }))
        .status,
    ).toBe(400);
    expect((await owner.patch('/realm', { create_multiuse_invite_group: '99999' })).body.msg).toBe(
      'Invalid user group',
    );
    const stale = await owner.patch('/realm', {
      create_multiuse_invite_group: JSON.stringify({
        new: id('role:members'),
        old: id('role:administrators'),
      }),
    });
    expect(stale.body.msg).toContain("'old' value");
    expect(
      (
        await owner.patch('/realm', {
          create_multiuse_invite_group_id: String(id('role:administrators')),
        })
      ).status,
    ).toBe(200);
  });

  it('validates authentication methods (owners only; password login stays on)', async () => {
    expect(
      (await admin.patch('/realm', { authentication_methods: '{"Email": true}' })).body.code,
    ).toBe('UNAUTHORIZED_PRINCIPAL');
    expect(
      (await owner.patch('/realm', { authentication_methods: '{"Email": true, "Dev": false}' }))
        .status,
    ).toBe(200);
    expect(
      (await owner.patch('/realm', { authentication_methods: '{"Email": false}' })).body.msg,
    ).toBe('At least one authentication method must be enabled.');
    expect(
      (await owner.patch('/realm', { authentication_methods: '{"GitHub": true}' })).status,
    ).toBe(400);
  });
});

describe.each(DATABASES)('spectators on %s', (db) => {
  let server: TestServer;
  let anon: TestClient;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db });
    anon = new TestClient(server.url);
    admin = await login(server, 'iago');
  });
  afterAll(() => server?.close());

  it('register without a queue and with web-public streams only', async () => {
    const r = await anon.post('/register', {});
    expect(r.status).toBe(200);
    expect(r.body.queue_id).toBeNull();
    expect(r.body.streams.map((s: any) => s.name)).toEqual(['welcome']);
    expect(r.body.streams.every((s: any) => s.is_web_public)).toBe(true);
  });

  it('may not ask for gravatars or subscribers', async () => {
    expect((await anon.post('/register', { client_gravatar: 'true' })).status).toBe(400);
    expect((await anon.post('/register', { include_subscribers: 'true' })).status).toBe(400);
    expect((await anon.post('/register', { client_gravatar: 'false' })).status).toBe(200);
  });

  it('read web-public streams and nothing else', async () => {
    const ok = await anon.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      narrow: [{ operator: 'stream', operand: 'welcome' }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.messages.every((m: any) => m.display_recipient === 'welcome')).toBe(true);
    for (const narrow of [
      [],
      [{ operator: 'stream', operand: 'general' }],
      [{ operator: 'stream', operand: 'design' }],
      [{ operator: 'is', operand: 'dm' }],
    ]) {
      const r = await anon.get('/messages', { anchor: 'newest', num_before: 5, narrow });
      // 401 for a narrow spectators may never use; 400 for a stream that is not web-public.
      expect([400, 401], JSON.stringify(narrow)).toContain(r.status);
      expect(r.body.result).toBe('error');
    }
  });

  it('need credentials for everything else', async () => {
    for (const [method, path] of [
      ['GET', '/users/me'],
      ['GET', '/streams'],
      ['POST', '/messages'],
      ['GET', '/events'],
      ['PATCH', '/realm'],
      ['GET', '/realm/linkifiers'],
      ['GET', '/invites'],
      ['GET', '/scheduled_messages'],
      ['POST', '/default_streams'],
    ]) {
      const r = await anon.request(method, path, {});
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('lose access when the organization turns spectator access off', async () => {
    const welcome = (await admin.get('/get_stream_id', { stream: 'welcome' })).body.stream_id;
    const narrow = [{ operator: 'channel', operand: welcome }];
    const before = await anon.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow,
    });
    expect(before.status).toBe(200);
    const oneId = before.body.messages[0].id;
    expect((await anon.get(`/messages/${oneId}`)).status).toBe(200);
    expect((await admin.patch('/realm', { enable_spectator_access: 'false' })).status).toBe(200);
    const r = await anon.post('/register', {});
    expect(r.status).toBe(401);
    expect(
      (await anon.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow }))
        .status,
    ).toBe(401);
    expect((await anon.get(`/messages/${oneId}`)).status).toBe(401);
    expect(
      (await new TestClient(server.url).get('/server_settings')).body
        .realm_web_public_access_enabled,
    ).toBe(false);
    expect((await admin.patch('/realm', { enable_spectator_access: 'true' })).status).toBe(200);
    expect((await anon.post('/register', {})).status).toBe(200);
  });
});

describe.each(DATABASES)('out-of-range and malformed input on %s', (db) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ db });
  });
  afterAll(() => server?.close());

  it('answers ids beyond 32 bits and null bytes in the envelope, never with a 5xx', async () => {
    const [admin, owner] = await Promise.all(['iago', 'desdemona'].map((n) => login(server, n)));
    const big = '99999999999';
    const later = String(Math.floor(Date.now() / 1000) + 600);
    const requests: [TestClient, string, string, Record<string, unknown>][] = [
      [admin, 'PATCH', `/streams/${big}`, { description: 'x' }],
      [admin, 'DELETE', `/streams/${big}`, {}],
      [admin, 'GET', `/streams/${big}/members`, {}],
      [admin, 'POST', '/default_streams', { stream_id: big }],
      [admin, 'PATCH', `/default_stream_groups/${big}`, { new_group_name: 'x' }],
      [admin, 'DELETE', `/default_stream_groups/${big}`, {}],
      [admin, 'DELETE', `/realm/filters/${big}`, {}],
      [admin, 'DELETE', `/invites/${big}`, {}],
      [admin, 'POST', `/invites/${big}/resend`, {}],
      [admin, 'POST', '/invites', { invitee_emails: 'a@b.org', stream_ids: `[${big}]` }],
      [
        admin,
        'POST',
        '/invites',
        { invitee_emails: 'a@b.org', stream_ids: '[]', invite_expires_in_minutes: big },
      ],
      [admin, 'PATCH', `/scheduled_messages/${big}`, { content: 'x' }],
      [
        admin,
        'POST',
        '/scheduled_messages',
        { type: 'stream', to: big, topic: 'x', content: 'x', scheduled_delivery_timestamp: later },
      ],
      [
        admin,
        'POST',
        '/scheduled_messages',
        { type: 'direct', to: `[${big}]`, content: 'x', scheduled_delivery_timestamp: later },
      ],
      [
        admin,
        'POST',
        '/scheduled_messages',
        { type: 'direct', to: '[1]', content: 'x', scheduled_delivery_timestamp: big },
      ],
      [admin, 'PATCH', '/realm', { new_stream_announcements_stream_id: big }],
      [owner, 'PATCH', '/realm', { create_multiuse_invite_group: big }],
      [owner, 'PATCH', '/streams/1', { message_retention_days: big }],
      [admin, 'PATCH', '/streams/1', { can_remove_subscribers_group: big }],
      [admin, 'PATCH', '/realm', { name: 'a\u0000b' }],
      [admin, 'PATCH', '/realm', { description: 'a\u0000b' }],
      [admin, 'PATCH', '/streams/1', { description: 'a\u0000b' }],
      [admin, 'POST', '/realm/filters', { pattern: 'a\u0000', url_template: 'https://x.org' }],
      [
        admin,
        'POST',
        '/default_stream_groups/create',
        { group_name: 'g', description: 'a\u0000', stream_names: '[]' },
      ],
    ];
    for (const [client, method, path, params] of requests) {
      const r = await client.request(method, path, params);
      // An unknown object addressed in the path is 404, as upstream; everything else is 400.
      const expected = method === 'PATCH' && path.startsWith('/scheduled_messages/') ? 404 : 400;
      expect(r.status, `${method} ${path} ${JSON.stringify(params)}`).toBe(expected);
      expect(r.body.result).toBe('error');
    }
  });
});

describe.each(DATABASES)('organization deactivation on %s', (db) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ db });
  });
  afterAll(() => server?.close());

  it('answers every authenticated request with REALM_DEACTIVATED, after telling open queues', async () => {
    const hamlet = await login(server, 'hamlet');
    const desdemona = await login(server, 'desdemona');
    const q = await hamlet.post('/register', { event_types: ['realm'] });
    const realm = await server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    await deactivateRealm(server.ctx, realm);
    const queue = localQueues(server.ctx).get(
      q.body.queue_id,
      q.body.user_id ??
        (
          await server.ctx.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'hamlet@example.com')
            .executeTakeFirstOrThrow()
        ).id,
    );
    expect(queue?.pending()).toEqual([
      expect.objectContaining({ type: 'realm', op: 'deactivated', realm_id: realm.id }),
    ]);
    for (const [client, method, path] of [
      [hamlet, 'GET', '/users/me'],
      [hamlet, 'GET', '/events'],
      [desdemona, 'PATCH', '/realm'],
      [desdemona, 'POST', '/register'],
    ] as const) {
      const r = await client.request(
        method,
        path,
        method === 'GET' && path === '/events' ? { queue_id: q.body.queue_id } : {},
      );
      expect(r.status, path).toBe(401);
      expect(r.body.code, path).toBe('REALM_DEACTIVATED');
    }
    await reactivateRealm(server.ctx, realm);
    expect((await hamlet.get('/users/me')).status).toBe(200);
  });
});
