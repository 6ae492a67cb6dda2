import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './harness.js';
import { TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';

/** Subscriptions (with principals and the rules for removing others), GET /streams and the user endpoints. */

type Who = 'desdemona' | 'iago' | 'hamlet' | 'othello' | 'cordelia' | 'polonius';
const WHO: Who[] = ['desdemona', 'iago', 'hamlet', 'othello', 'cordelia', 'polonius'];

describe.each(databases('both'))('subscriptions, streams and users on %s', (db) => {
  const w = useServer({ db });
  const c = {} as Record<Who, TestClient>;
  const id = {} as Record<Who | 'bot', number>;
  let bot: TestClient;
  let groups: Record<string, number>;

  const names = (streams: any[]) => streams.map((s) => s.name).sort();
  const streams = async (who: TestClient, params: Record<string, unknown> = {}) => {
    const r = await who.get('/streams', params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return names(r.body.streams);
  };
  const subscribed = async (who: TestClient) =>
    names((await who.get('/users/me/subscriptions')).body.subscriptions);
  const create = async (name: string, extra: Record<string, unknown> = {}, who = c.hamlet) => {
    const r = await who.post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    for (const who of WHO) {
      c[who] = await TestClient.login(w.server.url, `${who}@example.com`, DEMO_PASSWORD);
      id[who] = (await c[who].get('/users/me')).body.user_id;
    }
    const reg = (
      await c.hamlet.post('/register', { fetch_event_types: ['realm_bot', 'realm_user_groups'] })
    ).body;
    const mine = reg.realm_bots[0];
    id.bot = mine.user_id;
    bot = new TestClient(w.server.url, mine.email, mine.api_key);
    groups = Object.fromEntries(reg.realm_user_groups.map((g: any) => [g.name, g.id]));
  });

  describe('subscribing', () => {
    it('creates a stream and subscribes others by id and by email, reporting who was new', async () => {
      const r = await create('harbour', { principals: [id.hamlet, id.othello] });
      expect(r).toMatchObject({
        subscribed: { 'hamlet@example.com': ['harbour'], 'othello@example.com': ['harbour'] },
        already_subscribed: {},
      });
      const again = await create('Harbour', {
        principals: ['othello@example.com', 'cordelia@example.com'],
      });
      expect(again).toMatchObject({
        subscribed: { 'cordelia@example.com': ['harbour'] },
        already_subscribed: { 'othello@example.com': ['harbour'] },
      });
      const listed = (
        await c.cordelia.get('/users/me/subscriptions', { include_subscribers: true })
      ).body.subscriptions;
      const harbour = listed.find((s: any) => s.name === 'harbour');
      expect(harbour).toMatchObject({
        invite_only: false,
        is_muted: false,
        in_home_view: true,
        pin_to_top: false,
      });
      expect(harbour.subscribers).toEqual(
        [id.hamlet, id.othello, id.cordelia].sort((x, y) => x - y),
      );
      expect(harbour.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(
        (await c.cordelia.get('/users/me/subscriptions')).body.subscriptions[0].subscribers,
      ).toBeUndefined();
    });

    it('refuses unknown principals and private streams one was not invited to', async () => {
      const ghost = await c.hamlet.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'harbour' }],
        principals: [999999],
      });
      expect(ghost).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
      const emailGhost = await c.hamlet.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'harbour' }],
        principals: ['ghost@example.com'],
      });
      expect(emailGhost.body.code).toBe('BAD_REQUEST');
      const uninvited = await c.othello.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
      });
      expect(uninvited.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
      const soft = await c.othello.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        authorization_errors_fatal: false,
      });
      expect(soft.body).toMatchObject({
        result: 'success',
        unauthorized: ['design'],
        subscribed: {},
      });
      expect(await subscribed(c.othello)).not.toContain('design');
    });
  });

  describe('unsubscribing', () => {
    it('lists removed and not removed streams, and names an unknown one', async () => {
      await create('quay', { principals: [id.hamlet] });
      const r = await c.hamlet.delete('/users/me/subscriptions', {
        subscriptions: ['quay', 'engineering'],
      });
      expect(r.body).toMatchObject({
        result: 'success',
        removed: ['quay', 'engineering'],
        not_removed: [],
      });
      const again = await c.hamlet.delete('/users/me/subscriptions', { subscriptions: ['quay'] });
      expect(again.body).toMatchObject({ removed: [], not_removed: ['quay'] });
      const unknown = await c.hamlet.delete('/users/me/subscriptions', {
        subscriptions: ['atlantis'],
      });
      expect(unknown).toMatchObject({
        status: 400,
        body: { code: 'STREAM_DOES_NOT_EXIST', stream: 'atlantis' },
      });
      // Leaving a private channel one is not in is no error either (upstream answers the same).
      const outside = await c.othello.delete('/users/me/subscriptions', {
        subscriptions: ['design'],
      });
      expect(outside.body).toMatchObject({
        result: 'success',
        removed: [],
        not_removed: ['design'],
      });
      expect(await subscribed(c.hamlet)).not.toContain('quay');
    });

    it('lets administrators remove anyone from any stream', async () => {
      await create('pier', { principals: [id.othello, id.cordelia] });
      const r = await c.iago.delete('/users/me/subscriptions', {
        subscriptions: ['pier'],
        principals: ['othello@example.com', 'cordelia@example.com'],
      });
      expect(r.body).toMatchObject({ removed: ['pier'], not_removed: [] });
      expect(await subscribed(c.othello)).not.toContain('pier');
      const design = await c.iago.delete('/users/me/subscriptions', {
        subscriptions: ['design'],
        principals: [id.cordelia],
      });
      expect(design.body.removed).toEqual(['design']);
      await c.iago.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'design' }],
        principals: [id.cordelia],
      });
    });

    it("lets a user remove their own bot, but nobody else's", async () => {
      await create('dock', { principals: [id.hamlet, id.othello, id.bot] });
      const stranger = await c.othello.delete('/users/me/subscriptions', {
        subscriptions: ['dock'],
        principals: [id.bot],
      });
      expect(stranger).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
      const owner = await c.hamlet.delete('/users/me/subscriptions', {
        subscriptions: ['dock'],
        principals: [id.bot],
      });
      expect(owner.body).toMatchObject({ result: 'success', removed: ['dock'] });
      const person = await c.hamlet.delete('/users/me/subscriptions', {
        subscriptions: ['dock'],
        principals: [id.othello],
      });
      expect(person.body.code).toBe('BAD_REQUEST');
    });

    it("lets members of the stream's can_remove_subscribers_group remove others, if they can access it", async () => {
      await create('jetty', {
        principals: [id.hamlet, id.othello, id.cordelia],
        can_remove_subscribers_group: groups['role:members'],
      });
      const member = await c.othello.delete('/users/me/subscriptions', {
        subscriptions: ['jetty'],
        principals: [id.cordelia],
      });
      expect(member.body).toMatchObject({ result: 'success', removed: ['jetty'] });
      await create('moat', {
        principals: [id.hamlet, id.cordelia],
        invite_only: true,
        can_remove_subscribers_group: groups['role:members'],
      });
      const outsider = await c.othello.delete('/users/me/subscriptions', {
        subscriptions: ['moat'],
        principals: [id.cordelia],
      });
      expect(outsider.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      await create('keep', { principals: [id.hamlet, id.cordelia] });
      const notInGroup = await c.othello.delete('/users/me/subscriptions', {
        subscriptions: ['keep'],
        principals: [id.cordelia],
      });
      expect(notInGroup).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
      expect(await subscribed(c.cordelia)).toEqual(expect.arrayContaining(['keep', 'moat']));
    });
  });

  describe('GET /streams', () => {
    it('lists public and subscribed streams by default', async () => {
      expect(await streams(c.othello)).toEqual(
        expect.arrayContaining(['general', 'engineering', 'announce', 'welcome', 'harbour']),
      );
      expect(await streams(c.othello)).not.toContain('design');
      expect(await streams(c.cordelia)).toContain('design');
      expect(await streams(c.othello)).not.toContain('moat');
    });

    it('honours each include_ flag', async () => {
      const onlySubscribed = await streams(c.othello, { include_public: false });
      expect(onlySubscribed).toEqual(await subscribed(c.othello));
      expect(
        await streams(c.othello, { include_subscribed: false, include_public: false }),
      ).toEqual([]);
      expect(
        await streams(c.othello, {
          include_subscribed: false,
          include_public: false,
          include_web_public: true,
        }),
      ).toEqual(['welcome']);
      expect(
        await streams(c.othello, {
          include_subscribed: false,
          include_public: false,
          include_default: true,
        }),
      ).toEqual(['general']);
      const defaults = (await c.othello.get('/streams', { include_default: true })).body.streams;
      expect(defaults.find((s: any) => s.name === 'general').is_default).toBe(true);
      expect(defaults.find((s: any) => s.name === 'engineering').is_default).toBe(false);
      const all = await streams(c.iago, { include_all_active: true });
      expect(all).toEqual(expect.arrayContaining(['design', 'moat', 'general']));
      const refused = await c.othello.get('/streams', { include_all_active: true });
      expect(refused).toMatchObject({
        status: 400,
        body: { result: 'error', code: 'BAD_REQUEST' },
      });
    });

    it('gives a bot the streams its owner is subscribed to on request', async () => {
      const own = await streams(bot, { include_public: false });
      expect(own).toEqual(await subscribed(bot));
      expect(own).not.toContain('design');
      const owner = await streams(bot, { include_public: false, include_owner_subscribed: true });
      expect(owner).toEqual([...new Set([...own, ...(await subscribed(c.hamlet))])].sort());
      expect(owner).toContain('design');
      expect(
        await streams(c.othello, { include_public: false, include_owner_subscribed: true }),
      ).toEqual(await subscribed(c.othello));
    });

    it('shows guests only their streams and web-public ones', async () => {
      expect(await streams(c.polonius)).toEqual(['general', 'welcome']);
      expect(
        await streams(c.polonius, {
          include_web_public: true,
          include_subscribed: false,
          include_public: false,
        }),
      ).toEqual(['welcome']);
      expect(
        await streams(c.polonius, { include_public: true, include_subscribed: false }),
      ).toEqual(['general', 'welcome']);
    });
  });

  describe('users', () => {
    it('describes oneself with every own-user field', async () => {
      const me = (await c.hamlet.get('/users/me')).body;
      expect(me).toMatchObject({
        result: 'success',
        user_id: id.hamlet,
        email: 'hamlet@example.com',
        delivery_email: 'hamlet@example.com',
        full_name: 'King Hamlet',
        is_admin: false,
        is_owner: false,
        is_billing_admin: false,
        is_guest: false,
        is_bot: false,
        is_active: true,
        role: 400,
        timezone: 'Europe/Copenhagen',
        profile_data: {},
      });
      expect(me.avatar_url).toMatch(/^http/);
      expect(Number.isInteger(me.avatar_version)).toBe(true);
      expect(Number.isNaN(Date.parse(me.date_joined))).toBe(false);
      expect(me.max_message_id).toBeGreaterThan(0);
      expect((await c.desdemona.get('/users/me')).body).toMatchObject({
        role: 100,
        is_owner: true,
        is_admin: true,
      });
      expect((await c.polonius.get('/users/me')).body).toMatchObject({ role: 600, is_guest: true });
      const own = (await bot.get('/users/me')).body;
      expect(own).toMatchObject({ is_bot: true, user_id: id.bot });
      expect(own.profile_data).toBeUndefined();
    });

    it("lists every user with roles and real emails as each person's email visibility allows", async () => {
      const members = (await c.othello.get('/users')).body.members as any[];
      const byEmail = new Map(members.map((m) => [m.email, m]));
      const roles = Object.fromEntries(WHO.map((w) => [w, byEmail.get(`${w}@example.com`).role]));
      expect(roles).toEqual({
        desdemona: 100,
        iago: 200,
        hamlet: 400,
        othello: 400,
        cordelia: 400,
        polonius: 600,
      });
      expect(byEmail.get('shiva@example.com')).toMatchObject({ role: 300, is_admin: false });
      // Everyone's address is visible to everyone by default (email_address_visibility 1).
      expect(byEmail.get('hamlet@example.com').delivery_email).toBe('hamlet@example.com');
      expect(byEmail.get('othello@example.com').delivery_email).toBe('othello@example.com');
      expect(members.find((m) => m.is_bot)).toMatchObject({
        user_id: id.bot,
        bot_owner_id: id.hamlet,
      });
      const admin = (await c.iago.get('/users')).body.members as any[];
      expect(admin.find((m) => m.email === 'hamlet@example.com').delivery_email).toBe(
        'hamlet@example.com',
      );
      const some = (await c.othello.get('/users', { user_ids: [id.hamlet, id.iago] })).body.members;
      expect(some.map((m: any) => m.user_id).sort()).toEqual([id.hamlet, id.iago].sort());
    });

    it('finds one user by id or by email, and refuses unknown ones', async () => {
      const byId = (await c.othello.get(`/users/${id.cordelia}`)).body;
      expect(byId.user).toMatchObject({
        user_id: id.cordelia,
        email: 'cordelia@example.com',
        role: 400,
        is_active: true,
      });
      const byEmail = (await c.othello.get('/users/cordelia@example.com')).body;
      expect(byEmail.user).toEqual(byId.user);
      for (const ref of ['999999', 'nobody@example.com', '0'])
        expect((await c.othello.get(`/users/${ref}`)).body, ref).toMatchObject({
          result: 'error',
          code: 'BAD_REQUEST',
        });
      const profile = (
        await c.othello.get(`/users/${id.cordelia}`, { include_custom_profile_fields: true })
      ).body.user;
      expect(profile.profile_data).toEqual({});
    });
  });
});
