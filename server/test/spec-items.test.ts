import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../config.js';
import { createUser } from '../actions/users.js';
import { MAX_UNREAD_MESSAGES } from '../register/unread-messages.js';
import { DATABASES, DEMO_PASSWORD, startTestServer, type TestServer } from './harness.js';
import { drain, TestClient, type ApiResult } from './client.js';
import { DEMO_PEOPLE, type DemoName } from './fixtures.js';
import { localQueues } from '../events/manager.js';

/**
 * Items of api-spec.md that no other test file proves on its own: one test per item or per small
 * group of items, named after the spec's section, so that server/CONFORMANCE.md can point at each.
 * One file on purpose (longer than most): it is the table's companion, in the spec's order.
 */

const PEOPLE = DEMO_PEOPLE;
type Person = DemoName;

interface World {
  server: TestServer;
  c: Record<Person, TestClient>;
  id: Record<Person, number>;
  name: Record<Person, string>;
  stream: (name: string) => number;
  anon: TestClient;
}

async function world(server: TestServer): Promise<World> {
  const c = {} as Record<Person, TestClient>;
  const id = {} as Record<Person, number>;
  const name = {} as Record<Person, string>;
  for (const who of PEOPLE) {
    c[who] = await TestClient.login(server.url, `${who}@example.com`, DEMO_PASSWORD);
    const me = (await c[who].get('/users/me')).body;
    id[who] = me.user_id;
    name[who] = me.full_name;
  }
  const streams = new Map<string, number>();
  for (const s of (await c.iago.get('/streams', { include_all_active: true })).body.streams)
    streams.set(s.name, s.stream_id);
  const stream = (n: string) => {
    const found = streams.get(n);
    if (found === undefined) throw new Error(`no stream ${n} at the start`);
    return found;
  };
  return { server, c, id, name, stream, anon: new TestClient(server.url) };
}

const now = () => Math.floor(Date.now() / 1000);

async function send(
  who: TestClient,
  to: string | number,
  topic: string,
  content = `${topic}: hello`,
): Promise<number> {
  const r = await who.post('/messages', { type: 'stream', to, topic, content });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id;
}

async function age(server: TestServer, id: number, seconds: number) {
  await server.ctx.db
    .updateTable('messages')
    .set({ date_sent: now() - seconds })
    .where('id', '=', id)
    .execute();
}

