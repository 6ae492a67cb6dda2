import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptFiles, filesOf } from '../http/multipart.js';
import { authenticate, realmForRequest } from '../http/auth.js';
import { DomainError } from '../domain/errors.js';
import { knownRoutes, route, type RoutesOptions } from '../http/route.js';
import { storedFiles } from '../http/static.js';
import { sendStoredFile } from '../http/stored-file.js';
import {
  deleteOwnAttachment,
  servedFile,
  uploadFile,
  type ServedFile,
} from '../actions/uploads.js';
import { listOwnAttachments } from '../actions/upload-claims.js';
import { uploadForToken } from '../lib/upload-files.js';
import { readableUpload, temporaryUploadUrl } from '../lib/upload-access.js';

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

/**
 * Headers for user content: never run as part of our origin, whatever the bytes are. A file on
 * disk goes through @fastify/send, one in the database through `sendStoredFile`, which answers
 * the same ranges and conditional requests.
 */
function sendUpload(request: FastifyRequest, reply: FastifyReply, served: ServedFile) {
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
  const file = served.stored.path;
  if (file === undefined) return sendStoredFile(request, reply, served.stored);
  return reply.sendFile(path.basename(file), path.dirname(file), UPLOAD_SEND_OPTIONS);
}

/**
 * Uploading (POST /user_uploads), which takes a multipart file, and the stored files, sent with
 * ranges and conditional requests: GET /user_uploads/{realm_id}/{path} at the site root (API
 * credentials, or none for spectators) and GET /user_uploads/temporary/{token}/{name}.
 */
async function uploadsAndFiles(scope: FastifyInstance, { ctx }: RoutesOptions) {
  await scope.register(storedFiles);
  await scope.register(acceptFiles, { ctx });

  route(
    scope,
    ctx,
    { method: 'POST', path: '/user_uploads', params: {} },
    async ({ realm, user, raw }) => uploadFile(ctx, realm, user, filesOf(raw)),
  );

  scope.get('/user_uploads/temporary/*', { compress: false }, async (request, reply) => {
    const rest = (request.params as Record<string, string>)['*'] ?? '';
    const slash = rest.indexOf('/');
    const attachment = await uploadForToken(
      ctx,
      slash < 0 ? rest : rest.slice(0, slash),
      slash < 0 ? '' : rest.slice(slash + 1),
    );
    return sendUpload(request, reply, await servedFile(ctx, attachment));
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
    return sendUpload(request, reply, await servedFile(ctx, attachment));
  });
}

/**
 * The "Messages" section's uploads: uploading a file, its temporary URL under /api/v1, and the
 * stored files themselves.
 */
export async function uploadRoutes(app: FastifyInstance, opts: RoutesOptions) {
  app.register(uploadsAndFiles, opts);

  // The path after the realm id has several segments; the route layer records one pattern segment
  // per parameter, so this route's pattern (for 405 answers and the sweeps) is set here.
  const { ctx } = opts;
  const at = knownRoutes.length;
  route(
    app,
    ctx,
    { method: 'GET', path: '/user_uploads/:realm_id_str/*', params: {} },
    async ({ realm, user, path: params }) =>
      temporaryUploadUrl(ctx, realm, user, params.realm_id_str!, params['*'] ?? ''),
  );
  knownRoutes[at] = { method: 'GET', pattern: new RegExp('^/api/v1/user_uploads/[^/]+/[^/]+/?$') };

  // The person's own files (the Python bindings' get_attachments, the web app's "Uploaded files").
  route(app, ctx, { method: 'GET', path: '/attachments', params: {} }, async ({ realm, user }) =>
    listOwnAttachments(ctx.db, realm.id, user.id),
  );
  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/attachments/:attachment_id',
      pathInts: ['attachment_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) =>
      deleteOwnAttachment(ctx, realm, user, pathInt('attachment_id')),
  );
}
