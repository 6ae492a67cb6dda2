import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import { createBot, deactivateBot, regenerateBotKey, updateBot } from '../actions/bots.js';

/**
 * The "Users" section's bots, which upstream serves without documenting them: bots people own;
 * create, rename or give away, new API key, deactivate.
 */
export async function botRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/bots',
      callers: 'members',
      params: {
        full_name: p.string(),
        short_name: p.string(),
        bot_type: p.int().default(1),
      },
    },
    async ({ realm, user, params }) => createBot(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/bots/:bot_id',
      pathInts: ['bot_id'],
      params: { full_name: p.string().optional(), bot_owner_id: p.int().optional() },
    },
    async ({ realm, user, params, pathInt }) =>
      updateBot(ctx, realm, user, pathInt('bot_id'), params),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/bots/:bot_id/api_key/regenerate',
      pathInts: ['bot_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => regenerateBotKey(ctx, realm, user, pathInt('bot_id')),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/bots/:bot_id', pathInts: ['bot_id'], params: {} },
    async ({ realm, user, pathInt }) => deactivateBot(ctx, realm, user, pathInt('bot_id')),
  );
}
