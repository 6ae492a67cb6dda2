import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenFirstUsed } from './when-first-used';

beforeEach(() => {
  vi.useFakeTimers();
  // jsdom has no requestIdleCallback: the fallback is a short timer.
  vi.stubGlobal('requestIdleCallback', undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenFirstUsed', () => {
  it('does nothing on a page nobody touches', () => {
    const work = vi.fn();
    const cancel = whenFirstUsed(work);
    vi.advanceTimersByTime(60_000);
    expect(work).not.toHaveBeenCalled();
    cancel();
  });

  it('runs once, soon after the first key or pointer move', () => {
    const work = vi.fn();
    const cancel = whenFirstUsed(work);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j' }));
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    window.dispatchEvent(new Event('pointermove'));
    vi.advanceTimersByTime(1000);
    expect(work).toHaveBeenCalledTimes(1);
    cancel();
  });

  it('is cancelled with the page that asked for it', () => {
    const work = vi.fn();
    whenFirstUsed(work)();
    window.dispatchEvent(new Event('pointermove'));
    vi.advanceTimersByTime(1000);
    expect(work).not.toHaveBeenCalled();

    const later = vi.fn();
    const cancel = whenFirstUsed(later);
    window.dispatchEvent(new Event('wheel'));
    cancel();
    vi.advanceTimersByTime(1000);
    expect(later).not.toHaveBeenCalled();
  });
});
