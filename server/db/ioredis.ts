import type { Redis as RedisClient } from 'ioredis';

/**
 * ioredis's client class, loaded only when Redis is configured. In the server's bundle (what
 * `npm start` runs) the package is a CommonJS chunk whose module has a default export only, so
 * `const { Redis } = await import('ioredis')` found nothing there: look in both places. (Not
 * withNamedExports: copying the module's exports would run ioredis's deprecated `Promise`
 * getter, which prints a warning.)
 */
export async function loadRedis(): Promise<typeof RedisClient> {
  const loaded = await import('ioredis');
  const found =
    (loaded as { Redis?: typeof RedisClient }).Redis ??
    (loaded.default as unknown as { Redis?: typeof RedisClient }).Redis;
  if (typeof found !== 'function') throw new Error('the ioredis package has no Redis client');
  return found;
}

/**
 * A package loaded with import() as the tests (tsx) and the bundle both see it: in the bundle, a
 * CommonJS package's module may hold its exports under `default` only.
 */
export function withNamedExports<T extends object>(loaded: T): T {
  const inner = (loaded as { default?: unknown }).default;
  return inner && typeof inner === 'object' ? ({ ...(inner as object), ...loaded } as T) : loaded;
}