async function realm(w: World, params: Record<string, unknown>) {
  const r = await w.c.desdemona.patch('/realm', params);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function streamId(w: World, name: string): Promise<number> {
  return (await w.c.iago.get('/streams', { include_all_active: true })).body.streams.find(
    (s: any) => s.name === name,
  ).stream_id;
}

async function topicIds(who: TestClient, stream: number, topic: string): Promise<number[]> {
  const r = await who.get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [
      ['channel', String(stream)],
      ['topic', topic],
    ],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messages.map((m: any) => m.id);
}

async function rawMessage(who: TestClient, id: number) {
  return (await who.get(`/messages/${id}`, { apply_markdown: false })).body.message;
}

function expectCodedError(r: ApiResult, code: string, status?: number) {
  if (status !== undefined) expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(r.body).toMatchObject({ result: 'error', code });
  expect(typeof r.body.msg).toBe('string');
}

const isIntOrNull = (v: unknown) => v === null || Number.isInteger(v);

describe.each(DATABASES)('api-spec.md conventions, resources and register on %s', (db) => {
  let w: World;

  beforeAll(async () => {
    w = await world(await startTestServer({ db }));
  });
  afterAll(() => w?.server.close());

  it('conventions 1-2: GET reads the query string; POST, PATCH and DELETE read the form body, lists JSON-encoded', async () => {
    const { c } = w;
    const id = await send(c.hamlet, 'general', 'form encoding', 'sent in the body');
    const got = await c.hamlet.get('/messages', {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [['channel', 'general']],
    });
    expect(got.body.messages.map((m: any) => m.id)).toEqual([id]);
    expect((await c.hamlet.patch('/settings', { enable_sounds: 'false' })).status).toBe(200);
    expect(
      (
        await c.hamlet.post('/register', {
          fetch_event_types: ['user_settings'],
          client_capabilities: { user_settings_object: true },
        })
      ).body.user_settings.enable_sounds,
    ).toBe(false);
    expect(
      (await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'encoded' }] }))
        .status,
    ).toBe(200);
    const left = await c.hamlet.delete('/users/me/subscriptions', { subscriptions: ['encoded'] });
    expect(left.body).toMatchObject({ result: 'success', removed: ['encoded'] });
    // A list that is not JSON-encoded is refused, naming the parameter.
    const plain = await c.hamlet.delete('/users/me/subscriptions', { subscriptions: 'encoded' });
    expectCodedError(plain, 'BAD_REQUEST', 400);
    expect(plain.body.msg).toContain('subscriptions');
  });

  it('conventions 3-5 and 7: JSON envelope with result and msg, empty on success; 40x for user errors', async () => {
    const { c, anon } = w;
    const successes = [
      await c.hamlet.get('/users/me'),
      await c.hamlet.get('/streams'),
      await c.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'envelope',
        content: 'x',
      }),
      await c.hamlet.patch('/settings', { enable_sounds: 'true' }),
      await c.hamlet.post('/register', { event_types: ['message'] }),
      await c.hamlet.post('/users/me/alert_words', { alert_words: ['envelope'] }),
      await anon.get('/server_settings'),
    ];
    for (const r of successes) {
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body).toMatchObject({ result: 'success', msg: '' });
    }
    // Convention 6: what an endpoint does not support is listed, and the request still succeeds.
    const withExtra = [
      await c.hamlet.get('/users/me', { no_such_option: 1 }),
      await c.hamlet.get('/streams', { no_such_option: 1 }),
      await c.hamlet.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'envelope',
        content: 'y',
        no_such_option: 1,
      }),
      await c.hamlet.patch('/settings', { enable_sounds: 'true', no_such_option: 1 }),
      await c.hamlet.post('/users/me/alert_words', {
        alert_words: ['envelope'],
        no_such_option: 1,
      }),
      await c.hamlet.post('/messages/flags', {
        messages: [],
        op: 'add',
        flag: 'read',
        no_such_option: 1,
      }),
    ];
    for (const r of withExtra)
      expect(r.body, JSON.stringify(r.body).slice(0, 200)).toMatchObject({
        result: 'success',
        ignored_parameters_unsupported: ['no_such_option'],
      });
    expect(successes[0].body.ignored_parameters_unsupported).toBeUndefined();
    const errors: [ApiResult, number][] = [
      [await c.hamlet.post('/messages', { type: 'stream', to: 'general', topic: 'x' }), 400],
      [await new TestClient(w.server.url, 'hamlet@example.com', 'wrong').get('/users/me'), 401],
      [await c.hamlet.get('/no/such/endpoint'), 404],
      [await c.hamlet.request('PUT', '/users/me'), 405],
    ];
    for (const [r, status] of errors) {
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body.result).toBe('error');
      expect(typeof r.body.msg).toBe('string');
      expect(r.body.msg.length).toBeGreaterThan(0);
    }
  });

  it('convention 7: a failure inside the server is a 50x in the same envelope', async () => {
    // Every query, built or compiled once (db/compiled.ts), runs through the executor.
    const executor = w.server.ctx.db.getExecutor();
    const quiet = vi.spyOn(w.server.ctx.log, 'error').mockImplementation(() => {});
    // Every statement fails: some rows may be kept between requests (db/row-cache.ts).
    const broken = vi.spyOn(executor, 'executeQuery').mockImplementation((() => {
      throw new Error('the database went away');
    }) as any);
    try {
      const r = await w.c.hamlet.get('/users/me');
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(r.status).toBeLessThan(600);
      expect(r.body).toMatchObject({ result: 'error' });
      expect(typeof r.body.msg).toBe('string');
      expect(r.body.msg).not.toContain('database went away');
    } finally {
      broken.mockRestore();
      quiet.mockRestore();
    }
    expect((await w.c.hamlet.get('/users/me')).status).toBe(200);
  });

  it('stream objects carry every field of the spec, in GET /streams and in register', async () => {
    const { c } = w;
    expect(
      (await c.hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'empty shelf' }] }))
        .status,
    ).toBe(200);
    const listed = (await c.hamlet.get('/streams')).body.streams as any[];
    const registered = (await c.hamlet.post('/register', { fetch_event_types: ['stream'] })).body
      .streams as any[];
    expect(listed.length).toBeGreaterThan(3);
    for (const [where, streams] of [
      ['GET /streams', listed],
      ['register', registered],
    ] as const) {
      for (const s of streams) {
        const label = `${where} ${s.name}`;
        expect(Number.isInteger(s.stream_id), label).toBe(true);
        expect(typeof s.name, label).toBe('string');
        expect(typeof s.description, label).toBe('string');
        expect(typeof s.rendered_description, label).toBe('string');
        expect(Number.isInteger(s.date_created), label).toBe(true);
        expect(typeof s.invite_only, label).toBe('boolean');
        expect(typeof s.is_web_public, label).toBe('boolean');
        expect([1, 2, 3, 4], label).toContain(s.stream_post_policy);
        expect(s.is_announcement_only, label).toBe(s.stream_post_policy === 2);
        expect(isIntOrNull(s.message_retention_days), label).toBe(true);
        expect(s.message_retention_days, label).not.toBe(0);
        expect(typeof s.history_public_to_subscribers, label).toBe('boolean');
        if (!s.invite_only) expect(s.history_public_to_subscribers, label).toBe(true);
        expect(isIntOrNull(s.first_message_id), label).toBe(true);
        expect(Number.isInteger(s.can_remove_subscribers_group), label).toBe(true);
        expect(isIntOrNull(s.stream_weekly_traffic), label).toBe(true);
        expect('subscribers' in s, label).toBe(false);
      }
    }
    for (const s of listed) expect(typeof s.is_default, s.name).toBe('boolean');
    expect(listed.find((s) => s.name === 'general').is_default).toBe(true);
    expect(listed.find((s) => s.name === 'empty shelf').first_message_id).toBeNull();
    expect(listed.find((s) => s.name === 'general').first_message_id).toBeGreaterThan(0);
    expect(listed.find((s) => s.name === 'announce')).toMatchObject({
      stream_post_policy: 2,
      is_announcement_only: true,
    });
    expect(registered.find((s) => s.name === 'general').rendered_description).toContain('<p>');
    // Subscriber lists only with include_subscribers.
    const without = (await c.hamlet.post('/register', { fetch_event_types: ['subscription'] }))
      .body;
    expect(without.subscriptions.some((s: any) => 'subscribers' in s)).toBe(false);
    const withSubs = (
      await c.hamlet.post('/register', {
        fetch_event_types: ['subscription'],
        include_subscribers: true,
      })
    ).body;
    const general = withSubs.subscriptions.find((s: any) => s.name === 'general');
    expect(general.subscribers).toEqual(
      expect.arrayContaining([w.id.hamlet, w.id.othello, w.id.polonius]),
    );
  });

  it('default stream groups have a name, a description, an id and stream objects', async () => {
    const { c } = w;
    expect(
      (
        await c.iago.post('/default_stream_groups/create', {
          group_name: 'Makers',
          description: 'For makers',
          stream_names: ['engineering'],
        })
      ).status,
    ).toBe(200);
    const [group] = (
      await c.hamlet.post('/register', { fetch_event_types: ['default_stream_groups'] })
    ).body.realm_default_stream_groups;
    expect(group).toMatchObject({
      name: 'Makers',
      description: 'For makers',
      id: expect.any(Number),
    });
    expect(group.streams).toEqual([
      expect.objectContaining({
        stream_id: w.stream('engineering'),
        name: 'engineering',
        invite_only: false,
      }),
    ]);
  });

  it('drafts: id only when fetched, timestamp filled in, to ignored when unaddressed, no null bytes in topic', async () => {
    const { c } = w;
    const before = now();
    const made = await c.othello.post('/drafts', {
      drafts: [{ type: '', to: [w.id.hamlet], topic: '', content: 'an idea' }],
    });
    expect(made.status).toBe(200);
    const [draft] = (await c.othello.get('/drafts')).body.drafts.filter(
      (d: any) => d.id === made.body.ids[0],
    );
    expect(draft).toMatchObject({
      id: made.body.ids[0],
      type: '',
      to: [],
      topic: '',
      content: 'an idea',
    });
    expect(draft.timestamp).toBeGreaterThanOrEqual(before);
    const nul = await c.othello.post('/drafts', {
      drafts: [{ type: 'stream', to: [w.stream('general')], topic: 'a\u0000b', content: 'x' }],
    });
    expectCodedError(nul, 'BAD_REQUEST', 400);
    // `drafts` is optional: nothing to create is no error.
    expect((await c.othello.post('/drafts', {})).body).toMatchObject({
      result: 'success',
      ids: [],
    });
  });

  it('every subscription property of the spec is accepted with its value type and read back', async () => {
    const { c } = w;
    const general = w.stream('general');
    const values: [string, unknown][] = [
      ['color', '#123abc'],
      ['is_muted', true],
      ['pin_to_top', true],
      ['desktop_notifications', true],
      ['audible_notifications', false],
      ['push_notifications', true],
      ['email_notifications', false],
      ['wildcard_mentions_notify', false],
    ];
    const r = await c.cordelia.post('/users/me/subscriptions/properties', {
      subscription_data: values.map(([property, value]) => ({
        stream_id: general,
        property,
        value,
      })),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sub = (await c.cordelia.get('/users/me/subscriptions')).body.subscriptions.find(
      (s: any) => s.stream_id === general,
    );
    expect(sub).toMatchObject({ ...Object.fromEntries(values), in_home_view: false });
    // Muting by either name is announced under both (feature level 139).
    const q = (await c.cordelia.post('/register', { event_types: ['subscription'] })).body.queue_id;
    expect(
      (
        await c.cordelia.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: general, property: 'in_home_view', value: true }],
        })
      ).status,
    ).toBe(200);
    expect(
      (await c.cordelia.get('/users/me/subscriptions')).body.subscriptions.find(
        (s: any) => s.stream_id === general,
      ).is_muted,
    ).toBe(false);
    expect(
      (
        await c.cordelia.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: general, property: 'is_muted', value: true }],
        })
      ).status,
    ).toBe(200);
    expect((await drain(c.cordelia, q)).map((e) => [e.op, e.property, e.value])).toEqual([
      ['update', 'in_home_view', true],
      ['update', 'is_muted', false],
      ['update', 'in_home_view', false],
      ['update', 'is_muted', true],
    ]);
    expect(
      (
        await c.cordelia.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: general, property: 'is_muted', value: false }],
        })
      ).status,
    ).toBe(200);
    for (const [property, value] of [
      ['color', true],
      ['is_muted', '#123abc'],
      ['push_notifications', 'yes'],
      ['no_such_property', true],
    ] as const) {
      const bad = await c.cordelia.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: general, property, value }],
      });
      expectCodedError(bad, 'BAD_REQUEST', 400);
    }
  });

  it('personal message flags: the server sets mention, wildcard and alert-word flags; users change only read, starred, collapsed', async () => {
    const { c } = w;
    const topic = 'flag checks';
    await send(c.hamlet, 'general', topic, 'I was here first');
    expect(
      (await c.hamlet.post('/users/me/alert_words', { alert_words: ['elsinore'] })).status,
    ).toBe(200);
    const all = await send(c.othello, 'general', 'flag wildcard', '@**all** meeting at noon');
    const topicWide = await send(c.othello, 'general', topic, '@**topic** any news?');
    const alerted = await send(c.othello, 'general', topic, 'Back to Elsinore tonight');
    const direct = await send(c.othello, 'general', topic, `@**${w.name.hamlet}** over to you`);
    const flags = async (who: TestClient, m: number) =>
      (await who.get(`/messages/${m}`)).body.message.flags as string[];
    expect(await flags(c.hamlet, all)).toEqual(
      expect.arrayContaining(['stream_wildcard_mentioned', 'wildcard_mentioned']),
    );
    expect(await flags(c.hamlet, all)).not.toContain('mentioned');
    expect(await flags(c.hamlet, topicWide)).toEqual(
      expect.arrayContaining(['topic_wildcard_mentioned', 'wildcard_mentioned']),
    );
    // Topic wildcards reach only the topic's participants.
    expect(await flags(c.cordelia, topicWide)).not.toContain('topic_wildcard_mentioned');
    expect(await flags(c.cordelia, topicWide)).not.toContain('wildcard_mentioned');
    expect(await flags(c.hamlet, alerted)).toContain('has_alert_word');
    expect(await flags(c.othello, alerted)).not.toContain('has_alert_word');
    expect(await flags(c.hamlet, direct)).toContain('mentioned');
    expect(await flags(c.cordelia, direct)).not.toContain('mentioned');
    for (const flag of ['read', 'starred', 'collapsed']) {
      expect(
        (await c.hamlet.post('/messages/flags', { messages: [direct], op: 'add', flag })).body
          .messages,
      ).toEqual([direct]);
      expect(await flags(c.hamlet, direct)).toContain(flag);
      expect(
        (await c.hamlet.post('/messages/flags', { messages: [direct], op: 'remove', flag })).status,
      ).toBe(200);
      expect(await flags(c.hamlet, direct)).not.toContain(flag);
    }
    for (const flag of [
      'mentioned',
      'wildcard_mentioned',
      'stream_wildcard_mentioned',
      'topic_wildcard_mentioned',
      'has_alert_word',
      'historical',
    ]) {
      for (const op of ['add', 'remove']) {
        const r = await c.hamlet.post('/messages/flags', { messages: [direct], op, flag });
        expectCodedError(r, 'BAD_REQUEST', 400);
      }
    }
    expect(await flags(c.hamlet, direct)).toContain('mentioned');
  });

  it('the unread summary: one-on-one, stream (muted included, not counted), group entries, mentions and count', async () => {
    const { c, id } = w;
    expect(
      (
        await c.hamlet.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'quiet corner' }],
          principals: [id.cordelia, id.othello],
        })
      ).status,
    ).toBe(200);
    const quiet = await streamId(w, 'quiet corner');
    expect(
      (
        await c.cordelia.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: quiet, property: 'is_muted', value: true }],
        })
      ).status,
    ).toBe(200);
    expect((await c.cordelia.post('/mark_all_as_read')).status).toBe(200);
    const dm = async (to: number[], content: string) =>
      (await c.othello.post('/messages', { type: 'direct', to, content })).body.id as number;
    const d1 = await dm([id.cordelia], 'one');
    const g1 = await dm([id.cordelia, id.hamlet], 'all three');
    const d2 = await dm([id.cordelia], 'two');
    const s1 = await send(c.othello, 'general', 'unread summary', 'plain');
    const s2 = await send(c.othello, 'general', 'unread summary', `@**${w.name.cordelia}** look`);
    const s3 = await send(c.othello, 'general', 'unread summary', '@**all** everyone look');
    const q1 = await send(c.othello, quiet, 'hush', 'plain');
    const q2 = await send(c.othello, quiet, 'hush', '@**all** in a muted stream');
    const q3 = await send(c.othello, quiet, 'hush', `@**${w.name.cordelia}** in a muted stream`);

    const unread = (
      await c.cordelia.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    expect(unread.pms).toEqual([
      { other_user_id: id.othello, sender_id: id.othello, unread_message_ids: [d1, d2] },
    ]);
    expect(unread.huddles).toEqual([
      {
        user_ids_string: [id.cordelia, id.hamlet, id.othello].sort((a, b) => a - b).join(','),
        unread_message_ids: [g1],
      },
    ]);
    expect(unread.streams).toEqual(
      expect.arrayContaining([
        {
          stream_id: w.stream('general'),
          topic: 'unread summary',
          unread_message_ids: [s1, s2, s3],
        },
        { stream_id: quiet, topic: 'hush', unread_message_ids: [q1, q2, q3] },
      ]),
    );
    expect(unread.streams).toHaveLength(2);
    expect([...unread.mentions].sort((a: number, b: number) => a - b)).toEqual([s2, s3, q3]);
    expect(unread.count).toBe(6);
    expect(unread.old_unreads_missing).toBe(false);
    for (const list of [...unread.pms, ...unread.streams, ...unread.huddles].map(
      (e) => e.unread_message_ids,
    ))
      expect([...list].sort((a: number, b: number) => a - b)).toEqual(list);
  });

  it('realm settings in register: every field of the spec, with its type and values', async () => {
    const r = (
      await w.c.hamlet.post('/register', { fetch_event_types: ['realm', 'realm_user_groups'] })
    ).body;
    const bools = [
      'realm_allow_message_editing',
      'realm_inline_image_preview',
      'realm_inline_url_embed_preview',
      'realm_mandatory_topics',
      'realm_name_changes_disabled',
      'realm_avatar_changes_disabled',
      'realm_emails_restricted_to_domains',
      'realm_send_welcome_emails',
      'realm_message_content_allowed_in_email_notifications',
      'realm_enable_spectator_access',
      'realm_want_advertise_in_communities_directory',
      'realm_enable_read_receipts',
      'realm_presence_disabled',
    ];
    for (const k of bools) expect(typeof r[k], k).toBe('boolean');
    const strings = [
      'realm_name',
      'realm_default_code_block_language',
      'realm_icon_url',
      'realm_logo_url',
      'realm_night_logo_url',
      'realm_bot_domain',
      'realm_uri',
    ];
    for (const k of strings) expect(typeof r[k], k).toBe('string');
    const ints = [
      'realm_gif_rating',
      'realm_waiting_period_threshold',
      'realm_digest_weekday',
      'max_icon_file_size_mib',
      'max_logo_file_size_mib',
      'realm_create_multiuse_invite_group',
    ];
    for (const k of ints) expect(Number.isInteger(r[k]), k).toBe(true);
    expect([1, 2, 3, 4, 6]).toContain(r.realm_invite_to_realm_policy);
    expect([1, 2, 3, 4, 6]).toContain(r.realm_move_messages_between_streams_policy);
    expect([1, 2, 3, 4, 5, 6]).toContain(r.realm_edit_topic_policy);
    expect([1, 2]).toContain(r.realm_private_message_policy);
    expect([1, 2, 3, 4]).toContain(r.realm_user_group_edit_policy);
    expect([0, 1, 3, 4]).toContain(r.realm_video_chat_provider);
    expect(r.realm_digest_weekday).toBeGreaterThanOrEqual(0);
    expect(r.realm_digest_weekday).toBeLessThanOrEqual(6);
    for (const k of [
      'realm_message_content_edit_limit_seconds',
      'realm_message_content_delete_limit_seconds',
      'realm_move_messages_within_stream_limit_seconds',
      'realm_move_messages_between_streams_limit_seconds',
    ]) {
      expect(isIntOrNull(r[k]), k).toBe(true);
      expect(r[k], k).not.toBe(0);
    }
    expect(r.realm_message_retention_days === -1 || r.realm_message_retention_days > 0).toBe(true);
    for (const [key, provider] of Object.entries(
      r.realm_available_video_chat_providers as Record<string, any>,
    )) {
      expect(typeof provider.name, key).toBe('string');
      expect(Number.isInteger(provider.id), key).toBe(true);
    }
    expect(Object.values(r.realm_available_video_chat_providers).map((p: any) => p.id)).toContain(
      r.realm_video_chat_provider,
    );
    expect(r.realm_meet_server_url === null || typeof r.realm_meet_server_url === 'string').toBe(
      true,
    );
    expect(Object.values(r.realm_authentication_methods).every((v) => typeof v === 'boolean')).toBe(
      true,
    );
    expect(['G', 'U']).toContain(r.realm_icon_source);
    expect(['D', 'U']).toContain(r.realm_logo_source);
    expect(['D', 'U']).toContain(r.realm_night_logo_source);
    expect(r.realm_uri).toBe(w.server.url);
    const group = r.realm_user_groups.find(
      (g: any) => g.id === r.realm_create_multiuse_invite_group,
    );
    expect(group.is_system_group).toBe(true);
    expect(['role:internet', 'role:owners']).not.toContain(group.name);
  });

  it('realm_meet_server_url: null means server_meet_server_url; a custom server is announced under both names', async () => {
    const { c } = w;
    const before = (await c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body;
    expect(before.realm_meet_server_url).toBeNull();
    expect(typeof before.server_meet_server_url).toBe('string');
    expect(before.jitsi_server_url).toBe(before.server_meet_server_url);
    const q = (await c.hamlet.post('/register', { event_types: ['realm'] })).body.queue_id;
    await realm(w, { jitsi_server_url: JSON.stringify('https://meet.elsinore.example') });
    const events = await drain(c.hamlet, q);
    expect(events).toContainEqual(
      expect.objectContaining({
        op: 'update',
        property: 'meet_server_url',
        value: 'https://meet.elsinore.example',
      }),
    );
    const after = (await c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body;
    expect(after).toMatchObject({
      realm_meet_server_url: 'https://meet.elsinore.example',
      jitsi_server_url: 'https://meet.elsinore.example',
    });
    await realm(w, { jitsi_server_url: JSON.stringify('default') });
    expect(
      (await c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body
        .realm_meet_server_url,
    ).toBeNull();
  });

  it('GET /server_settings: every field of the spec, without authentication', async () => {
    const r = await w.anon.get('/server_settings');
    expect(r.status).toBe(200);
    const b = r.body;
    const methods = Object.keys(b.authentication_methods);
    expect(methods).toEqual(
      expect.arrayContaining([
        'password',
        'dev',
        'email',
        'ldap',
        'remoteuser',
        'saml',
        'openid connect',
      ]),
    );
    expect(methods.length).toBe(12);
    expect(Object.values(b.authentication_methods).every((v) => typeof v === 'boolean')).toBe(true);
    expect(b.authentication_methods.password).toBe(b.email_auth_enabled);
    expect(Array.isArray(b.external_authentication_methods)).toBe(true);
    for (const m of b.external_authentication_methods)
      expect(m).toMatchObject({
        name: expect.any(String),
        display_name: expect.any(String),
        login_url: expect.any(String),
        signup_url: expect.any(String),
      });
    expect(Number.isInteger(b.service_feature_level)).toBe(true);
    expect(typeof b.service_version).toBe('string');
    expect(typeof b.service_merge_base).toBe('string');
    for (const k of [
      'push_notifications_enabled',
      'is_incompatible',
      'email_auth_enabled',
      'require_email_format_usernames',
      'realm_web_public_access_enabled',
    ])
      expect(typeof b[k], k).toBe('boolean');
    expect(b.is_incompatible).toBe(false);
    expect(b).toMatchObject({ realm_uri: w.server.url, realm_name: 'Parley Demo' });
    expect(b.realm_icon).toMatch(/^http/);
    expect(typeof b.realm_description).toBe('string');
    const reg = (await w.c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body;
    expect(b.realm_web_public_access_enabled).toBe(reg.realm_enable_spectator_access);
    expect(b.realm_description).toBe(reg.realm_description);
  });
});

describe.each(DATABASES)('api-spec.md register, authentication and versioning on %s', (db) => {
  let w: World;

  beforeAll(async () => {
    w = await world(await startTestServer({ db }));
  });
  afterAll(() => w?.server.close());

  it('POST /register response: version, data and limit fields, typing intervals and permission settings', async () => {
    const { c } = w;
    const starred = await send(c.hamlet, 'general', 'register fields', 'star me');
    expect(
      (await c.hamlet.post('/messages/flags', { messages: [starred], op: 'add', flag: 'starred' }))
        .status,
    ).toBe(200);
    const r = (await c.hamlet.post('/register', {})).body;
    expect(typeof r.queue_id).toBe('string');
    expect(r.last_event_id).toBe(-1);
    expect(r.service_feature_level).toBe(222);
    expect(r.service_version.length).toBeGreaterThan(0);
    expect(r.service_merge_base).toBe(r.service_version);
    expect(Array.isArray(r.alert_words)).toBe(true);
    expect(Array.isArray(r.custom_profile_fields)).toBe(true);
    expect(r.unread_msgs).toMatchObject({ count: expect.any(Number), old_unreads_missing: false });
    expect(r.starred_messages).toContain(starred);
    expect([...r.starred_messages].sort((a: number, b: number) => a - b)).toEqual(
      r.starred_messages,
    );
    expect(r.streams.map((s: any) => s.name)).toContain('general');
    expect(r.realm_default_streams.map((s: any) => s.name)).toEqual(['general']);
    expect(Array.isArray(r.realm_default_stream_groups)).toBe(true);
    for (const k of [
      'max_message_length',
      'max_topic_length',
      'server_typing_started_wait_period_milliseconds',
      'server_typing_stopped_wait_period_milliseconds',
      'server_typing_started_expiry_period_milliseconds',
    ]) {
      expect(Number.isInteger(r[k]), k).toBe(true);
      expect(r[k], k).toBeGreaterThan(0);
    }
    // A typist who keeps typing restarts before the indicator expires.
    expect(r.server_typing_started_expiry_period_milliseconds).toBeGreaterThan(
      r.server_typing_started_wait_period_milliseconds,
    );
    expect(Object.keys(r.server_supported_permission_settings).sort()).toEqual([
      'group',
      'realm',
      'stream',
    ]);
    expect(
      r.server_supported_permission_settings.stream.can_remove_subscribers_group
        .require_system_group,
    ).toBe(true);
    // Only what was asked for.
    const some = (await c.hamlet.post('/register', { fetch_event_types: ['alert_words'] })).body;
    expect(some.alert_words).toEqual([]);
    for (const k of ['streams', 'unread_msgs', 'starred_messages', 'realm_name'])
      expect(some[k], k).toBeUndefined();
    expect(some.service_feature_level).toBe(222);
  });

  it('POST /register streams: administrators get every private stream, web-public streams are included', async () => {
    const { c } = w;
    expect(
      (
        await c.desdemona.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'council' }],
          invite_only: true,
        })
      ).status,
    ).toBe(200);
    const names = async (who: TestClient) =>
      ((await who.post('/register', { fetch_event_types: ['stream'] })).body.streams as any[]).map(
        (s) => s.name,
      );
    expect(await names(c.iago)).toEqual(expect.arrayContaining(['council', 'design']));
    expect(await names(c.hamlet)).not.toContain('council');
    expect(
      (await c.polonius.delete('/users/me/subscriptions', { subscriptions: ['welcome'] })).body
        .removed,
    ).toEqual(['welcome']);
    expect(await names(c.polonius)).toContain('welcome');
    expect(await names(c.polonius)).not.toContain('engineering');
    expect(
      (
        await c.iago.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'welcome' }],
          principals: [w.id.polonius],
        })
      ).status,
    ).toBe(200);
  });

  it('POST /register: fetch_event_types falls back to event_types; unsupported types are ignored', async () => {
    const { c } = w;
    const fallback = (await c.hamlet.post('/register', { event_types: ['alert_words'] })).body;
    expect(fallback.alert_words).toBeDefined();
    expect(fallback.streams).toBeUndefined();
    const both = await c.hamlet.post('/register', {
      event_types: ['message', 'no_such_event'],
      fetch_event_types: ['stream', 'no_such_data'],
    });
    expect(both.status).toBe(200);
    expect(both.body.streams).toBeDefined();
    expect(both.body.alert_words).toBeUndefined();
    const everything = (await c.hamlet.post('/register', {})).body;
    for (const k of ['alert_words', 'streams', 'unread_msgs', 'realm_name', 'realm_users'])
      expect(everything[k], k).toBeDefined();
    const id = await send(c.othello, 'general', 'fallback', 'still delivered');
    expect((await drain(c.hamlet, both.body.queue_id)).map((e) => e.message?.id)).toEqual([id]);
  });

  it('POST /register: apply_markdown chooses HTML or Markdown content in message events', async () => {
    const { c } = w;
    const html = (
      await c.hamlet.post('/register', { event_types: ['message'], apply_markdown: true })
    ).body.queue_id;
    const markdown = (await c.hamlet.post('/register', { event_types: ['message'] })).body.queue_id;
    const id = await send(c.othello, 'general', 'markdown', 'some **bold** words');
    expect((await drain(c.hamlet, html))[0].message).toMatchObject({
      id,
      content: '<p>some <strong>bold</strong> words</p>',
      content_type: 'text/html',
    });
    expect((await drain(c.hamlet, markdown))[0].message).toMatchObject({
      id,
      content: 'some **bold** words',
      content_type: 'text/x-markdown',
    });
  });

  it('POST /register: client_gravatar leaves avatar_url set, since no avatar comes from the external service', async () => {
    const r = (
      await w.c.hamlet.post('/register', {
        fetch_event_types: ['realm_user'],
        client_gravatar: true,
      })
    ).body;
    expect(r.realm_users.length).toBeGreaterThan(5);
    for (const u of r.realm_users)
      expect(u.avatar_url, u.email).toMatch(
        new RegExp(`^${w.server.url}/user_avatars/\\d+/${u.user_id}-\\d+-[0-9a-f]{32}$`),
      );
  });

  it('POST /register client_capabilities: the six keys are accepted; the optional ones change nothing clients rely on', async () => {
    const caps = {
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: true,
      stream_typing_notifications: true,
      user_settings_object: true,
      linkifier_url_template: true,
    };
    const r = await w.c.hamlet.post('/register', {
      client_capabilities: caps,
      fetch_event_types: ['realm_user', 'subscription', 'user_settings'],
    });
    expect(r.status).toBe(200);
    for (const u of r.body.realm_users) expect(typeof u.avatar_url, u.email).toBe('string');
    for (const s of r.body.subscriptions)
      for (const k of [
        'desktop_notifications',
        'audible_notifications',
        'push_notifications',
        'email_notifications',
      ])
        expect(s[k] === null || typeof s[k] === 'boolean', `${s.name} ${k}`).toBe(true);
    expect(r.body.user_settings).toBeDefined();
    expectCodedError(
      await w.c.hamlet.post('/register', { client_capabilities: '{"bulk_message_deletion": ' }),
      'BAD_REQUEST',
      400,
    );
  });

  it('POST /register narrow: dm and dm-including filter message events', async () => {
    const { c, id } = w;
    const dmOnly = (
      await c.othello.post('/register', {
        event_types: ['message'],
        narrow: [['dm', String(id.hamlet)]],
      })
    ).body.queue_id;
    const including = (
      await c.othello.post('/register', {
        event_types: ['message'],
        narrow: [['dm-including', String(id.hamlet)]],
      })
    ).body.queue_id;
    const one = (
      await c.hamlet.post('/messages', { type: 'direct', to: [id.othello], content: 'just us' })
    ).body.id;
    const group = (
      await c.hamlet.post('/messages', {
        type: 'direct',
        to: [id.othello, id.cordelia],
        content: 'the three of us',
      })
    ).body.id;
    const other = (
      await c.cordelia.post('/messages', {
        type: 'direct',
        to: [id.othello],
        content: 'not hamlet',
      })
    ).body.id;
    await send(c.hamlet, 'general', 'narrowed register', 'not a direct message');
    const ids = async (q: string) =>
      (await drain(c.othello, q)).filter((e) => e.type === 'message').map((e) => e.message.id);
    expect(await ids(dmOnly)).toEqual([one]);
    expect(await ids(including)).toEqual([one, group]);
    expect(other).toBeGreaterThan(group);
  });

  it('POST /fetch_api_key: api_key, email and user_id, without prior authentication', async () => {
    const r = await w.anon.post('/fetch_api_key', {
      username: 'Othello@Example.com',
      password: DEMO_PASSWORD,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      email: 'othello@example.com',
      user_id: w.id.othello,
    });
    expect(r.body.api_key).toBe(w.c.othello.apiKey);
    expectCodedError(
      await w.anon.post('/fetch_api_key', { username: 'othello@example.com' }),
      'REQUEST_VARIABLE_MISSING',
      400,
    );
  });

  it('authentication 1: HTTP Basic with the API email and key; other schemes and other keys are refused', async () => {
    const call = (authorization: string) =>
      fetch(`${w.server.url}/api/v1/users/me`, { headers: { Authorization: authorization } }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as any }),
      );
    const basic = (user: string, key: string) =>
      'Basic ' + Buffer.from(`${user}:${key}`).toString('base64');
    expect((await call(basic('hamlet@example.com', w.c.hamlet.apiKey!))).body).toMatchObject({
      result: 'success',
      user_id: w.id.hamlet,
    });
    expect((await call(basic('HAMLET@example.com', w.c.hamlet.apiKey!))).body.user_id).toBe(
      w.id.hamlet,
    );
    expect(await call(basic('othello@example.com', w.c.hamlet.apiKey!))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_API_KEY' },
    });
    expect((await call(`Bearer ${w.c.hamlet.apiKey}`)).status).toBe(401);
    expect((await call(basic('hamlet@example.com', DEMO_PASSWORD))).status).toBe(401);
  });

  it('authentication 3 and 11: password login only; no social sign-on, no development key fetch', async () => {
    const settings = (await w.anon.get('/server_settings')).body;
    expect(settings.external_authentication_methods).toEqual([]);
    const enabled = Object.entries(settings.authentication_methods)
      .filter(([, on]) => on)
      .map(([k]) => k)
      .sort();
    expect(enabled).toEqual(['email', 'password']);
    for (const path of ['/dev_fetch_api_key', '/dev_list_users']) {
      const r = await w.anon.post(path, { username: 'hamlet@example.com' });
      expect(r.status, path).toBe(404);
      expect(r.body.result).toBe('error');
    }
  });

  it('authentication 9: creating users needs an administrator with can_create_users; a taken email is BAD_REQUEST', async () => {
    const { c, server } = w;
    const params = { email: 'horatio@example.com', password: 'horatio-pass', full_name: 'Horatio' };
    expectCodedError(await c.hamlet.post('/users', params), 'UNAUTHORIZED_PRINCIPAL', 400);
    expectCodedError(await c.iago.post('/users', params), 'BAD_REQUEST', 400);
    const iago = await server.ctx.db
      .selectFrom('users')
      .select('settings')
      .where('id', '=', w.id.iago)
      .executeTakeFirstOrThrow();
    await server.ctx.db
      .updateTable('users')
      .set({
        settings: JSON.stringify({ ...JSON.parse(iago.settings || '{}'), can_create_users: true }),
      })
      .where('id', '=', w.id.iago)
      .execute();
    const made = await c.iago.post('/users', params);
    expect(made.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
    expect((await c.hamlet.get(`/users/${made.body.user_id}`)).body.user).toMatchObject({
      email: 'horatio@example.com',
      full_name: 'Horatio',
      role: 400,
    });
    expect(
      (await TestClient.login(server.url, 'horatio@example.com', 'horatio-pass')).apiKey,
    ).toBeTruthy();
    const taken = await c.iago.post('/users', { ...params, email: 'Othello@example.com' });
    expectCodedError(taken, 'BAD_REQUEST', 400);
    expect(taken.body.msg).toContain('already in use');
    expectCodedError(
      await c.iago.post('/users', { email: 'x@example.com', password: 'long-enough' }),
      'REQUEST_VARIABLE_MISSING',
      400,
    );
  });

  it('authentication 10: an API key lasts until the account is deactivated', async () => {
    const { c, server } = w;
    const realmRow = await server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    const user = await createUser(server.ctx, realmRow, {
      email: 'marcellus@example.com',
      fullName: 'Marcellus',
      password: 'on-the-watch',
    });
    const marcellus = await TestClient.login(server.url, 'marcellus@example.com', 'on-the-watch');
    expect(
      (
        await marcellus.patch('/settings', {
          old_password: 'on-the-watch',
          new_password: 'a-new-watch',
        })
      ).status,
    ).toBe(200);
    expect((await marcellus.get('/users/me')).status).toBe(200);
    expect((await c.iago.delete(`/users/${user.id}`)).status).toBe(200);
    expectCodedError(await marcellus.get('/users/me'), 'USER_DEACTIVATED', 401);
  });

  it('versioning 1: every path lives under /api/v1', async () => {
    expect((await fetch(`${w.server.url}/api/v1/server_settings`)).status).toBe(200);
    for (const path of [
      '/api/v2/server_settings',
      '/api/server_settings',
      '/api/v1.1/server_settings',
    ]) {
      const r = await fetch(`${w.server.url}${path}`);
      expect(r.status, path).toBe(404);
      expect(((await r.json()) as any).result).toBe('error');
    }
  });

  it('versioning 2-3: service_feature_level and service_version are the same in server_settings and register', async () => {
    const settings = (await w.anon.get('/server_settings')).body;
    const reg = (await w.c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body;
    expect(settings.service_feature_level).toBe(reg.service_feature_level);
    expect(settings.service_version).toBe(reg.service_version);
    expect(settings.service_merge_base).toBe(reg.service_merge_base);
    expect(reg.service_feature_level).toBe(222);
    expect(reg.service_version).toMatch(/\S/);
  });

  it('versioning 211: POST /streams/{stream_id}/delete_topic deletes a topic for administrators and answers complete: true', async () => {
    const { c } = w;
    const general = w.stream('general');
    const doomed = [
      await send(c.hamlet, general, 'doomed topic'),
      await send(c.othello, general, 'Doomed Topic'),
      await send(c.hamlet, general, 'doomed topic'),
    ];
    const survivor = await send(c.hamlet, general, 'survivor');
    const q = (
      await c.cordelia.post('/register', {
        event_types: ['delete_message'],
        client_capabilities: { bulk_message_deletion: true },
      })
    ).body.queue_id;
    const refused = await c.hamlet.post(`/streams/${general}/delete_topic`, {
      topic_name: 'doomed topic',
    });
    expectCodedError(refused, 'UNAUTHORIZED_PRINCIPAL', 400);
    const r = await c.iago.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed topic' });
    expect(r.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await topicIds(c.hamlet, general, 'doomed topic')).toEqual([]);
    expect(await topicIds(c.hamlet, general, 'survivor')).toEqual([survivor]);
    const events = await drain(c.cordelia, q);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'delete_message',
        message_type: 'stream',
        stream_id: general,
        message_ids: doomed,
      }),
    ]);
    expect(
      (await c.iago.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed topic' })).body
        .complete,
    ).toBe(true);
    expect(
      (await c.iago.post('/streams/99999/delete_topic', { topic_name: 'x' })).body,
    ).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    // A private stream the administrator is not in stays closed.
    expect(
      (
        await c.iago.post(`/streams/${await streamId(w, 'council')}/delete_topic`, {
          topic_name: 'x',
        })
      ).body.msg,
    ).toBe('Invalid channel ID');
    expect((await c.iago.post('/mark_all_as_read')).body.complete).toBe(true);
  });
});

