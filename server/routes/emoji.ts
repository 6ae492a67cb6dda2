import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { route } from '../http/route.js';
import type { IncomingFile } from '../actions/uploads.js';
import {
  addRealmEmoji,
  deactivateRealmEmoji,
  EMOJI_IMAGE_TYPES,
  emojiImagesDir,
  getRealmEmoji,
} from '../actions/realm-emoji.js';

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

  scope.get(
    '/user_avatars/:realm_id/emoji/images/:file',
    { compress: false },
    async (request, reply) => {
      const { realm_id: realmId, file } = request.params as { realm_id: string; file: string };
      const m = /^(\d{1,9})\.([a-z]{3,4})$/.exec(file);
      const type = m ? EMOJI_IMAGE_TYPES[m[2]!] : undefined;
      if (!/^\d{1,9}$/.test(realmId) || !type) throw new DomainError('Not Found', 'NOT_FOUND', 404);
      const dir = emojiImagesDir(ctx, Number(realmId));
      const stat = await fs.promises.stat(path.join(dir, file)).catch(() => null);
      if (!stat?.isFile()) throw new DomainError('Not Found', 'NOT_FOUND', 404);
      reply
        .type(type)
        .header('Cache-Control', 'public, max-age=86400')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('X-Content-Type-Options', 'nosniff');
      return reply.sendFile(file, dir, { contentType: false, cacheControl: false });
    },
  );
}
