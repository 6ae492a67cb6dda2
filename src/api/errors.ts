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

/** The words for failures; the interface installs its translations (src/i18n) at start. */
export type FailureWords = {
  network(detail: string): string;
  server(status: number): string;
  malformed(status: number): string;
  fallback(): string;
};

let words: FailureWords = {
  network: (detail) => `Could not reach the server (${detail})`,
  server: (status) => `The server had a problem (HTTP ${status})`,
  malformed: (status) => `The server sent an unexpected response (HTTP ${status})`,
  fallback: () => 'Something went wrong.',
};

export function setFailureWords(translated: FailureWords): void {
  words = translated;
}

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
      return words.network(failure.message);
    case 'api':
      return failure.msg || failure.code;
    case 'server':
      return words.server(failure.status);
    case 'malformed':
      return words.malformed(failure.status);
  }
}

/** What went wrong with a request, in words for a person; `fallback` for anything else. */
export function errorText(error: unknown, fallback?: string): string {
  if (error instanceof ApiRequestError) return describeFailure(error.failure);
  return fallback ?? words.fallback();
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