describe.each(DATABASES)('api-spec.md endpoint rules on %s', (db) => {
  let w: World;

  beforeAll(async () => {
    w = await world(await startTestServer({ db }));
  });
  afterAll(() => w?.server.close());

  it('POST /messages: direct messages to user ids or emails, with the topic ignored', async () => {
    const { c, id } = w;
    const byId = await c.hamlet.post('/messages', {
      type: 'direct',
      to: [id.othello],
      topic: 'ignored',
      content: 'by id',
    });
    const byEmail = await c.hamlet.post('/messages', {
      type: 'direct',
      to: ['othello@example.com'],
      content: 'by email',
    });
    for (const r of [byId, byEmail]) {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const m = await rawMessage(c.othello, r.body.id);
      expect(m).toMatchObject({ type: 'private', subject: '' });
      expect(m.display_recipient.map((u: any) => u.id).sort()).toEqual(
        [id.hamlet, id.othello].sort(),
      );
    }
  });

  it('POST /messages: queue_id needs local_id', async () => {
    const q = (await w.c.hamlet.post('/register', { event_types: ['message'] })).body.queue_id;
    const r = await w.c.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 't',
      content: 'x',
      queue_id: q,
    });
    expectCodedError(r, 'REQUEST_VARIABLE_MISSING', 400);
    expect(r.body.var_name).toBe('local_id');
  });

  it('POST /messages: content and topic are bounded by max_message_length and max_topic_length', async () => {
    const { c } = w;
    const reg = (await c.hamlet.post('/register', { fetch_event_types: ['realm'] })).body;
    const long = await c.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 't'.repeat(reg.max_topic_length + 1),
      content: 'c'.repeat(reg.max_message_length + 1),
    });
    expect(long.status).toBe(200);
    const m = await rawMessage(c.hamlet, long.body.id);
    expect(m.content.length).toBeLessThanOrEqual(reg.max_message_length);
    expect(m.content).toMatch(/\[message truncated\]$/);
    expect(m.subject.length).toBe(reg.max_topic_length);
    expect(m.subject).toMatch(/\.\.\.$/);
    const fits = await c.hamlet.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'u'.repeat(reg.max_topic_length),
      content: 'd'.repeat(reg.max_message_length),
    });
    const kept = await rawMessage(c.hamlet, fits.body.id);
    expect(kept.content).toBe('d'.repeat(reg.max_message_length));
    expect(kept.subject).toBe('u'.repeat(reg.max_topic_length));
  });

  it("POST /messages: automatic_new_visibility_policy and a user_topic event when the sender's setting follows the topic", async () => {
    const { c } = w;
    const general = w.stream('general');
    const q = (await c.hamlet.post('/register', { event_types: ['user_topic'] })).body.queue_id;
    const first = await c.hamlet.post('/messages', {
      type: 'stream',
      to: general,
      topic: 'brand new topic',
      content: 'I start this',
    });
    expect(first.body).toMatchObject({ result: 'success', automatic_new_visibility_policy: 3 });
    expect(await drain(c.hamlet, q)).toEqual([
      expect.objectContaining({
        type: 'user_topic',
        stream_id: general,
        topic_name: 'brand new topic',
        visibility_policy: 3,
      }),
    ]);
    const second = await c.hamlet.post('/messages', {
      type: 'stream',
      to: general,
      topic: 'brand new topic',
      content: 'and go on',
    });
    expect(second.body.automatic_new_visibility_policy).toBeUndefined();
    // Someone else's reply does not start the topic: with the same setting, no follow.
    const reply = await c.othello.post('/messages', {
      type: 'stream',
      to: general,
      topic: 'brand new topic',
      content: 'joining in',
    });
    expect(reply.body).toMatchObject({ result: 'success' });
    expect(reply.body.automatic_new_visibility_policy).toBeUndefined();
    expect(
      (await c.hamlet.patch('/settings', { automatically_follow_topics_policy: 4 })).status,
    ).toBe(200);
    const never = await c.hamlet.post('/messages', {
      type: 'stream',
      to: general,
      topic: 'another new topic',
      content: 'no follow',
    });
    expect(never.body.automatic_new_visibility_policy).toBeUndefined();
    const dm = await c.hamlet.post('/messages', {
      type: 'direct',
      to: [w.id.othello],
      content: 'no topics here',
    });
    expect(dm.body.automatic_new_visibility_policy).toBeUndefined();
    expect(await drain(c.hamlet, q)).toHaveLength(1);
  });

  it('PATCH /messages parameters: stream_id is refused for direct messages; change_one and change_later move what they say', async () => {
    const { c, id } = w;
    const dm = (
      await c.hamlet.post('/messages', { type: 'direct', to: [id.othello], content: 'stay here' })
    ).body.id;
    expectCodedError(
      await c.hamlet.patch(`/messages/${dm}`, { stream_id: w.stream('general') }),
      'BAD_REQUEST',
      400,
    );
    const engineering = w.stream('engineering');
    const m = [
      await send(c.hamlet, engineering, 'modes'),
      await send(c.hamlet, engineering, 'modes'),
      await send(c.hamlet, engineering, 'modes'),
    ];
    expect(
      (
        await c.hamlet.patch(`/messages/${m[1]}`, {
          topic: 'modes later',
          propagate_mode: 'change_later',
        })
      ).status,
    ).toBe(200);
    expect(await topicIds(c.hamlet, engineering, 'modes')).toEqual([m[0]]);
    expect(
      (await topicIds(c.hamlet, engineering, 'modes later')).filter((x) => m.includes(x)),
    ).toEqual([m[1], m[2]]);
    // change_one is the default; `subject` is the legacy name of `topic`.
    expect((await c.hamlet.patch(`/messages/${m[2]}`, { subject: 'modes one' })).status).toBe(200);
    expect(
      (await topicIds(c.hamlet, engineering, 'modes one')).filter((x) => m.includes(x)),
    ).toEqual([m[2]]);
    expect(
      (await topicIds(c.hamlet, engineering, 'modes later')).filter((x) => m.includes(x)),
    ).toEqual([m[1]]);
  });

  it('PATCH /messages notifications: send_notification_to_old_thread and send_notification_to_new_thread', async () => {
    const { c } = w;
    const engineering = w.stream('engineering');
    const moved = await send(c.hamlet, engineering, 'notify me');
    expect(
      (
        await c.iago.patch(`/messages/${moved}`, {
          topic: 'notify me moved',
          propagate_mode: 'change_all',
          send_notification_to_old_thread: true,
          send_notification_to_new_thread: false,
        })
      ).status,
    ).toBe(200);
    expect(await topicIds(c.hamlet, engineering, 'notify me moved')).toEqual([moved]);
    const old = (
      await c.hamlet.get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: [
          ['channel', String(engineering)],
          ['topic', 'notify me'],
        ],
      })
    ).body.messages;
    expect(old).toHaveLength(1);
    expect(old[0]).toMatchObject({ sender_full_name: 'Notification Bot' });
    expect(old[0].content).toContain('This topic was moved to');
    // By default the new thread is told and the old one is not.
    const again = await send(c.hamlet, engineering, 'notify default');
    expect(
      (
        await c.iago.patch(`/messages/${again}`, {
          topic: 'notify default moved',
          propagate_mode: 'change_all',
        })
      ).status,
    ).toBe(200);
    expect(await topicIds(c.hamlet, engineering, 'notify default')).toEqual([]);
    expect(await topicIds(c.hamlet, engineering, 'notify default moved')).toHaveLength(2);
  });

  it('PATCH /messages rules 2 and 4: editing and moving follow the realm settings; refusals are BAD_REQUEST; moderators are exempt from move limits', async () => {
    const { c, server } = w;
    const engineering = w.stream('engineering');
    const general = w.stream('general');
    await realm(w, { allow_message_editing: false });
    const mine = await send(c.hamlet, engineering, 'rule two');
    expectCodedError(
      await c.hamlet.patch(`/messages/${mine}`, { content: 'changed' }),
      'BAD_REQUEST',
      400,
    );
    await realm(w, { allow_message_editing: true });
    expect((await c.hamlet.patch(`/messages/${mine}`, { content: 'changed' })).status).toBe(200);

    await realm(w, {
      move_messages_between_streams_policy: 1,
      move_messages_between_streams_limit_seconds: 3600,
      move_messages_within_stream_limit_seconds: 3600,
    });
    expect((await c.hamlet.patch(`/messages/${mine}`, { stream_id: general })).status).toBe(200);
    const old = await send(c.hamlet, engineering, 'rule two old');
    await age(server, old, 7200);
    expectCodedError(
      await c.hamlet.patch(`/messages/${old}`, { stream_id: general }),
      'BAD_REQUEST',
      400,
    );
    expectCodedError(
      await c.hamlet.patch(`/messages/${old}`, { topic: 'renamed late' }),
      'BAD_REQUEST',
      400,
    );
    expect(
      (await c.shiva.patch(`/messages/${old}`, { topic: 'renamed by a moderator' })).status,
    ).toBe(200);
    expect((await c.shiva.patch(`/messages/${old}`, { stream_id: general })).status).toBe(200);
    expect(await rawMessage(c.hamlet, old)).toMatchObject({
      stream_id: general,
      subject: 'renamed by a moderator',
    });
    await realm(w, { move_messages_between_streams_policy: 6 });
    expectCodedError(
      await c.iago.patch(`/messages/${old}`, { stream_id: engineering }),
      'BAD_REQUEST',
      400,
    );
    await realm(w, {
      move_messages_between_streams_policy: 2,
      move_messages_between_streams_limit_seconds: 604800,
      move_messages_within_stream_limit_seconds: 604800,
    });
  });

  it('PATCH /messages rule 3: messages without a topic follow the same topic-edit rules', async () => {
    const { c } = w;
    const engineering = w.stream('engineering');
    const untitled = await send(c.hamlet, engineering, '', 'no topic given');
    await realm(w, { edit_topic_policy: 2 });
    expectCodedError(
      await c.othello.patch(`/messages/${untitled}`, { topic: 'named by a member' }),
      'BAD_REQUEST',
      400,
    );
    expectCodedError(
      await c.hamlet.patch(`/messages/${untitled}`, { topic: 'named by the sender' }),
      'BAD_REQUEST',
      400,
    );
    expect(
      (await c.iago.patch(`/messages/${untitled}`, { topic: 'named by an administrator' })).status,
    ).toBe(200);
    await realm(w, { edit_topic_policy: 5 });
    expect((await rawMessage(c.hamlet, untitled)).subject).toBe('named by an administrator');
  });

  it('PATCH /messages rules 5-7: first_message_id_allowed_to_move is null when no message may move', async () => {
    const { c, server } = w;
    const engineering = w.stream('engineering');
    await realm(w, { move_messages_within_stream_limit_seconds: 3600 });
    const a = await send(c.hamlet, engineering, 'all too old');
    const b = await send(c.hamlet, engineering, 'all too old');
    await age(server, a, 7200);
    await age(server, b, 7200);
    for (const mode of ['change_all', 'change_later']) {
      const r = await c.othello.patch(`/messages/${a}`, {
        topic: 'too late',
        propagate_mode: mode,
      });
      expectCodedError(r, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 400);
      expect(r.body).toMatchObject({
        first_message_id_allowed_to_move: null,
        total_messages_in_topic: 2,
        total_messages_allowed_to_move: 0,
      });
    }
    expect(
      (
        await c.shiva.patch(`/messages/${a}`, {
          topic: 'moved by a moderator',
          propagate_mode: 'change_all',
        })
      ).status,
    ).toBe(200);
    expect(
      (await topicIds(c.hamlet, engineering, 'moved by a moderator')).filter((x) => x <= b),
    ).toEqual([a, b]);
    await realm(w, { move_messages_within_stream_limit_seconds: 604800 });
  });

  it('PATCH /messages rule 8: with protected history, counts and moves cover only messages the mover received', async () => {
    const { c, id, server } = w;
    expect(
      (
        await c.hamlet.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'strongroom' }],
          invite_only: true,
          history_public_to_subscribers: false,
        })
      ).status,
    ).toBe(200);
    const room = await streamId(w, 'strongroom');
    const h1 = await send(c.hamlet, room, 'plans');
    const h2 = await send(c.hamlet, room, 'plans');
    expect(
      (
        await c.hamlet.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'strongroom' }],
          principals: [id.othello],
        })
      ).status,
    ).toBe(200);
    const o1 = await send(c.othello, room, 'plans');
    const h3 = await send(c.hamlet, room, 'plans');
    await realm(w, { move_messages_within_stream_limit_seconds: 3600 });
    await age(server, o1, 7200);
    const limited = await c.othello.patch(`/messages/${h3}`, {
      topic: 'plans moved',
      propagate_mode: 'change_all',
    });
    expectCodedError(limited, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 400);
    expect(limited.body).toMatchObject({
      first_message_id_allowed_to_move: h3,
      total_messages_in_topic: 2,
      total_messages_allowed_to_move: 1,
    });
    await realm(w, { move_messages_within_stream_limit_seconds: 'null' });
    const partial = await c.othello.patch(`/messages/${h3}`, {
      topic: 'plans moved',
      propagate_mode: 'change_all',
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(await topicIds(c.hamlet, room, 'plans')).toEqual([h1, h2]);
    expect((await topicIds(c.hamlet, room, 'plans moved')).filter((x) => x <= h3)).toEqual([
      o1,
      h3,
    ]);
    await realm(w, { move_messages_within_stream_limit_seconds: 604800 });
  });

  it('PATCH /settings: every parameter of the spec is accepted with its type and read back', async () => {
    const { c } = w;
    const options = {
      fetch_event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    };
    const before = (await c.cordelia.post('/register', options)).body.user_settings;
    const booleans = [
      'twenty_four_hour_time',
      'dense_mode',
      'starred_message_counts',
      'fluid_layout_width',
      'high_contrast_mode',
      'enable_drafts_synchronization',
      'translate_emoticons',
      'display_emoji_reaction_users',
      'web_escape_navigates_to_home_view',
      'left_side_userlist',
      'enable_stream_desktop_notifications',
      'enable_stream_email_notifications',
      'enable_stream_push_notifications',
      'enable_stream_audible_notifications',
      'enable_desktop_notifications',
      'enable_sounds',
      'enable_offline_email_notifications',
      'enable_offline_push_notifications',
      'enable_online_push_notifications',
      'enable_followed_topic_desktop_notifications',
      'enable_followed_topic_email_notifications',
      'enable_followed_topic_push_notifications',
      'enable_followed_topic_audible_notifications',
      'enable_digest_emails',
      'enable_marketing_emails',
      'enable_login_emails',
      'message_content_in_email_notifications',
      'pm_content_in_desktop_notifications',
      'wildcard_mentions_notify',
      'enable_followed_topic_wildcard_mentions_notify',
    ];
    const enums = [
      'color_scheme',
      'demote_inactive_streams',
      'user_list_style',
      'web_stream_unreads_count_display_policy',
      'desktop_icon_count_display',
    ];
    const wanted: Record<string, unknown> = {};
    for (const k of booleans) {
      expect(typeof before[k], k).toBe('boolean');
      wanted[k] = !before[k];
    }
    for (const k of enums) wanted[k] = before[k] === 3 ? 1 : 3;
    const sound = before.available_notification_sounds.find(
      (s: string) => s !== before.notification_sound,
    );
    Object.assign(wanted, {
      default_language: before.default_language === 'fr' ? 'de' : 'fr',
      web_home_view: before.web_home_view === 'recent_topics' ? 'all_messages' : 'recent_topics',
      emojiset: before.emojiset === 'twitter' ? 'text' : 'twitter',
      timezone: 'America/New_York',
      notification_sound: sound,
      email_notifications_batching_period_seconds:
        before.email_notifications_batching_period_seconds + 60,
    });
    const r = await c.cordelia.patch(
      '/settings',
      Object.fromEntries(Object.entries(wanted).map(([k, v]) => [k, String(v)])),
    );
    expect(r.body).toMatchObject({ result: 'success', msg: '' });
    expect(r.body.ignored_parameters_unsupported).toBeUndefined();
    expect((await c.cordelia.post('/register', options)).body.user_settings).toMatchObject(wanted);
    for (const k of enums) {
      for (const bad of ['0', '4', 'x'])
        expectCodedError(await c.cordelia.patch('/settings', { [k]: bad }), 'BAD_REQUEST', 400);
    }
    for (const home of ['recent_topics', 'inbox', 'all_messages'])
      expect((await c.cordelia.patch('/settings', { web_home_view: home })).status).toBe(200);
    for (const set of ['google', 'google-blob', 'twitter', 'text'])
      expect((await c.cordelia.patch('/settings', { emojiset: set })).status).toBe(200);
    expectCodedError(
      await c.cordelia.patch('/settings', { notification_sound: 'klaxon' }),
      'BAD_REQUEST',
      400,
    );
    expectCodedError(
      await c.cordelia.patch('/settings', { email_notifications_batching_period_seconds: 'soon' }),
      'BAD_REQUEST',
      400,
    );
  });

  it('PATCH /settings full_name renames the user for everyone', async () => {
    const { c, id } = w;
    const q = (await c.othello.post('/register', { event_types: ['realm_user'] })).body.queue_id;
    expect((await c.shiva.patch('/settings', { full_name: 'Shiva the Moderator' })).status).toBe(
      200,
    );
    expect((await c.shiva.get('/users/me')).body.full_name).toBe('Shiva the Moderator');
    expect(await drain(c.othello, q)).toEqual([
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id.shiva, full_name: 'Shiva the Moderator' },
      }),
    ]);
    expectCodedError(
      await c.shiva.patch('/settings', { full_name: 'x'.repeat(101) }),
      'BAD_REQUEST',
      400,
    );
    expect((await c.shiva.patch('/settings', { full_name: w.name.shiva })).status).toBe(200);
  });

  it('POST /typing: stream typing reaches only clients with stream_typing_notifications; starts may repeat before a stop', async () => {
    const { c, id } = w;
    const general = w.stream('general');
    const capable = (
      await c.othello.post('/register', {
        event_types: ['typing'],
        client_capabilities: { stream_typing_notifications: true },
      })
    ).body.queue_id;
    const plain = (await c.othello.post('/register', { event_types: ['typing'] })).body.queue_id;
    expect(
      (
        await c.hamlet.post('/typing', {
          op: 'start',
          type: 'stream',
          stream_id: general,
          topic: 'typing here',
          to: [id.othello],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await c.hamlet.post('/typing', {
          op: 'start',
          to: [id.othello],
          stream_id: 99999,
          topic: 'ignored',
        })
      ).status,
    ).toBe(200);
    expect((await c.hamlet.post('/typing', { op: 'start', to: [id.othello] })).status).toBe(200);
    expect((await c.hamlet.post('/typing', { op: 'stop', to: [id.othello] })).status).toBe(200);
    const seen = (await drain(c.othello, capable)).map((e) => `${e.message_type}:${e.op}`);
    expect(seen).toEqual(['stream:start', 'direct:start', 'direct:start', 'direct:stop']);
    expect((await drain(c.othello, plain)).map((e) => `${e.message_type}:${e.op}`)).toEqual([
      'direct:start',
      'direct:start',
      'direct:stop',
    ]);
    const streamEvent = await (async () => {
      const q = (
        await c.othello.post('/register', {
          event_types: ['typing'],
          client_capabilities: { stream_typing_notifications: true },
        })
      ).body.queue_id;
      await c.hamlet.post('/typing', {
        op: 'stop',
        type: 'stream',
        stream_id: general,
        topic: 'typing here',
      });
      return (await drain(c.othello, q))[0];
    })();
    expect(streamEvent).toMatchObject({
      type: 'typing',
      op: 'stop',
      message_type: 'stream',
      stream_id: general,
      topic: 'typing here',
      sender: { user_id: id.hamlet },
    });
    expect(streamEvent.recipients).toBeUndefined();
    expectCodedError(
      await c.hamlet.post('/typing', { op: 'start', type: 'stream', topic: 'x' }),
      'REQUEST_VARIABLE_MISSING',
      400,
    );
    expectCodedError(
      await c.hamlet.post('/typing', { op: 'start', type: 'stream', stream_id: general }),
      'REQUEST_VARIABLE_MISSING',
      400,
    );
    expectCodedError(
      await c.hamlet.post('/typing', { op: 'pause', to: [id.othello] }),
      'BAD_REQUEST',
      400,
    );
  });

  it('DELETE /users/me/subscriptions: a deactivated or unknown principal is BAD_REQUEST (feature level 208)', async () => {
    const { c, server } = w;
    const realmRow = await server.ctx.db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
    const gone = await createUser(server.ctx, realmRow, {
      email: 'bernardo@example.com',
      fullName: 'Bernardo',
      password: 'who-is-there',
    });
    expect((await c.iago.delete(`/users/${gone.id}`)).status).toBe(200);
    for (const principals of [
      [gone.id],
      ['bernardo@example.com'],
      [999999],
      ['nobody@example.com'],
    ]) {
      const r = await c.iago.delete('/users/me/subscriptions', {
        subscriptions: ['general'],
        principals,
      });
      expectCodedError(r, 'BAD_REQUEST', 400);
    }
  });

  it('limits: content edits and deletions follow their time limits, null meaning none; administrators delete regardless', async () => {
    const { c, server } = w;
    const engineering = w.stream('engineering');
    await realm(w, {
      message_content_delete_limit_seconds: 3600,
      message_content_edit_limit_seconds: 3600,
    });
    const old = await send(c.hamlet, engineering, 'time limits');
    const fresh = await send(c.hamlet, engineering, 'time limits');
    const older = await send(c.hamlet, engineering, 'time limits');
    await age(server, old, 7200);
    await age(server, older, 7200);
    expectCodedError(
      await c.hamlet.patch(`/messages/${old}`, { content: 'too late' }),
      'BAD_REQUEST',
      400,
    );
    expectCodedError(await c.hamlet.delete(`/messages/${old}`), 'BAD_REQUEST', 400);
    expect((await c.hamlet.delete(`/messages/${fresh}`)).status).toBe(200);
    expect((await c.iago.delete(`/messages/${old}`)).status).toBe(200);
    await realm(w, {
      message_content_delete_limit_seconds: 'null',
      message_content_edit_limit_seconds: 'null',
    });
    expect((await c.hamlet.patch(`/messages/${older}`, { content: 'no limit now' })).status).toBe(
      200,
    );
    expect((await c.hamlet.delete(`/messages/${older}`)).status).toBe(200);
    await realm(w, { message_content_edit_limit_seconds: 600 });
  });

  it('limits: queues are discarded after 10 minutes without a fetch, and heartbeats come within a minute', () => {
    const defaults = configFromEnv({});
    expect(defaults.queueIdleSeconds).toBe(600);
    expect(defaults.longPollSeconds).toBeGreaterThan(0);
    expect(defaults.longPollSeconds).toBeLessThanOrEqual(60);
    // The running server uses them: a queue idle for 600 s is gone, one idle for 599 s is not.
    const queues = localQueues(w.server.ctx);
    const make = () =>
      queues.createQueue({
        userId: w.id.hamlet,
        realmId: 1,
        eventTypes: null,
        narrow: [],
        applyMarkdown: false,
        clientGravatar: true,
        allPublicStreams: false,
        capabilities: {
          notification_settings_null: false,
          bulk_message_deletion: false,
          user_avatar_url_field_optional: false,
          stream_typing_notifications: false,
          user_settings_object: false,
          linkifier_url_template: false,
          empty_topic_name: false,
        },
      });
    const kept = make();
    const dropped = make();
    dropped.lastAccess = Date.now() - 601_000;
    kept.lastAccess = Date.now() - 590_000;
    queues.collectGarbage();
    expect(queues.get(dropped.id, w.id.hamlet)).toBeUndefined();
    expect(queues.get(kept.id, w.id.hamlet)).toBe(kept);
    queues.delete(kept);
  });

  it('events: guests get peer_add and peer_remove for web-public streams and public streams they are in (level 220)', async () => {
    const { c, id } = w;
    const [general, engineering, welcome] = ['general', 'engineering', 'welcome'].map((n) =>
      w.stream(n),
    );
    expect(
      (await c.polonius.delete('/users/me/subscriptions', { subscriptions: ['welcome'] })).status,
    ).toBe(200);
    expect(
      (
        await c.cordelia.delete('/users/me/subscriptions', {
          subscriptions: ['general', 'engineering', 'welcome'],
        })
      ).status,
    ).toBe(200);
    const guest = (await c.polonius.post('/register', { event_types: ['subscription'] })).body
      .queue_id;
    const member = (await c.othello.post('/register', { event_types: ['subscription'] })).body
      .queue_id;
    const streamsOf = (events: any[], op: string) =>
      events
        .filter((e) => e.op === op && e.user_ids.includes(id.cordelia))
        .flatMap((e) => e.stream_ids)
        .sort((a: number, b: number) => a - b);
    expect(
      (
        await c.cordelia.post('/users/me/subscriptions', {
          subscriptions: [{ name: 'general' }, { name: 'engineering' }, { name: 'welcome' }],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await c.cordelia.delete('/users/me/subscriptions', {
          subscriptions: ['general', 'engineering', 'welcome'],
        })
      ).status,
    ).toBe(200);
    const guestEvents = await drain(c.polonius, guest);
    const memberEvents = await drain(c.othello, member);
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    expect(streamsOf(guestEvents, 'peer_add')).toEqual(sorted([general, welcome]));
    expect(streamsOf(guestEvents, 'peer_remove')).toEqual(sorted([general, welcome]));
    expect(streamsOf(memberEvents, 'peer_add')).toEqual(sorted([general, engineering, welcome]));
    expect(streamsOf(memberEvents, 'peer_remove')).toEqual(sorted([general, engineering, welcome]));
  });
});

describe.each(DATABASES)('api-spec.md limit on the unread summary on %s', (db) => {
  let server: TestServer;
  let othello: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ db });
    othello = await TestClient.login(server.url, 'othello@example.com', DEMO_PASSWORD);
  });
  afterAll(() => server?.close());

  it('the unread summary considers the newest 50000 unread messages (MAX_UNREAD_MESSAGES) and says older ones are missing', async () => {
    expect(MAX_UNREAD_MESSAGES).toBe(50000);
    expect((await othello.post('/mark_all_as_read')).status).toBe(200);
    const users = await server.ctx.db
      .selectFrom('users')
      .select(['id', 'email', 'realm_id'])
      .execute();
    const me = users.find((u) => u.email === 'othello@example.com')!;
    const sender = users.find((u) => u.email === 'hamlet@example.com')!;
    const general = (await othello.get('/get_stream_id', { stream: 'general' })).body.stream_id;
    const inserted: number[] = [];
    const total = MAX_UNREAD_MESSAGES + 2;
    const when = now();
    for (let i = 0; i < total; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - i) }, (_, k) => ({
        realm_id: me.realm_id,
        sender_id: sender.id,
        type: 'stream',
        stream_id: general,
        topic: 'flood',
        topic_key: 'flood',
        dm_key: null,
        content: `flood ${i + k}`,
        rendered_content: `<p>flood ${i + k}</p>`,
        date_sent: when,
        last_edit_time: null,
        sending_client: 'test',
      }));
      const ids = (
        await server.ctx.db.insertInto('messages').values(rows).returning('id').execute()
      ).map((r) => r.id);
      await server.ctx.db
        .insertInto('user_messages')
        .values(ids.map((id) => ({ user_id: me.id, message_id: id, flags: 0 })))
        .execute();
      inserted.push(...ids);
    }
    inserted.sort((a, b) => a - b);
    const unread = (
      await othello.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    expect(unread.old_unreads_missing).toBe(true);
    const [entry] = unread.streams;
    expect(unread.streams).toHaveLength(1);
    expect(entry.unread_message_ids).toHaveLength(MAX_UNREAD_MESSAGES);
    expect(entry.unread_message_ids[0]).toBe(inserted[2]);
    expect(entry.unread_message_ids.at(-1)).toBe(inserted.at(-1));
    expect(unread.count).toBe(MAX_UNREAD_MESSAGES);
    // Reading two brings the summary back under the cap.
    expect(
      (
        await othello.post('/messages/flags', {
          messages: inserted.slice(-2),
          op: 'add',
          flag: 'read',
        })
      ).body.messages,
    ).toHaveLength(2);
    const after = (
      await othello.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    expect(after.old_unreads_missing).toBe(false);
    expect(after.count).toBe(MAX_UNREAD_MESSAGES);
  });
});
