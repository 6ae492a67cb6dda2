import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyStatic from '@fastify/static';
import Busboy from 'busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { tooManyFields, type RawParams } from '../http/body.js';
import { authenticate, realmForRequest } from '../http/auth.js';
import { DomainError } from '../domain/errors.js';
import { knownRoutes, route } from '../http/route.js';
import { sendRefusal } from '../http/static.js';
import {
  MAX_FILE_UPLOAD_BYTES,
  prepareIncoming,
  servedFile,
  uploadFile,
  type IncomingFile,
  type ServedFile,
} from '../actions/uploads.js';
import { readableUpload, temporaryUploadUrl } from '../lib/upload-access.js';
import { uploadForToken } from '../lib/upload-files.js';
import { emojiRoutes } from './emoji.js';
import { avatarRoutes } from './people.js';

/** Files received with a request, for its handler (and for the cleanup after it). */
const receivedFiles = new WeakMap<FastifyRequest, IncomingFile[]>();

export const filesOf = (request: FastifyRequest): IncomingFile[] =>
  receivedFiles.get(request) ?? [];

/** Bodies past this are refused while they arrive (the file limit, checked by the actions, is lower). */
const HARD_LIMIT_BYTES = 2 * MAX_FILE_UPLOAD_BYTES;

/**
 * A multipart body with files: fields become parameters, files are streamed to temporary paths
 * (never into memory) up to the upload limit; what goes beyond is read and dropped, and the file
 * is marked too large for the action to refuse. Requests without credentials keep no file data.
 */
async function receiveMultipart(
  ctx: AppContext,
  request: FastifyRequest,
  payload: NodeJS.ReadableStream,
): Promise<RawParams> {
  const keep = !!request.headers.authorization;
  const dir = keep ? await prepareIncoming(ctx) : '';
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof Busboy>;
    try {
      bb = Busboy({
        headers: request.headers as Record<string, string>,
        // Clients send names in UTF-8 (browsers and requests alike), not the RFC's Latin-1.
        defParamCharset: 'utf8',
        // busboy flags a file as truncated once it reaches the limit: one byte more is too large.
        limits: {
          fileSize: MAX_FILE_UPLOAD_BYTES + 1,
          files: 10,
          fields: 1000,
          fieldSize: 1024 * 1024,
          parts: 1100,
        },
      });
    } catch {
      reject(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400));
      return;
    }
    const fields: RawParams = {};
    const files: IncomingFile[] = [];
    receivedFiles.set(request, files);
    const writes: Promise<void>[] = [];
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      payload.unpipe(bb);
      bb.destroy();
      payload.resume(); // read and drop the rest, so that the answer reaches the client
      void Promise.allSettled(writes).then(() => removeReceived(request));
      reject(err);
    };
    const malformed = () => fail(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400));

    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > HARD_LIMIT_BYTES)
        fail(new DomainError('Request body too large', 'BAD_REQUEST', 413));
    });
    payload.on('error', malformed);
    payload.on('close', () => {
      if ((payload as { complete?: boolean }).complete === false) malformed();
    });
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      const file: IncomingFile = {
        tmpPath: '',
        filename: unquote(info.filename ?? ''),
        contentType: info.mimeType,
        size: 0,
        tooLarge: false,
      };
      // Only the first file is kept; further ones are counted (the actions refuse more than one).
      if (!keep || files.length >= 1) {
        if (keep) files.push(file);
        stream.resume();
        return;
      }
      files.push(file);
      file.tmpPath = path.join(dir, crypto.randomBytes(12).toString('hex'));
      const out = fs.createWriteStream(file.tmpPath, { mode: 0o600 });
      writes.push(
        pipeline(stream, out).then(() => {
          file.size = out.bytesWritten;
          file.tooLarge = stream.truncated === true;
        }),
      );
    });
    bb.on('error', malformed);
    // Past busboy's limits it drops what follows without a word: refuse instead, as other bodies do.
    bb.on('fieldsLimit', () => fail(tooManyFields()));
    bb.on('partsLimit', () => fail(tooManyFields()));
    bb.on('close', () => {
      Promise.all(writes).then(
        () => {
          if (settled) return;
          settled = true;
          resolve(fields);
        },
        (err: Error) => fail(err),
      );
    });
    payload.pipe(bb);
  });
}

/**
 * Browsers escape '"', CR and LF in multipart file names as %22, %0D and %0A; the real server
 * unquotes names for that reason. Escapes that are not UTF-8 stay as they are.
 */
function unquote(name: string): string {
  return name.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

async function removeReceived(request: FastifyRequest) {
  for (const file of receivedFiles.get(request) ?? [])
    if (file.tmpPath) await fs.promises.rm(file.tmpPath, { force: true }).catch(() => {});
}

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
    // reply.sendFile for the stored files (no root of its own: each call names the file's folder).
    await scope.register(fastifyStatic, { serve: false });
    scope.setErrorHandler((err, _request, reply) => {
      if (!sendRefusal(err, reply)) throw err;
    });
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', (request, payload, done) => {
      receiveMultipart(ctx, request, payload).then(
        (fields) => done(null, fields),
        (err) => done(err),
      );
    });
    // Before the answer leaves: a client that sees it finds no temporary file left behind.
    scope.addHook('onSend', async (request) => removeReceived(request));
    scope.addHook('onRequestAbort', async (request) => removeReceived(request));

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
