import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/** An error that the API reports in its JSON envelope. Clients switch on `code`, never on `msg`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string = 'BAD_REQUEST',
    readonly status: number = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  envelope(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

export const badRequest = (msg: string, extra: Record<string, unknown> = {}) =>
  new ApiError(msg, 'BAD_REQUEST', 400, extra);

export const missingParam = (name: string) =>
  new ApiError(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name });

export const invalidParam = (name: string, why = `Invalid ${name}`) =>
  new ApiError(why, 'BAD_REQUEST', 400);

/** An unknown stream in a send or an unsubscribe; by name it names the stream, by id it gives `stream_id`. */
export const streamDoesNotExist = (stream: string | number) =>
  typeof stream === 'number'
    ? new ApiError(`Channel with ID '${stream}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream_id: stream })
    : new ApiError(`Channel '${stream}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: stream });

/** An anonymous request where spectators are not allowed. */
export const notLoggedIn = () =>
  new ApiError('Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);

export const notFound = (msg = 'Not Found') => new ApiError(msg, 'NOT_FOUND', 404);

/** An unknown object addressed by id in the path (a draft, a scheduled message): 404, as upstream. */
export const noSuchObject = (msg: string) => new ApiError(msg, 'BAD_REQUEST', 404);

export const unauthorized = (msg: string, code = 'UNAUTHORIZED') => new ApiError(msg, code, 401);

/** Zulip answers permission failures with a plain 400 BAD_REQUEST. */
export const forbidden = (msg = 'Insufficient permission') => new ApiError(msg, 'BAD_REQUEST', 400);

/**
 * Requests Node's HTTP parser refuses before any route runs (headers over 16 KB, which a long
 * GET query string reaches, or garbage on the wire) still get the envelope.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const msg = status === 431 ? 'Request headers too large' : status === 408 ? 'Request timeout' : 'Malformed request';
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
export function frameworkErrorHandler(err: { statusCode?: number; code?: string }, _request: unknown, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const msg = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URL component too long' : 'Malformed URL';
  return reply.code(status).send({ result: 'error', msg, code: 'BAD_REQUEST' });
}
