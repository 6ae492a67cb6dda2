import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { MAX_ID, p } from '../http/params.js';
import {
  createUserByAdmin,
  getOwnUser,
  getUserByEmail,
  getUserById,
  getUsers,
} from '../actions/users.js';

export function userRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, { method: 'GET', path: '/users/me', params: {} }, async ({ realm, user }) =>
    getOwnUser(ctx, realm, user),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users',
      params: {
        client_gravatar: p.bool().default(true),
        include_custom_profile_fields: p.bool().default(false),
        user_ids: p.intList().optional(),
      },
    },
    async ({ realm, user, params }) =>
      getUsers(ctx, realm, user, {
        includeCustomProfileFields: params.include_custom_profile_fields,
        userIds: params.user_ids,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/:user',
      params: {
        client_gravatar: p.bool().default(true),
        include_custom_profile_fields: p.bool().default(false),
      },
    },
    async ({ realm, user, params, path }) => {
      const ref = path.user;
      if (/^\d{1,15}$/.test(ref)) {
        const id = Number(ref) <= MAX_ID ? Number(ref) : -1;
        return getUserById(ctx, realm, user, id, params.include_custom_profile_fields);
      }
      return getUserByEmail(ctx, realm, user, ref, params.include_custom_profile_fields);
    },
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users',
      params: { email: p.string(), password: p.string(), full_name: p.string() },
    },
    async ({ realm, user, params }) => createUserByAdmin(ctx, realm, user, params),
  );
}
