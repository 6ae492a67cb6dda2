import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import Busboy, { type FileInfo } from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { MAX_FILE_UPLOAD_BYTES, prepareIncoming, type IncomingFile } from '../actions/uploads.js';
import { tooManyFields, type RawParams } from './body.js';
import { inRegisteringScope } from './plugin.js';

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
      bb = multipartReader(request);
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
    bb.on('file', fileReceiver(keep ? dir : null, files, writes));
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

/** Throws when the headers name no multipart body busboy can read. */
function multipartReader(request: FastifyRequest) {
  return Busboy({
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
}

/**
 * Each file of the body: the first one written to a temporary path in `dir` (none: the request
 * keeps no file data), the others only counted (the actions refuse more than one).
 */
function fileReceiver(dir: string | null, files: IncomingFile[], writes: Promise<void>[]) {
  return (_name: string, stream: Readable & { truncated?: boolean }, info: FileInfo) => {
    const file: IncomingFile = {
      tmpPath: '',
      filename: unquote(info.filename ?? ''),
      contentType: info.mimeType,
      size: 0,
      tooLarge: false,
    };
    if (dir === null || files.length >= 1) {
      if (dir !== null) files.push(file);
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
  };
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
 * Multipart bodies with their files kept (`filesOf`), for the routes of the scope that registers
 * it: uploads, custom emoji, avatars. Elsewhere a multipart body gives its fields only (body.ts).
 * The received files are removed before the answer leaves, so that a client that sees it finds no
 * temporary file left behind, or when the client goes away first.
 */
export const acceptFiles = inRegisteringScope(
  'accept-files',
  async (scope: FastifyInstance, { ctx }: { ctx: AppContext }) => {
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', (request, payload, done) => {
      receiveMultipart(ctx, request, payload).then(
        (fields) => done(null, fields),
        (err) => done(err),
      );
    });
    scope.addHook('onSend', async (request) => removeReceived(request));
    scope.addHook('onRequestAbort', async (request) => removeReceived(request));
  },
);
