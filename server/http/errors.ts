import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { knownRoutes } from './route.js';
import { notFoundPage } from './static.js';

/*
 * Failures answered in the API's envelope: those that happen before any route runs, the errors
 * routes and actions raise (`DomainError`s, server/domain/errors.ts), and unknown paths.
 */

/**
 * Requests Node's HTTP parser refuses before any route runs (headers over 16 KB, which a long
 * GET query string reaches, or garbage on the wire) still get the envelope.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const msg =
    status === 431
      ? 'Request headers too large'
      : status === 408
        ? 'Request timeout'
        : 'Malformed request';
  const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Paths the router refuses before any route runs (bad %-escapes, over-long segments), in the envelope. */
export function frameworkErrorHandler(
  err: { statusCode?: number; code?: string },
  _request: unknown,
  reply: FastifyReply,
) {
  const status =
    err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const msg = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URL component too long' : 'Malformed URL';
  return reply.code(status).send({ result: 'error', msg, code: 'BAD_REQUEST' });
}

const SQLITE_CANNOT_WRITE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|CORRUPT|NOTADB)/;
const DISK_ERRORS = new Set(['ENOSPC', 'EROFS', 'EDQUOT', 'EIO']);
/** PostgreSQL: connection exceptions (class 08), an administrator or a shutdown ending it. */
const PG_CONNECTION_LOST = /^(08|57P0[1-3])/;
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|ECONNREFUSED|ECONNRESET|Client has encountered a connection error|terminating connection/i;

/**
 * What to tell a client whose request failed because the server's storage failed it: the disk
 * is full or read-only, or the database connection was lost. Nothing of the request was kept
 * (its transaction did not commit); the client may try again. Null for any other error.
 */
export function storageUnavailable(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const code = String((err as { code?: unknown }).code ?? '');
  if (SQLITE_CANNOT_WRITE.test(code) || DISK_ERRORS.has(code))
    return 'The server cannot write to its storage now (the disk is full or read-only); nothing was changed. Try again later.';
  if (PG_CONNECTION_LOST.test(code) || CONNECTION_MESSAGES.test(err.message))
    return 'The server lost its connection to the database; nothing was changed. Try again.';
  if (code === 'PARLEY_QUEUES_UNREACHABLE')
    return 'The server cannot reach its event queues now; nothing was changed. Try again.';
  return null;
}

/**
 * The one error handler of the app: a `DomainError` becomes the envelope with its code and extra
 * fields, Fastify's own refusals of a request (4xx) a BAD_REQUEST, and anything else a logged 500.
 * Unexpected errors go to the request's logger when the app logs through Fastify (`logged`),
 * otherwise to ctx.log.
 */
export function apiErrorHandler(ctx: AppContext, logged: boolean) {
  return (err: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DomainError) {
      // Limits enforced inside actions (password attempts, visitors' streams) get the header
      // clients pace themselves by.
      const retryAfter = err.extra['retry-after'];
      if (
        (err.code === 'RATE_LIMIT_HIT' || err.httpStatus === 503) &&
        typeof retryAfter === 'number' &&
        !reply.hasHeader('Retry-After')
      )
        reply.header('Retry-After', String(Math.ceil(retryAfter)));
      return reply
        .code(err.httpStatus)
        .send({ result: 'error', msg: err.message, code: err.code, ...err.extra });
    }
    const status: number | undefined = err.statusCode;
    if (status && status >= 400 && status < 500) {
      const msg =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'Request body too large'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type'
            : 'Malformed request';
      return reply.code(status).send({ result: 'error', msg, code: 'BAD_REQUEST' });
    }
    const unavailable = storageUnavailable(err);
    if (unavailable) {
      (logged ? request.log : ctx.log).error({ err, req: request }, unavailable);
      reply.header('Retry-After', '5');
      return reply
        .code(503)
        .send({ result: 'error', msg: unavailable, code: 'STORAGE_UNAVAILABLE', 'retry-after': 5 });
    }
    (logged ? request.log : ctx.log).error({ err, req: request }, 'unexpected error');
    return reply
      .code(500)
      .send({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  };
}

/**
 * A path no route matched: under /api, 405 with `Allow` when the path exists for other methods,
 * else 404, in the envelope; elsewhere the not-found page for a browser's GET, the envelope for
 * any other method.
 */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const url = request.url.split('?')[0];
  if (url.startsWith('/api/') || url === '/api') {
    const allowed = knownRoutes.filter((r) => r.pattern.test(url)).map((r) => r.method);
    if (allowed.length) {
      reply.header('Allow', [...new Set(allowed)].join(', '));
      return reply
        .code(405)
        .send({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' });
    }
    return reply.code(404).send({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return reply.code(404).send({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  }
  return notFoundPage(reply);
}
