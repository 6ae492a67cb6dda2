import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { acceptFiles, filesOf } from '../http/multipart.js';
import { authenticate, realmForRequest } from '../http/auth.js';
import { DomainError } from '../domain/errors.js';
import { knownRoutes, route } from '../http/route.js';
import { storedFiles } from '../http/static.js';
import { servedFile, uploadFile, uploadForToken, type ServedFile } from '../actions/uploads.js';
import { readableUpload, temporaryUploadUrl } from '../actions/upload-access.js';
import { emojiRoutes } from './emoji.js';
import { avatarRoutes } from './people.js';

/**
 * What @fastify/send decides for an upload: ranges (a video can be seeked, a download resumed),
 * an ETag and Last-Modified with conditional requests. The type, name and caching are the
 * upload's own, set by `sendUpload`; the file was found by the access checks, dotted name or not.
 */
const UPLOAD_SEND_OPTIONS = {
  contentType: false,
  cacheControl: false,
  dotfiles: 'allow',
} as const;

/** Headers for user content: never run as part of our origin, whatever the bytes are. */
function sendUpload(reply: FastifyReply, served: ServedFile) {
  const name = served.downloadName;
  const ascii = /^[\x20-\x7e]*$/.test(name);
  const disposition = ascii
    ? `filename="${name.replace(/["\\]/g, (c) => `\\${c}`)}"`
    : `filename*=utf-8''${encodeURIComponent(name)}`;
  reply
    .type(served.contentType)
    .header('Content-Disposition', `${served.attachment ? 'attachment' : 'inline'}; ${disposition}`)
    .header(
      'Content-Security-Policy',
      "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    )
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, max-age=86400, immutable');
  return reply.sendFile(path.basename(served.file), path.dirname(served.file), UPLOAD_SEND_OPTIONS);
}

/**
 * POST /user_uploads; GET /user_uploads/{realm_id}/{path} at the site root (API credentials, or
 * none for spectators) and under /api/v1 (a temporary URL); GET /user_uploads/temporary/{token}/{name}.
 * Custom emoji share the upload parser and the sending of stored files, so their routes are
 * registered here too.
 */
export function uploadRoutes(app: FastifyInstance, ctx: AppContext) {
  app.register(async (scope) => {
    await scope.register(storedFiles);
    await scope.register(acceptFiles, { ctx });

    route(
      scope,
      ctx,
      { method: 'POST', path: '/user_uploads', params: {} },
      async ({ realm, user, raw }) => uploadFile(ctx, realm, user, filesOf(raw)),
    );
    emojiRoutes(scope, ctx, filesOf);
    avatarRoutes(scope, ctx, filesOf);

    scope.get('/user_uploads/temporary/*', { compress: false }, async (request, reply) => {
      const rest = (request.params as Record<string, string>)['*'] ?? '';
      const slash = rest.indexOf('/');
      const attachment = await uploadForToken(
        ctx,
        slash < 0 ? rest : rest.slice(0, slash),
        slash < 0 ? '' : rest.slice(slash + 1),
      );
      return sendUpload(reply, await servedFile(ctx, attachment));
    });

    scope.get('/user_uploads/:realm_id/*', { compress: false }, async (request, reply) => {
      const params = request.params as Record<string, string>;
      if ((params['*'] ?? '').includes('\u0000'))
        throw new DomainError('File not found', 'BAD_REQUEST', 404);
      const realm = await realmForRequest(ctx, request);
      const auth = await authenticate(ctx, request, realm);
      const attachment = await readableUpload(
        ctx,
        realm,
        auth?.user ?? null,
        params.realm_id ?? '',
        params['*'] ?? '',
      );
      return sendUpload(reply, await servedFile(ctx, attachment));
    });
  });

  // The path after the realm id has several segments; the route layer records one pattern segment
  // per parameter, so this route's pattern (for 405 answers and the sweeps) is set here.
  const at = knownRoutes.length;
  route(
    app,
    ctx,
    { method: 'GET', path: '/user_uploads/:realm_id_str/*', params: {} },
    async ({ realm, user, path: params }) =>
      temporaryUploadUrl(ctx, realm, user, params.realm_id_str!, params['*'] ?? ''),
  );
  knownRoutes[at] = { method: 'GET', pattern: new RegExp('^/api/v1/user_uploads/[^/]+/[^/]+/?$') };
}
