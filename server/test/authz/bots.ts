import { accountsBut, bad, insufficient, membersOnly, type Row } from './types.js';

/**
 * Bots people own (zerver/views/users.py `add_bot_backend`, `patch_bot_backend`,
 * `regenerate_bot_api_key`, `deactivate_bot_backend`). Creating is for members
 * (`@require_member_or_admin`, bot_creation_policy everyone by default); the rest is for the bot's
 * owner and administrators (`access_bot_by_id`). Targets are bots of a member who is no actor.
 */
const admins = ['administrator', 'owner'] as const;
const othersBot = { allow: admins, rest: insufficient };
/** Bot storage is the calling bot's own (zerver/views/storage.py); people are refused. */
const botsOnly = { allow: ['bot'], rest: bad('Must be a bot user') } as const;

/** Another bot's storage, holding a key no caller may read: the target of the storage rows. */
async function storedByAnotherBot(w: Parameters<NonNullable<Row['setup']>>[0]) {
  const other = await w.account('bot');
  const key = w.unique('matrix-secret-');
  const put = await other.client.put('/bot_storage', { storage: JSON.stringify({ [key]: 'x' }) });
  if (put.body.result !== 'success') throw new Error(`storage setup: ${put.body.msg}`);
  return key;
}

export const BOT_ROWS: Row[] = [
  {
    route: 'GET /bots',
    // Each caller lists only the bots they own; the target is a bot of someone else.
    who: { hide: accountsBut('guest', 'bot'), deny: membersOnly },
    setup: async (w) => (await w.account('bot')).email,
    call: (c) => c.get('/bots'),
    reveals: (b, email: string) => (b.bots ?? []).some((bot: any) => bot.username === email),
  },
  {
    route: 'GET /bot_storage',
    who: { ...botsOnly, allow: [], hide: ['bot'] },
    setup: storedByAnotherBot,
    call: (c) => c.get('/bot_storage'),
    reveals: (b, key: string) => key in (b.storage ?? {}),
  },
  {
    route: 'PUT /bot_storage',
    who: botsOnly,
    call: (c, _t, w) =>
      c.put('/bot_storage', { storage: JSON.stringify({ [w.unique('k')]: 'v' }) }),
  },
  {
    route: 'DELETE /bot_storage',
    who: botsOnly,
    call: (c) => c.delete('/bot_storage'),
  },
  {
    route: 'POST /bots',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) => {
      const name = w.unique('matrixbot');
      return c.post('/bots', { full_name: name, short_name: name });
    },
  },
  {
    route: 'PATCH /bots/:bot_id',
    who: othersBot,
    setup: async (w) => (await w.account('bot')).id,
    fresh: true,
    call: (c, id: number, w) => c.patch(`/bots/${id}`, { full_name: w.unique('Renamed bot ') }),
  },
  {
    route: 'POST /bots/:bot_id/api_key/regenerate',
    who: othersBot,
    setup: async (w) => (await w.account('bot')).id,
    fresh: true,
    call: (c, id: number) => c.post(`/bots/${id}/api_key/regenerate`),
  },
  {
    route: 'DELETE /bots/:bot_id',
    who: othersBot,
    setup: async (w) => (await w.account('bot')).id,
    fresh: true,
    call: (c, id: number) => c.delete(`/bots/${id}`),
  },
];
