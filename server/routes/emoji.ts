import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import type { IncomingFile } from '../actions/uploads.js';
import { addRealmEmoji, deactivateRealmEmoji, getRealmEmoji } from '../actions/realm-emoji.js';

/**
 * Custom emoji. `scope` is the upload scope, whose multipart parser keeps files (`filesOf`) and
 * whose `reply.sendFile` sends stored ones.
 * The images are public, as upstream serves them: /user_avatars/<realm_id>/emoji/images/<id>.<ext>.
 */
export function emojiRoutes(
  scope: FastifyInstance,
  ctx: AppContext,
  filesOf: (r: FastifyRequest) => IncomingFile[],
) {
  route(scope, ctx, { method: 'GET', path: '/realm/emoji', params: {} }, async ({ realm }) =>
    getRealmEmoji(ctx, realm),
  );

  route(
    scope,
    ctx,
    { method: 'POST', path: '/realm/emoji/:emoji_name', callers: 'humans', params: {} },
    async ({ realm, user, path: p, raw }) =>
      addRealmEmoji(ctx, realm, user, p.emoji_name ?? '', filesOf(raw)),
  );

  route(
    scope,
    ctx,
    { method: 'DELETE', path: '/realm/emoji/:emoji_name', params: {} },
    async ({ realm, user, path: p }) => deactivateRealmEmoji(ctx, realm, user, p.emoji_name ?? ''),
  );
}
