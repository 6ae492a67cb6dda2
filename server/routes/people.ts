import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import type { IncomingFile } from '../actions/uploads.js';
import { deleteAvatar, uploadAvatar } from '../actions/avatars.js';
import { getStatus, updateStatus } from '../actions/user-status.js';

/** A person's status. */
export function statusRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/status',
      params: {
        away: p.bool().optional(),
        status_text: p.string().optional(),
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().optional(),
      },
    },
    async ({ realm, user, params }) => updateStatus(ctx, realm, user, params),
  );
  route(
    app,
    ctx,
    { method: 'GET', path: '/users/:user/status', pathInts: ['user'], params: {} },
    async ({ realm, pathInt }) => getStatus(ctx.db, realm, pathInt('user')),
  );
}

/** Avatars: `scope` is the upload scope, whose multipart parser keeps files (`filesOf`). */
export function avatarRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  filesOf: (r: FastifyRequest) => IncomingFile[],
) {
  route(
    scope,
    ctx,
    { method: 'POST', path: '/users/me/avatar', params: {} },
    async ({ realm, user, raw }) => uploadAvatar(ctx, realm, user, filesOf(raw)),
  );
  route(
    scope,
    ctx,
    { method: 'DELETE', path: '/users/me/avatar', params: {} },
    async ({ realm, user }) => deleteAvatar(ctx, realm, user),
  );
}
