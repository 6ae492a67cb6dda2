import { describe, expect, it } from 'vitest';
import { TestClient } from './client.js';
import { expectError } from './people.js';
import { databases, useServer } from './fixtures.js';

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
});
