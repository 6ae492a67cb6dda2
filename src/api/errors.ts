/**
 * The closed set of ways a request can fail. Callers switch on `kind`, and for API errors on
 * `code`, never on `msg`.
 */
export type ApiFailure =
  | { kind: 'network'; message: string }
  | {
      kind: 'api';
      status: number;
      /** BAD_REQUEST when the server sent no code */
      code: string;
      msg: string;
      /** extra fields of the error envelope, such as `var_name`, `stream` or `retry-after` */
      extra: Record<string, unknown>;
    }
  | { kind: 'server'; status: number; message: string }
  | { kind: 'malformed'; status: number; message: string };

/** Thrown by every binding; `failure` says what went wrong. */
export class ApiRequestError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(describeFailure(failure));
    this.name = 'ApiRequestError';
  }

  get code(): string | undefined {
    return this.failure.kind === 'api' ? this.failure.code : undefined;
  }
}

export function describeFailure(failure: ApiFailure): string {
  switch (failure.kind) {
    case 'network':
      return `Could not reach the server (${failure.message})`;
    case 'api':
      return failure.msg || failure.code;
    case 'server':
      return `The server had a problem (HTTP ${failure.status})`;
    case 'malformed':
      return `The server sent an unexpected response (HTTP ${failure.status})`;
  }
}

/** What went wrong with a request, in words for a person; `fallback` for anything else. */
export function errorText(error: unknown, fallback = 'Something went wrong.'): string {
  return error instanceof ApiRequestError ? describeFailure(error.failure) : fallback;
}

export function isApiError(error: unknown, code?: string): error is ApiRequestError {
  return (
    error instanceof ApiRequestError &&
    error.failure.kind === 'api' &&
    (code === undefined || error.failure.code === code)
  );
}

/** Seconds the server asked us to wait before retrying, for RATE_LIMIT_HIT. */
export function retryAfterSeconds(failure: ApiFailure): number | null {
  if (failure.kind !== 'api' || failure.code !== 'RATE_LIMIT_HIT') return null;
  const value = Number(failure.extra['retry-after']);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/** Errors after which retrying the same credentials can never succeed. */
export const AUTH_FAILURE_CODES = [
  'INVALID_API_KEY',
  'USER_DEACTIVATED',
  'REALM_DEACTIVATED',
] as const;
export type AuthFailureCode = (typeof AUTH_FAILURE_CODES)[number];

export function authFailureCode(error: unknown): AuthFailureCode | null {
  if (!(error instanceof ApiRequestError) || error.failure.kind !== 'api') return null;
  const code = error.failure.code;
  return (AUTH_FAILURE_CODES as readonly string[]).includes(code)
    ? (code as AuthFailureCode)
    : null;
}
