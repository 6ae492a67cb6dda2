import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './harness.js';
import { drain, TestClient } from './client.js';
import { databases, useServer } from './fixtures.js';
import { queuedMails } from './mailbox.js';

describe.each(databases('both'))('PATCH /settings on %s', (db) => {
  const w = useServer({ db, people: ['cordelia'] });
  const { cordelia } = w.as;

  it("keeps the mobile apps' push tokens: registered, refused when malformed, removed once", async () => {
    const db = w.server.ctx.db;
    const tokens = () =>
      db.selectFrom('push_device_tokens').select(['kind', 'token', 'ios_app_id']).execute();
    const apns = '/users/me/apns_device_token';
    const fcm = '/users/me/android_gcm_reg_id';
    expect((await cordelia.post(apns, { token: 'ABCDEF0123' })).status).toBe(200);
    // Registering the same token again is no error and keeps one row.
    expect((await cordelia.post(apns, { token: 'ABCDEF0123' })).status).toBe(200);
    expect((await cordelia.post(fcm, { token: 'an-fcm-token' })).status).toBe(200);
    expect(await tokens()).toEqual(
      expect.arrayContaining([
        { kind: 1, token: 'ABCDEF0123', ios_app_id: 'org.zulip.Zulip' },
        { kind: 2, token: 'an-fcm-token', ios_app_id: null },
      ]),
    );
    expect(await tokens()).toHaveLength(2);
    const refused = async (r: Promise<{ status: number; body: any }>, msg: string) => {
      const { status, body } = await r;
      expect(status).toBe(400);
      expect(body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    };
    await refused(cordelia.post(apns, { token: 'not hex' }), 'Invalid APNS token');
    await refused(cordelia.post(fcm, { token: '' }), 'Empty or invalid length token');
    await refused(cordelia.post(fcm, { token: 'x'.repeat(4097) }), 'Empty or invalid length token');
    // A test notification to a registered phone is accepted (this server sends none: push is
    // not configured); an unknown one is not recognized.
    const test = '/mobile_push/test_notification';
    expect((await cordelia.post(test, { token: 'ABCDEF0123' })).status).toBe(200);
    expect((await cordelia.post(test)).status).toBe(200);
    expect((await cordelia.post(test, { token: 'elsewhere' })).body).toMatchObject({
      code: 'INVALID_PUSH_DEVICE_TOKEN',
      msg: 'Device not recognized',
    });
    expect((await cordelia.delete(apns, { token: 'ABCDEF0123' })).status).toBe(200);
    await refused(cordelia.delete(apns, { token: 'ABCDEF0123' }), 'Token does not exist');
    // A token is the person's own: another kind or person does not remove it.
    await refused(cordelia.delete(apns, { token: 'an-fcm-token' }), 'Invalid APNS token');
    expect((await cordelia.delete(fcm, { token: 'an-fcm-token' })).status).toBe(200);
    expect(await tokens()).toEqual([]);
  });

  it('changes settings, sends user_settings events, and legacy events to old clients', async () => {
    const modern = await cordelia.post('/register', {
      event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    const legacy = await cordelia.post('/register', {});
    const r = await cordelia.patch('/settings', {
      twenty_four_hour_time: 'true',
      color_scheme: '2',
      default_language: 'de',
      timezone: 'Asia/Tokyo',
      enable_sounds: 'false',
    });
    expect(r.status).toBe(200);
    const events = await drain(cordelia, modern.body.queue_id);
    expect(events.map((e) => e.property).sort()).toEqual([
      'color_scheme',
      'default_language',
      'enable_sounds',
      'timezone',
      'twenty_four_hour_time',
    ]);
    expect(events.find((e) => e.property === 'default_language').language_name).toBe('Deutsch');
    const old = await drain(cordelia, legacy.body.queue_id);
    expect(
      old.some(
        (e) =>
          e.type === 'update_display_settings' &&
          e.setting_name === 'color_scheme' &&
          e.setting === 2,
      ),
    ).toBe(true);
    expect(
      old.some(
        (e) =>
          e.type === 'update_global_notifications' &&
          e.notification_name === 'enable_sounds' &&
          e.setting === false,
      ),
    ).toBe(true);
    const reg = await cordelia.post('/register', {
      fetch_event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    expect(reg.body.user_settings).toMatchObject({
      twenty_four_hour_time: true,
      color_scheme: 2,
      default_language: 'de',
      timezone: 'Asia/Tokyo',
    });
  });

  it('accepts the deprecated /settings/display and /settings/notifications paths', async () => {
    expect((await cordelia.patch('/settings/display', { dense_mode: 'false' })).status).toBe(200);
    expect(
      (await cordelia.patch('/settings/notifications', { enable_digest_emails: 'false' })).status,
    ).toBe(200);
  });

  it('validates enumerations, languages, time zones, emoji sets and home views', async () => {
    for (const bad of [
      { color_scheme: '7' },
      { default_language: 'klingon' },
      { timezone: 'Mars/Olympus' },
      { emojiset: 'apple' },
      { web_home_view: 'stream' },
      { enable_sounds: 'maybe' },
      { email_notifications_batching_period_seconds: '5' },
    ]) {
      const r = await cordelia.patch('/settings', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
    }
    const unknown = await cordelia.patch('/settings', { not_a_setting: 'x' });
    expect(unknown.body.ignored_parameters_unsupported).toEqual(['not_a_setting']);
  });

  it('needs the old password for a new one', async () => {
    expect((await cordelia.patch('/settings', { new_password: 'brand-new-pass' })).status).toBe(
      400,
    );
    expect(
      (await cordelia.patch('/settings', { old_password: 'wrong', new_password: 'brand-new-pass' }))
        .body.msg,
    ).toBe('Wrong password!');
    expect(
      (
        await cordelia.patch('/settings', {
          old_password: DEMO_PASSWORD,
          new_password: 'brand-new-pass',
        })
      ).status,
    ).toBe(200);
    const anon = new TestClient(w.server.url);
    expect(
      (
        await anon.post('/fetch_api_key', {
          username: 'cordelia@example.com',
          password: 'brand-new-pass',
        })
      ).status,
    ).toBe(200);
  });

  it('deletes stored drafts when draft synchronisation is turned off', async () => {
    await cordelia.post('/drafts', {
      drafts: [{ type: '', to: [], topic: '', content: 'unsent' }],
    });
    expect((await cordelia.get('/drafts')).body.count).toBe(1);
    await cordelia.patch('/settings', { enable_drafts_synchronization: 'false' });
    await cordelia.patch('/settings', { enable_drafts_synchronization: 'true' });
    expect((await cordelia.get('/drafts')).body.count).toBe(0);
  });

  it('starts an email change with a confirmation link in the mail queue, applied once', async () => {
    const r = await cordelia.patch('/settings', { email: 'cordelia@lear.example' });
    expect(r.status).toBe(200);
    expect((await cordelia.get('/users/me')).body.email).toBe('cordelia@example.com');
    const mail = (await queuedMails(w.server)).find((m) => m.to === 'cordelia@lear.example')!;
    expect(mail.kind).toBe('email_change');
    const link = new URL(mail.link);
    const confirm = await fetch(`${w.server.url}${link.pathname}`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('cordelia@lear.example');
    expect((await fetch(`${w.server.url}${link.pathname}`)).status).toBe(404);
    const renamed = new TestClient(w.server.url, 'cordelia@lear.example', cordelia.apiKey);
    expect((await renamed.get('/users/me')).body.delivery_email).toBe('cordelia@lear.example');
  });
});
