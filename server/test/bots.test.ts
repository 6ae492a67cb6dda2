import { describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { expectError } from './people.js';
import { databases, useServer } from './fixtures.js';
import { outgoingWebhookCases, webhookAddressCases } from './outgoing-webhooks.cases.js';

describe.each(databases('both'))('bots people own on %s', (db) => {
  const t = useServer({ db });

  it('a member creates a bot; the owner and administrators learn of it, and its key works', async () => {
    const { as: c, id } = t;
    const q = await t.queues(['realm_bot', 'realm_user']);
    const r = await c.cordelia.post('/bots', {
      full_name: 'Weather Bot',
      short_name: 'weather',
      bot_type: 1,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.api_key).toMatch(/^\w{16,}$/);
    const botId = r.body.user_id as number;

    const added = (await q.events('cordelia')).find((e) => e.type === 'realm_bot');
    expect(added).toMatchObject({
      op: 'add',
      bot: { user_id: botId, full_name: 'Weather Bot', owner_id: id.cordelia, is_active: true },
    });
    expect((await q.events('iago')).some((e) => e.type === 'realm_bot' && e.op === 'add')).toBe(
      true,
    );
    // Other members hear of the new user, not of a bot they may manage.
    const hamlet = await q.events('hamlet');
    expect(hamlet.some((e) => e.type === 'realm_bot')).toBe(false);
    expect(hamlet.some((e) => e.type === 'realm_user' && e.op === 'add')).toBe(true);

    const bot = new TestClient(t.server.url, 'weather-bot@parley.bots', r.body.api_key);
    const me = await bot.get('/users/me');
    expect(me.body).toMatchObject({ user_id: botId, is_bot: true, full_name: 'Weather Bot' });

    // The same username or name again is refused.
    expectError(
      await c.cordelia.post('/bots', { full_name: 'Other', short_name: 'weather' }),
      'BAD_REQUEST',
      'Username already in use',
    );
    expectError(
      await c.cordelia.post('/bots', { full_name: 'Weather Bot', short_name: 'weather2' }),
      'BAD_REQUEST',
      'Name is already in use!',
    );
    // Guests may not.
    expectError(
      await c.polonius.post('/bots', { full_name: 'Guest bot', short_name: 'guestbot' }),
      'BAD_REQUEST',
    );
  });

  it('the owner renames, regenerates the key (the old one stops working) and gives the bot away', async () => {
    const { as: c, id } = t;
    const made = await c.othello.post('/bots', { full_name: 'Tide Bot', short_name: 'tide' });
    const botId = made.body.user_id as number;
    const oldKey = made.body.api_key as string;
    const q = await t.queues(['realm_bot', 'realm_user']);

    expect((await c.othello.patch(`/bots/${botId}`, { full_name: 'Tides Bot' })).status).toBe(200);
    const key = await c.othello.post(`/bots/${botId}/api_key/regenerate`);
    expect(key.body.api_key).not.toBe(oldKey);
    expect(
      (await new TestClient(t.server.url, 'tide-bot@parley.bots', oldKey).get('/users/me')).status,
    ).toBe(401);
    expect(
      (
        await new TestClient(t.server.url, 'tide-bot@parley.bots', key.body.api_key).get(
          '/users/me',
        )
      ).status,
    ).toBe(200);

    // Someone else's bot: refused.
    expectError(
      await c.hamlet.patch(`/bots/${botId}`, { full_name: 'Mine now' }),
      'BAD_REQUEST',
      'Insufficient permission',
    );

    expect((await c.othello.patch(`/bots/${botId}`, { bot_owner_id: id.cordelia })).status).toBe(
      200,
    );
    const othello = (await q.events('othello')).filter((e) => e.type === 'realm_bot');
    expect(othello.map((e) => e.op)).toEqual(['update', 'update', 'delete']);
    expect(othello[1].bot.api_key).toBe(key.body.api_key);
    const cordelia = (await q.events('cordelia')).filter((e) => e.type === 'realm_bot');
    expect(cordelia).toMatchObject([{ op: 'add', bot: { user_id: botId, owner_id: id.cordelia } }]);
    const iago = (await q.events('iago')).filter((e) => e.type === 'realm_bot');
    expect(iago.at(-1)).toMatchObject({ op: 'update', bot: { owner_id: id.cordelia } });
    expectError(
      await c.cordelia.patch(`/bots/${botId}`, { bot_owner_id: id.bot }),
      'BAD_REQUEST',
      "Failed to change owner, bots can't own other bots",
    );
  });

  it('the owner deactivates and reactivates their bot; others may not', async () => {
    const { as: c } = t;
    const made = await c.shiva.post('/bots', { full_name: 'Moon Bot', short_name: 'moon' });
    const botId = made.body.user_id as number;
    expectError(await c.hamlet.delete(`/bots/${botId}`), 'BAD_REQUEST', 'Insufficient permission');
    expect((await c.shiva.delete(`/bots/${botId}`)).status).toBe(200);
    expect(
      (
        await new TestClient(t.server.url, 'moon-bot@parley.bots', made.body.api_key).get(
          '/users/me',
        )
      ).status,
    ).toBe(401);
    expectError(await c.hamlet.post(`/users/${botId}/reactivate`), 'BAD_REQUEST');
    expect((await c.shiva.post(`/users/${botId}/reactivate`)).status).toBe(200);
    expect((await c.iago.delete(`/bots/${botId}`)).status).toBe(200);
  });

  it("GET /bots lists the caller's own active bots with their keys, oldest first", async () => {
    const { as: c } = t;
    const first = await c.desdemona.post('/bots', { full_name: 'Lute Bot', short_name: 'lute' });
    const second = await c.desdemona.post('/bots', { full_name: 'Harp Bot', short_name: 'harp' });
    await c.othello.post('/bots', { full_name: 'Drum Bot', short_name: 'drum' });
    const listed = await c.desdemona.get('/bots');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.bots).toEqual([
      {
        username: 'lute-bot@parley.bots',
        full_name: 'Lute Bot',
        api_key: first.body.api_key,
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
      expect.objectContaining({ username: 'harp-bot@parley.bots', api_key: second.body.api_key }),
    ]);
    // A regenerated key is what the list shows; a deactivated bot is no longer listed.
    const key = await c.desdemona.post(`/bots/${second.body.user_id}/api_key/regenerate`);
    await c.desdemona.delete(`/bots/${first.body.user_id}`);
    expect((await c.desdemona.get('/bots')).body.bots).toEqual([
      expect.objectContaining({ username: 'harp-bot@parley.bots', api_key: key.body.api_key }),
    ]);
    // Administrators do not see others' bots here (they have realm_bots); guests and bots are refused.
    expect((await c.iago.get('/bots')).body.bots.map((b: any) => b.username)).not.toContain(
      'harp-bot@parley.bots',
    );
    expectError(await c.polonius.get('/bots'), 'BAD_REQUEST', 'Not allowed for guest users');
  });

  it('a bot keeps text values under text keys in its own storage, as zulip_bots expects', async () => {
    const { as: c } = t;
    const made = await c.hamlet.post('/bots', { full_name: 'Count Bot', short_name: 'count' });
    const bot = new TestClient(t.server.url, 'count-bot@parley.bots', made.body.api_key);
    const other = await c.hamlet.post('/bots', {
      full_name: 'Other Bot',
      short_name: 'othercount',
    });
    const otherBot = new TestClient(t.server.url, 'othercount-bot@parley.bots', other.body.api_key);

    expect((await bot.get('/bot_storage')).body.storage).toEqual({});
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    expect((await bot.put('/bot_storage', { storage: JSON.stringify(initial) })).status).toBe(200);
    await otherBot.put('/bot_storage', { storage: JSON.stringify({ 'key 1': 'not yours' }) });
    const some = await bot.get('/bot_storage', { keys: JSON.stringify(['key 3', 'key 1']) });
    expect(some.body.storage).toEqual({ 'key 3': 'value 3', 'key 1': 'value 1' });
    await bot.put('/bot_storage', { storage: JSON.stringify({ 'key 1': 'new', 'key 4': 'v4' }) });
    expect((await bot.get('/bot_storage')).body.storage).toEqual({
      'key 1': 'new',
      'key 2': 'value 2',
      'key 3': 'value 3',
      'key 4': 'v4',
    });

    expectError(
      await bot.get('/bot_storage', { keys: JSON.stringify(['key 1', 'nonexistent key']) }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expectError(
      await bot.put('/bot_storage', { storage: JSON.stringify({ foo: [1, 2, 3] }) }),
      'BAD_REQUEST',
      'storage["foo"] is not a string',
    );
    expectError(await bot.get('/bot_storage', { keys: 'key 1' }), 'BAD_REQUEST');
    // Removing an existing and a missing key removes neither.
    expectError(
      await bot.delete('/bot_storage', { keys: JSON.stringify(['key 3', 'nonexistent key']) }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expect(Object.keys((await bot.get('/bot_storage')).body.storage)).toHaveLength(4);
    await bot.delete('/bot_storage', { keys: JSON.stringify(['key 1', 'key 2']) });
    expect((await bot.get('/bot_storage')).body.storage).toEqual({
      'key 3': 'value 3',
      'key 4': 'v4',
    });

    // Stored state survives a restart of the server.
    await t.restart();
    bot.adopt(new TestClient(t.server.url, bot.email, bot.apiKey));
    otherBot.adopt(new TestClient(t.server.url, otherBot.email, otherBot.apiKey));
    expect((await bot.get('/bot_storage')).body.storage).toEqual({
      'key 3': 'value 3',
      'key 4': 'v4',
    });
    await bot.delete('/bot_storage');
    expect((await bot.get('/bot_storage')).body.storage).toEqual({});
    // The other bot's entry was never touched; people have no storage.
    expect((await otherBot.get('/bot_storage')).body.storage).toEqual({ 'key 1': 'not yours' });
    expectError(await c.hamlet.get('/bot_storage'), 'BAD_REQUEST', 'Must be a bot user');
    expectError(
      await c.hamlet.put('/bot_storage', { storage: '{}' }),
      'BAD_REQUEST',
      'Must be a bot user',
    );
  });

  it('bot storage holds ten million characters of keys and values, counted as Python counts them', async () => {
    const { as: c } = t;
    const made = await c.hamlet.post('/bots', { full_name: 'Full Bot', short_name: 'full' });
    const bot = new TestClient(t.server.url, 'full-bot@parley.bots', made.body.api_key);
    const limit = 10_000_000;
    const big = 'x'.repeat(limit - 'big'.length - 10);
    expect((await bot.put('/bot_storage', { storage: JSON.stringify({ big }) })).status).toBe(200);
    // 1 + 11 characters more would pass the limit by 2: refused, and nothing is written.
    expectError(
      await bot.put('/bot_storage', { storage: JSON.stringify({ a: 'b', k: '0123456789a' }) }),
      'BAD_REQUEST',
      `Request exceeds storage limit by 4 characters. The limit is ${limit} characters.`,
    );
    expectError(
      await bot.get('/bot_storage', { keys: JSON.stringify(['a']) }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
    // Nine emoji outside the BMP are nine characters (not eighteen UTF-16 units): exactly the limit.
    const emoji = '\u{1F600}'.repeat(9);
    expect((await bot.put('/bot_storage', { storage: JSON.stringify({ e: emoji }) })).status).toBe(
      200,
    );
    expect((await bot.get('/bot_storage', { keys: JSON.stringify(['e']) })).body.storage.e).toBe(
      emoji,
    );
    // Replacing an entry counts only the difference.
    expect(
      (await bot.put('/bot_storage', { storage: JSON.stringify({ big: big.slice(1) + 'y' }) }))
        .status,
    ).toBe(200);
  });

  outgoingWebhookCases(t);
});

webhookAddressCases();
