import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/*
 * Failures that happen before any route runs, answered in the API's envelope. The errors routes
 * and actions raise are `DomainError`s (server/domain/errors.ts), mapped in `server/app.ts`.
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
