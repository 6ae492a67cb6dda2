/**
 * The errors the domain reports, as the reference server's `JsonableError`: a `code` clients
 * switch on, a message, extra fields that travel with it (`var_name`, `stream`, `retry-after`...),
 * and the HTTP status it implies, which upstream also keeps on the error (`http_status_code`).
 * Nothing here knows how a reply is written: `server/http/errors.ts` turns these into the envelope.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: string = 'BAD_REQUEST',
    readonly httpStatus: number = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, extra: Record<string, unknown> = {}) =>
  new DomainError(msg, 'BAD_REQUEST', 400, extra);

export const missingParam = (name: string) =>
  new DomainError(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, {
    var_name: name,
  });

export const invalidParam = (name: string, why = `Invalid ${name}`) =>
  new DomainError(why, 'BAD_REQUEST', 400);

/** An unknown stream in a send or an unsubscribe; by name it names the stream, by id it gives `stream_id`. */
export const streamDoesNotExist = (stream: string | number) =>
  typeof stream === 'number'
    ? new DomainError(`Channel with ID '${stream}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, {
        stream_id: stream,
      })
    : new DomainError(`Channel '${stream}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, {
        stream: stream,
      });

/** An anonymous request where spectators are not allowed. */
export const notLoggedIn = () =>
  new DomainError(
    'Not logged in: API authentication or user session required',
    'UNAUTHORIZED',
    401,
  );

export const notFound = (msg = 'Not Found') => new DomainError(msg, 'NOT_FOUND', 404);

/** An unknown object addressed by id in the path (a draft, a scheduled message): 404, as upstream. */
export const noSuchObject = (msg: string) => new DomainError(msg, 'BAD_REQUEST', 404);

export const unauthorized = (msg: string, code = 'UNAUTHORIZED') => new DomainError(msg, code, 401);

/** Zulip answers permission failures with a plain 400 BAD_REQUEST. */
export const forbidden = (msg = 'Insufficient permission') =>
  new DomainError(msg, 'BAD_REQUEST', 400);

/** Authentication and login both refuse a deactivated organization or account with these. */
export const realmDeactivated = () =>
  new DomainError('This organization has been deactivated', 'REALM_DEACTIVATED', 401);

export const userDeactivated = () =>
  new DomainError('Account is deactivated', 'USER_DEACTIVATED', 401);

/** Too many attempts: `retryAfterSeconds` goes out as the `retry-after` field (and header). */
export const rateLimited = (retryAfterSeconds: number) =>
  new DomainError('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429, {
    'retry-after': retryAfterSeconds,
  });
