import { accountsBut, insufficient, membersOnly, type Row } from './types.js';

/**
 * Bots people own (zerver/views/users.py `add_bot_backend`, `patch_bot_backend`,
 * `regenerate_bot_api_key`, `deactivate_bot_backend`). Creating is for members
 * (`@require_member_or_admin`, bot_creation_policy everyone by default); the rest is for the bot's
 * owner and administrators (`access_bot_by_id`). Targets are bots of a member who is no actor.
 */
const admins = ['administrator', 'owner'] as const;
const othersBot = { allow: admins, rest: insufficient };

export const BOT_ROWS: Row[] = [
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
