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

export const streamDoesNotExist = (stream: string | number) =>
  new ApiError(
    typeof stream === 'number' ? `Invalid channel ID` : `Channel '${stream}' does not exist`,
    'STREAM_DOES_NOT_EXIST',
    400,
    { stream: String(stream) },
  );

export const notFound = (msg = 'Not Found') => new ApiError(msg, 'NOT_FOUND', 404);

export const unauthorized = (msg: string, code = 'UNAUTHORIZED') => new ApiError(msg, code, 401);

/** Zulip answers permission failures with a plain 400 BAD_REQUEST. */
export const forbidden = (msg = 'Insufficient permission') => new ApiError(msg, 'BAD_REQUEST', 400);
