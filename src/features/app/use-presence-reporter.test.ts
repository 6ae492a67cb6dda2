import { describe, expect, it } from 'vitest';
import { presenceFor } from './use-presence-reporter';

describe('presence reports', () => {
  it('is active only with focus and recent input', () => {
    const now = 1_000_000_000;
    expect(presenceFor(true, now - 1000, now)).toBe('active');
    expect(presenceFor(false, now - 1000, now)).toBe('idle');
    expect(presenceFor(true, now - 6 * 60_000, now)).toBe('idle');
  });
});
