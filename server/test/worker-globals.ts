/**
 * Set-up for the server test files that share workers (vite.config.ts): a file that leaves one of
 * the platform's globals replaced fails, named, rather than breaking whichever file runs after it
 * in the same worker. zulip-js, for one, sets a `FormData` without `set` (isomorphic-form-data).
 * Such a file restores what it changed, or runs in a worker of its own (ISOLATED_SERVER_TESTS).
 */
import { afterAll } from 'vitest';

const KEYS = [
  'FormData',
  'fetch',
  'Blob',
  'File',
  'Headers',
  'Request',
  'Response',
  'URL',
  'URLSearchParams',
  'AbortController',
  'TextEncoder',
  'TextDecoder',
  'setTimeout',
  'setInterval',
  'Date',
] as const;

type Snapshot = Record<string, unknown>;
const slot = Symbol.for('parley.test.worker-globals');
const holder = globalThis as unknown as Record<symbol, Snapshot | undefined>;
const snapshot = (): Snapshot => ({
  ...Object.fromEntries(KEYS.map((key) => [key, globalThis[key]])),
  'Date.now': Date.now,
});
// The first file in a worker takes the snapshot; every later one is held to it.
const original = (holder[slot] ??= snapshot());

afterAll(() => {
  const now = snapshot();
  const changed = Object.keys(original).filter((key) => now[key] !== original[key]);
  if (changed.length)
    throw new Error(
      `this file left ${changed.join(', ')} replaced for the files after it in its worker: ` +
        'restore them, or list the file in ISOLATED_SERVER_TESTS (vite.config.ts)',
    );
});
