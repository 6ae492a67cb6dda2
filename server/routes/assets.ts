import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { RoutesOptions } from '../http/route.js';
import { DomainError } from '../domain/errors.js';
import { avatarOfId, avatarOfPath, uploadedAvatar, type AvatarOwner } from '../actions/avatars.js';
import { EMOJI_IMAGE_TYPES, emojiImage } from '../actions/realm-emoji.js';
import { realmForIcon } from '../lib/realm-icons.js';
import { authenticate, realmForRequest } from '../http/auth.js';
import { checkRateLimit } from '../http/rate-limit.js';
import { storedFiles } from '../http/static.js';
import { sendStoredFile } from '../http/stored-file.js';
import { EMOJI_DATA_PATH, emojiCodeToNames } from '../markdown/index.js';
import { badgeSvg, initials } from '../pages/badge.js';

/** An avatar: the uploaded image, or initials drawn for a person without one ("?" for nobody). */
async function sendAvatar(
  ctx: AppContext,
  reply: FastifyReply,
  person: AvatarOwner | null,
  cacheControl: string,
) {
  const uploaded = person && (await uploadedAvatar(ctx, person.realm_id, person.id));
  reply.header('Cache-Control', cacheControl);
  if (uploaded)
    return reply
      .type(uploaded.type)
      .header('Content-Length', String(uploaded.file.size))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('X-Content-Type-Options', 'nosniff')
      .send(uploaded.file.open());
  reply.type('image/svg+xml');
  return reply.send(badgeSvg(person ? initials(person.full_name) : '?', person?.id ?? 0, 12));
}

/**
 * Custom emoji images, public as upstream serves them:
 * /user_avatars/<realm_id>/emoji/images/<id>.<ext>. `scope` sends files on disk (http/static.ts
 * `storedFiles`); those in the database go through `sendStoredFile`, with the same ranges and
 * conditional requests.
 */
function emojiImages(scope: FastifyInstance, ctx: AppContext) {
  scope.get(
    '/user_avatars/:realm_id/emoji/images/:file',
    { compress: false },
    async (request, reply) => {
      const { realm_id: realmId, file } = request.params as { realm_id: string; file: string };
      const m = /^(\d{1,9})\.([a-z]{3,4})$/.exec(file);
      const type = m ? EMOJI_IMAGE_TYPES[m[2]!] : undefined;
      if (!/^\d{1,9}$/.test(realmId) || !type) throw new DomainError('Not Found', 'NOT_FOUND', 404);
      const image = await emojiImage(ctx, Number(realmId), file);
      if (!image) throw new DomainError('Not Found', 'NOT_FOUND', 404);
      reply
        .type(type)
        .header('Cache-Control', 'public, max-age=86400')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('X-Content-Type-Options', 'nosniff');
      if (image.path === undefined) return sendStoredFile(request, reply, image);
      return reply.sendFile(path.basename(image.path), path.dirname(image.path), {
        contentType: false,
        cacheControl: false,
      });
    },
  );
}

/** Avatars (by id, and at their public paths), organization icons and custom emoji images. */
export async function assetRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  // Emoji names by code, as upstream's emoji_api.json: what the mobile apps read through
  // `server_emoji_data_url`. The same for everyone, and fixed for a release.
  let emojiData: string | undefined;
  app.get(EMOJI_DATA_PATH, async (_request, reply) => {
    emojiData ??= JSON.stringify({ code_to_names: emojiCodeToNames() });
    reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .header('Access-Control-Allow-Origin', '*');
    return emojiData;
  });
  app.get('/avatar/:id', async (request, reply) => {
    const realm = await realmForRequest(ctx, request);
    const auth = await authenticate(ctx, request, realm);
    await checkRateLimit(ctx, reply, auth ? `user:${auth.user.id}` : `ip:${request.ip}`);
    const { id } = request.params as { id: string };
    const person = await avatarOfId(ctx, realm, auth?.user ?? null, id);
    // The answer depends on who asks: no shared cache keeps it.
    return sendAvatar(ctx, reply, person, 'private, max-age=3600');
  });
  app.get('/user_avatars/:realm_id/:file', async (request, reply) => {
    const { realm_id: realmId, file } = request.params as { realm_id: string; file: string };
    return sendAvatar(ctx, reply, await avatarOfPath(ctx, realmId, file), 'public, max-age=86400');
  });
  app.get('/realm-icon/:file', async (request, reply) => {
    const id = Number.parseInt((request.params as { file: string }).file, 10);
    const realm = Number.isSafeInteger(id) ? await realmForIcon(ctx, id) : undefined;
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=3600');
    return reply.send(badgeSvg(realm ? initials(realm.name) : 'P', (realm?.id ?? 0) + 3, 22));
  });
  app.register(async (scope) => {
    await scope.register(storedFiles);
    emojiImages(scope, ctx);
  });
}
