import Busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** Request bodies become flat string maps, as the API's form encoding defines them. */
export type RawParams = Record<string, string>;

export const MAX_BODY_BYTES = 25 * 1024 * 1024;

function fromSearchParams(text: string): RawParams {
  const out: RawParams = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

/** JSON bodies are not part of the API, but some clients send them; lists stay JSON-encoded. */
function fromJson(text: string): RawParams {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('Malformed JSON', 'BAD_REQUEST', 400);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DomainError('Malformed JSON', 'BAD_REQUEST', 400);
  const out: RawParams = {};
  for (const [k, v] of Object.entries(value))
    out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

function parseMultipart(req: FastifyRequest, payload: NodeJS.ReadableStream): Promise<RawParams> {
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof Busboy>;
    try {
      bb = Busboy({
        headers: req.headers as Record<string, string>,
        limits: { fieldSize: MAX_BODY_BYTES, fields: 1000 },
      });
    } catch {
      reject(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400));
      return;
    }
    const out: RawParams = {};
    // The stream is handed over raw, so Fastify's bodyLimit does not apply: count the bytes here.
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= MAX_BODY_BYTES) return;
      payload.off('data', onData);
      payload.unpipe(bb);
      payload.resume();
      reject(new DomainError('Request body too large', 'BAD_REQUEST', 413));
    };
    payload.on('data', onData);
    bb.on('field', (name, value) => {
      out[name] = value;
    });
    // Uploads go through their own endpoint; files in other requests are drained and ignored.
    bb.on('file', (_name, stream) => stream.resume());
    bb.on('error', () => reject(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400)));
    bb.on('close', () => resolve(out));
    payload.pipe(bb);
  });
}

export function registerBodyParsers(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, fromSearchParams(body as string)),
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, fromJson(body as string));
    } catch (err) {
      done(err as Error);
    }
  });
  app.addContentTypeParser('multipart/form-data', (req, payload, done) => {
    parseMultipart(req, payload).then(
      (v) => done(null, v),
      (e) => done(e),
    );
  });
  // Anything else (text/plain, no content type, ...) is read as a form body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) =>
    done(null, fromSearchParams(body as string)),
  );
}
