import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { realmPresence, updatePresence, userPresence } from '../actions/presence.js';

export function presenceRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/presence',
      callers: 'humans',
      params: {
        status: p.oneOf(['active', 'idle'] as const),
        ping_only: p.bool().default(false),
        new_user_input: p.bool().default(false),
        slim_presence: p.bool().default(false),
        last_update_id: p.int().optional(),
        history_limit_days: p.int({ min: 1 }).optional(),
      },
    },
    async ({ realm, user, params }) => updatePresence(ctx, realm, user, params),
  );

  route(app, ctx, { method: 'GET', path: '/realm/presence', params: {} }, async ({ realm }) =>
    realmPresence(ctx, realm),
  );

  route(
    app,
    ctx,
    { method: 'GET', path: '/users/:user/presence', params: {} },
    async ({ realm, path }) => userPresence(ctx, realm, path.user),
  );
}
