import Busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonShape, parseClientJson } from '../domain/client-json.js';
import { DomainError } from '../domain/errors.js';

/** Request bodies become flat string maps, as the API's form encoding defines them. */
export type RawParams = Record<string, string>;

export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/**
 * Fields of a body, or parameters of a query string, that a request may carry. Bodies are read
 * as they arrive and refused at the first field past it, before the rest is read or any of it
 * decoded: two million empty fields took three seconds to decode, during which nothing else ran.
 */
export const MAX_FIELDS = 1000;

export const tooManyFields = () =>
  new DomainError(`Too many parameters (limit: ${MAX_FIELDS})`, 'BAD_REQUEST', 400);
const bodyTooLarge = () => new DomainError('Request body too large', 'BAD_REQUEST', 413);
const malformedBody = () => new DomainError('Malformed request body', 'BAD_REQUEST', 400);

const AMPERSAND = 0x26;

/**
 * The body's bytes as they arrive, up to MAX_BODY_BYTES; for a form (`countFields`), at most
 * MAX_FIELDS `&`-separated pieces. Past a limit the rest is read and dropped undecoded, so that
 * the answer reaches the client.
 */
function receive(
  req: FastifyRequest,
  payload: NodeJS.ReadableStream,
  countFields: boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let separators = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      payload.off('data', onData);
      payload.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return fail(bodyTooLarge());
      if (countFields)
        for (let at = chunk.indexOf(AMPERSAND); at >= 0; at = chunk.indexOf(AMPERSAND, at + 1))
          if (++separators >= MAX_FIELDS) return fail(tooManyFields());
      chunks.push(chunk);
    };
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return fail(bodyTooLarge());
    payload.on('data', onData);
    payload.on('error', () => fail(malformedBody()));
    payload.on('close', () => {
      if ((payload as { complete?: boolean }).complete === false) fail(malformedBody());
    });
    payload.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
  });
}

function fromSearchParams(text: string): RawParams {
  const out: RawParams = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

/** JSON bodies are not part of the API, but some clients send them; lists stay JSON-encoded. */
function fromJson(text: string): RawParams {
  if (text.trim() === '') return {};
  const shape = jsonShape(text, MAX_FIELDS);
  if (shape.members > MAX_FIELDS) throw tooManyFields();
  let value: unknown;
  try {
    value = parseClientJson(text);
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
        limits: { fieldSize: MAX_BODY_BYTES, fields: MAX_FIELDS, parts: MAX_FIELDS },
      });
    } catch {
      reject(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400));
      return;
    }
    const out: RawParams = {};
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      payload.off('data', onData);
      payload.unpipe(bb);
      payload.resume();
      reject(err);
    };
    // The stream is handed over raw, so Fastify's bodyLimit does not apply: count the bytes here.
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) fail(bodyTooLarge());
    };
    payload.on('data', onData);
    bb.on('field', (name, value) => {
      out[name] = value;
    });
    // Uploads go through their own endpoint; files in other requests are drained and ignored.
    bb.on('file', (_name, stream) => stream.resume());
    bb.on('fieldsLimit', () => fail(tooManyFields()));
    bb.on('partsLimit', () => fail(tooManyFields()));
    bb.on('error', () => fail(new DomainError('Malformed multipart body', 'BAD_REQUEST', 400)));
    bb.on('close', () => {
      if (settled) return;
      settled = true;
      resolve(out);
    });
    payload.pipe(bb);
  });
}

/** A parser that reads the body as it arrives, then decodes it. */
const receiving =
  (countFields: boolean, decode: (text: string) => RawParams) =>
  (
    req: FastifyRequest,
    payload: NodeJS.ReadableStream,
    done: (err: Error | null, body?: RawParams) => void,
  ) => {
    receive(req, payload, countFields).then(
      (text) => {
        let body: RawParams;
        try {
          body = decode(text);
        } catch (err) {
          return done(err as Error);
        }
        done(null, body);
      },
      (err: Error) => done(err),
    );
  };

export function registerBodyParsers(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', receiving(true, fromSearchParams));
  app.addContentTypeParser('application/json', receiving(false, fromJson));
  app.addContentTypeParser('multipart/form-data', (req, payload, done) => {
    parseMultipart(req, payload).then(
      (v) => done(null, v),
      (e) => done(e),
    );
  });
  // Anything else (text/plain, no content type, ...) is read as a form body.
  app.addContentTypeParser('*', receiving(true, fromSearchParams));
}
