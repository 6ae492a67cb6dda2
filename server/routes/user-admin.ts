import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p } from '../http/params.js';
import {
  deactivateOwnAccount,
  deactivateUserByAdmin,
  reactivateUser,
  userSubscriptionStatus,
} from '../actions/user-admin.js';
import { updateUserByAdmin } from '../actions/user-edits.js';

export function userAdminRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, { method: 'DELETE', path: '/users/me', params: {} }, async ({ realm, user }) =>
    deactivateOwnAccount(ctx, realm, user),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/users/:user', pathInts: ['user'], params: {} },
    async ({ realm, user, pathInt }) => deactivateUserByAdmin(ctx, realm, user, pathInt('user')),
  );

  route(
    app,
    ctx,
    { method: 'POST', path: '/users/:user/reactivate', pathInts: ['user'], params: {} },
    async ({ realm, user, pathInt }) => reactivateUser(ctx, realm, user, pathInt('user')),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/users/:user',
      pathInts: ['user'],
      params: {
        full_name: p.string().optional(),
        role: p.int().optional(),
        profile_data: p.json(check.list(check.object)).optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateUserByAdmin(ctx, realm, user, pathInt('user'), params),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/:user/subscriptions/:stream_id',
      pathInts: ['user', 'stream_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) =>
      userSubscriptionStatus(ctx, realm, user, pathInt('user'), pathInt('stream_id')),
  );
}
