import { describe, expect, it } from 'vitest';
import {
  drain,
  expectCodedErrorMatchesSpec,
  expectError,
  expectEventsMatchSpec,
  expectResponseMatchesSpec,
} from './people.js';
import { databases, useServer, type DemoName } from './fixtures.js';

describe.each(databases('both'))('presence on %s', (db) => {
  const t = useServer({ db });
  const report = (who: DemoName, params: Record<string, unknown> = {}) =>
    t.as[who].post('/users/me/presence', { status: 'active', ...params });

  it('records a report, answers with everyone’s presence, and tells others the user came online', async () => {
    const { id } = t;
    const q = await t.queues(['presence']);
    const r = await report('hamlet', { new_user_input: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expectResponseMatchesSpec('POST', '/users/me/presence', r);
    expect(r.body.presence_last_update_id).toBeGreaterThan(0);
    expect(typeof r.body.server_timestamp).toBe('number');
    const mine = r.body.presences['hamlet@example.com'];
    expect(mine).toEqual({
      website: {
        client: 'website',
        status: 'active',
        timestamp: expect.any(Number),
        pushable: false,
      },
      aggregated: { client: 'website', status: 'active', timestamp: mine.website.timestamp },
    });
    const events = await q.events('othello');
    expect(events).toEqual([
      {
        type: 'presence',
        user_id: id.hamlet,
        email: 'hamlet@example.com',
        server_timestamp: expect.any(Number),
        presence: {
          website: {
            client: 'website',
            status: 'active',
            timestamp: mine.website.timestamp,
            pushable: false,
          },
        },
        id: 0,
      },
    ]);
    expectEventsMatchSpec(events);
    // An immediate second report changes nothing and announces nothing.
    const again = await report('hamlet');
    expect(again.body.presence_last_update_id).toBe(r.body.presence_last_update_id);
    expect(await q.events('othello')).toHaveLength(1);
  });

  it('speaks the modern format when asked, and only sends what changed since last_update_id', async () => {
    const { id } = t;
    const slim = await report('cordelia', { status: 'idle', slim_presence: true });
    expectResponseMatchesSpec('POST', '/users/me/presence', slim);
    expect(slim.body.presences[String(id.cordelia)]).toEqual({
      active_timestamp: 0,
      idle_timestamp: expect.any(Number),
    });
    expect(slim.body.presences[String(id.hamlet)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    const last = slim.body.presence_last_update_id;
    const none = await report('iago', { ping_only: true });
    expect(none.body).toEqual({ result: 'success', msg: '' });
    const since = await report('cordelia', { status: 'idle', last_update_id: last });
    expect(Object.keys(since.body.presences)).toEqual([String(id.iago)]);
    expect(since.body.presence_last_update_id).toBeGreaterThan(last);
    const legacy = await report('cordelia', { status: 'idle' });
    expect(legacy.body.presences['cordelia@example.com'].aggregated.status).toBe('idle');
  });

  it('is in the register snapshot, keyed by id with slim_presence and by email without', async () => {
    const { as: c, id } = t;
    const slim = (
      await c.othello.post('/register', { fetch_event_types: ['presence'], slim_presence: true })
    ).body;
    expect(Object.keys(slim.presences).sort()).toEqual(
      [id.hamlet, id.cordelia, id.iago].map(String).sort(),
    );
    expect(slim.presence_last_update_id).toBeGreaterThan(0);
    expect(typeof slim.server_timestamp).toBe('number');
    const legacy = (await c.othello.post('/register', { fetch_event_types: ['presence'] })).body;
    expect(Object.keys(legacy.presences).sort()).toEqual([
      'cordelia@example.com',
      'hamlet@example.com',
      'iago@example.com',
    ]);
  });

  it('GET /users/{id or email}/presence and GET /realm/presence', async () => {
    const { as: c, id } = t;
    const byEmail = await c.othello.get('/users/hamlet@example.com/presence');
    expectResponseMatchesSpec('GET', '/users/{user_id_or_email}/presence', byEmail);
    expect(byEmail.body.presence).toEqual({
      website: { status: 'active', timestamp: expect.any(Number) },
      aggregated: { status: 'active', timestamp: expect.any(Number) },
    });
    expect((await c.othello.get(`/users/${id.hamlet}/presence`)).body.presence).toEqual(
      byEmail.body.presence,
    );
    expectError(
      await c.othello.get('/users/hamlet-bot@parley.bots/presence'),
      'BAD_REQUEST',
      'Presence is not supported for bot users.',
    );
    expectError(
      await c.othello.get('/users/nobody@example.com/presence'),
      'BAD_REQUEST',
      'No such user',
    );
    expectError(await c.othello.get('/users/99999999999/presence'), 'BAD_REQUEST', 'No such user');
    expectError(
      await c.othello.get('/users/polonius@example.com/presence'),
      'BAD_REQUEST',
      'No presence data for polonius@example.com',
    );
    const realm = await c.polonius.get('/realm/presence');
    expectResponseMatchesSpec('GET', '/realm/presence', realm);
    expect(Object.keys(realm.body.presences).sort()).toEqual([
      'cordelia@example.com',
      'hamlet@example.com',
      'iago@example.com',
    ]);
  });

  it('announces a user coming back after being offline, and a user becoming active', async () => {
    const { id } = t;
    const q = await t.queues(['presence']);
    const longAgo = Math.floor(Date.now() / 1000) - 600;
    await t.server.ctx.db
      .updateTable('presences')
      .set({ last_connected_time: longAgo, last_active_time: longAgo })
      .where('user_id', '=', id.hamlet)
      .execute();
    await report('hamlet', { status: 'idle' });
    await report('cordelia', { status: 'active' });
    const events = await q.events('shiva');
    expect(events.map((e) => [e.user_id, e.presence.website.status])).toEqual([
      [id.hamlet, 'idle'],
      [id.cordelia, 'active'],
    ]);
  });

  it('validates the status', async () => {
    expectError(await report('hamlet', { status: 'away' }), 'BAD_REQUEST', 'Invalid status');
    const missing = await t.as.hamlet.post('/users/me/presence', {});
    expectError(missing, 'REQUEST_VARIABLE_MISSING');
    expect(missing.body.var_name).toBe('status');
    expectError(
      await report('hamlet', { ping_only: 'maybe' }),
      'BAD_REQUEST',
      'ping_only is not a boolean',
    );
    // Bounds far beyond any stored value are answered, not failed on.
    expect((await report('hamlet', { last_update_id: 2 ** 53 - 1 })).body.presences).toEqual({});
    expect((await report('hamlet', { history_limit_days: 2 ** 53 - 1 })).status).toBe(200);
  });

  it('shares nothing for users who turned presence off, nor when the organization disabled it', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['presence']);
    const heardOf = async (who: number) =>
      (await q.events('cordelia')).filter((e) => e.user_id === who);
    expect((await c.shiva.patch('/settings', { presence_enabled: 'false' })).status).toBe(200);
    await report('shiva');
    expect(await heardOf(id.shiva)).toEqual([]);
    expect((await report('hamlet')).body.presences['shiva@example.com']).toBeUndefined();
    expectError(
      await c.hamlet.get('/users/shiva@example.com/presence'),
      'BAD_REQUEST',
      'No presence data for shiva@example.com',
    );

    expect((await c.iago.patch('/realm', { presence_disabled: 'true' })).status).toBe(200);
    await report('desdemona');
    expect(await heardOf(id.desdemona)).toEqual([]);
    const r = await report('hamlet');
    expect(r.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    expect(
      (await c.hamlet.post('/register', { fetch_event_types: ['presence'] })).body.presences,
    ).toEqual({});
    expect((await c.iago.patch('/realm', { presence_disabled: 'false' })).status).toBe(200);
    expect((await report('hamlet')).body.presences['desdemona@example.com']).toBeDefined();
  });
});

describe.each(databases('both'))('muting users and alert words on %s', (db) => {
  const t = useServer({ db });

  it('muting marks everything the muted user sent as read, now and later', async () => {
    const { as: c, id } = t;
    const dm = (
      await c.othello.post('/messages', { type: 'direct', to: [id.hamlet], content: 'Hear me out' })
    ).body.id;
    const said = (
      await c.othello.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'noise',
        content: 'Listen!',
      })
    ).body.id;
    const before = (
      await c.hamlet.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    expect(
      before.pms.find((p: any) => p.other_user_id === id.othello).unread_message_ids,
    ).toContain(dm);
    const queue = (
      await c.hamlet.post('/register', {
        event_types: ['muted_users', 'update_message_flags', 'message'],
      })
    ).body.queue_id;

    const r = await c.hamlet.post(`/users/me/muted_users/${id.othello}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('POST', '/users/me/muted_users/{muted_user_id}', r);
    const events = await drain(c.hamlet, queue);
    const flags = events.find((e) => e.type === 'update_message_flags');
    expect(flags).toMatchObject({ op: 'add', flag: 'read' });
    expect(flags.messages).toEqual(expect.arrayContaining([dm, said]));
    expect(events.at(-1)).toEqual({
      type: 'muted_users',
      muted_users: [{ id: id.othello, timestamp: expect.any(Number) }],
      id: events.at(-1).id,
    });
    expectEventsMatchSpec(events);

    const after = (
      await c.hamlet.post('/register', {
        fetch_event_types: ['message', 'update_message_flags', 'muted_users'],
      })
    ).body;
    expect(after.unread_msgs.pms.find((p: any) => p.other_user_id === id.othello)).toBeUndefined();
    expect(after.muted_users).toEqual([{ id: id.othello, timestamp: expect.any(Number) }]);
    await c.othello.post('/messages', { type: 'direct', to: [id.hamlet], content: 'Still there?' });
    const arrived = (await drain(c.hamlet, queue)).find((e) => e.type === 'message');
    expect(arrived.flags).toContain('read');
  });

  it('refuses muting oneself, unknown users and users already muted; bots may be muted', async () => {
    const { as: c, id } = t;
    expectError(
      await c.hamlet.post(`/users/me/muted_users/${id.hamlet}`),
      'BAD_REQUEST',
      'Cannot mute self',
    );
    expectError(await c.hamlet.post('/users/me/muted_users/99999'), 'BAD_REQUEST', 'No such user');
    expectError(
      await c.hamlet.post('/users/me/muted_users/99999999999'),
      'BAD_REQUEST',
      'No such user',
    );
    const again = await c.hamlet.post(`/users/me/muted_users/${id.othello}`);
    expectError(again, 'BAD_REQUEST', 'User already muted');
    expectCodedErrorMatchesSpec(again.body);
    expect((await c.cordelia.post(`/users/me/muted_users/${id.bot}`)).status).toBe(200);
  });

  it('unmutes, and refuses to unmute who is not muted', async () => {
    const { as: c, id } = t;
    const queue = (await c.hamlet.post('/register', { event_types: ['muted_users'] })).body
      .queue_id;
    const r = await c.hamlet.delete(`/users/me/muted_users/${id.othello}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expectResponseMatchesSpec('DELETE', '/users/me/muted_users/{muted_user_id}', r);
    expect(await drain(c.hamlet, queue)).toEqual([{ type: 'muted_users', muted_users: [], id: 0 }]);
    const not = await c.hamlet.delete(`/users/me/muted_users/${id.othello}`);
    expectError(not, 'BAD_REQUEST', 'User is not muted');
    expectCodedErrorMatchesSpec(not.body);
    expectError(
      await c.hamlet.delete('/users/me/muted_users/99999'),
      'BAD_REQUEST',
      'No such user',
    );
    const sent = (
      await c.othello.post('/messages', {
        type: 'direct',
        to: [id.hamlet],
        content: 'Friends again',
      })
    ).body.id;
    const unread = (
      await c.hamlet.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })
    ).body.unread_msgs;
    expect(
      unread.pms.find((p: any) => p.other_user_id === id.othello).unread_message_ids,
    ).toContain(sent);
  });

  it('adds and removes alert words case-insensitively, announcing the whole list', async () => {
    const { as: c } = t;
    const empty = await c.hamlet.get('/users/me/alert_words');
    expect(empty.body).toEqual({ result: 'success', msg: '', alert_words: [] });
    expectResponseMatchesSpec('GET', '/users/me/alert_words', empty);
    const queue = (await c.hamlet.post('/register', { event_types: ['alert_words'] })).body
      .queue_id;
    const added = await c.hamlet.post('/users/me/alert_words', {
      alert_words: ['elsinore', ' ghost ', '', 'Elsinore', 'to be'],
    });
    expect(added.body).toEqual({
      result: 'success',
      msg: '',
      alert_words: ['Elsinore', 'ghost', 'to be'],
    });
    expectResponseMatchesSpec('POST', '/users/me/alert_words', added);
    expect(
      (await c.hamlet.post('/users/me/alert_words', { alert_words: ['GHOST'] })).body.alert_words,
    ).toEqual(['Elsinore', 'ghost', 'to be']);
    const removed = await c.hamlet.delete('/users/me/alert_words', {
      alert_words: ['ELSINORE', 'never added'],
    });
    expect(removed.body.alert_words).toEqual(['ghost', 'to be']);
    expectResponseMatchesSpec('DELETE', '/users/me/alert_words', removed);
    const events = await drain(c.hamlet, queue);
    expect(events.map((e) => e.alert_words)).toEqual([
      ['Elsinore', 'ghost', 'to be'],
      ['Elsinore', 'ghost', 'to be'],
      ['ghost', 'to be'],
    ]);
    expectEventsMatchSpec(events);
    expect(
      (await c.hamlet.post('/register', { fetch_event_types: ['alert_words'] })).body.alert_words,
    ).toEqual(['ghost', 'to be']);

    const id = (
      await c.othello.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: 'ramparts',
        content: 'I saw a GHOST',
      })
    ).body.id;
    const found = await c.hamlet.get('/messages', {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'alerted' }],
    });
    expect(found.body.messages.map((m: any) => m.id)).toEqual([id]);
  });

  it('validates alert word lists', async () => {
    const { as: c } = t;
    const missing = await c.hamlet.post('/users/me/alert_words', {});
    expectError(missing, 'REQUEST_VARIABLE_MISSING');
    expect(missing.body.var_name).toBe('alert_words');
    expectError(
      await c.hamlet.post('/users/me/alert_words', { alert_words: 'ghost' }),
      'BAD_REQUEST',
      'Argument "alert_words" is not valid JSON.',
    );
    expectError(
      await c.hamlet.post('/users/me/alert_words', { alert_words: [1] }),
      'BAD_REQUEST',
      'alert_words[0] is not a string',
    );
    const long = await c.hamlet.post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] });
    expectError(long, 'BAD_REQUEST', 'alert_words[0] is too long (limit: 100 characters)');
    expectResponseMatchesSpec('POST', '/users/me/alert_words', long);
    expectError(
      await c.hamlet.delete('/users/me/alert_words', { alert_words: '["a",' }),
      'BAD_REQUEST',
      'Argument "alert_words" is not valid JSON.',
    );
  });
});
