import { describe, expect, it } from 'vitest';
import { ApiRequestError, errorText } from './errors';

describe('errorText', () => {
  it("gives the server's words for API errors and the fallback for anything else", () => {
    const api = new ApiRequestError({
      kind: 'api',
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid channel ID',
      extra: {},
    });
    expect(errorText(api)).toBe('Invalid channel ID');
    expect(errorText(new ApiRequestError({ kind: 'network', message: 'offline' }))).toBe(
      'Could not reach the server (offline)',
    );
    expect(errorText(new Error('boom'))).toBe('Something went wrong.');
    expect(errorText(new Error('boom'), 'Could not save.')).toBe('Could not save.');
  });
});
