/** Where requests are counted against the rate limits (rate-limit.ts applies them). */
import type { Redis } from 'ioredis';
import { loadRedis, withNamedExports } from '../db/ioredis.js';

export const WINDOW_MS = 60_000;

/** One request counted in its window: how many so far, and when the window ends (ms). */
export interface RateLimitHit {
  count: number;
  resetAt: number;
}

/**
 * Where requests are counted: in this process's memory alone, or in Redis, so that several
 * processes behind one load balancer allow a person the limit once, not once each.
 */
export interface RateLimits {
  hit(key: string, limit: number): RateLimitHit | Promise<RateLimitHit>;
  close(): Promise<void>;
}

interface Window {
  start: number;
  count: number;
}

const windows = new Map<string, Window>();

/** A fixed one-minute window per key, in this process. */
export class MemoryRateLimits implements RateLimits {
  hit(key: string): RateLimitHit {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      windows.set(key, w);
      if (windows.size > 50_000) pruneWindows(now);
    }
    w.count++;
    return { count: w.count, resetAt: w.start + WINDOW_MS };
  }

  async close() {}
}

function pruneWindows(now: number) {
  for (const [k, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(k);
}

/**
 * The same windows, counted in Redis by rate-limiter-flexible (one limiter per limit, since a
 * limiter has one), with the memory windows standing in while Redis cannot be reached: a Redis
 * outage makes the limits per process for a while, never refuses or fails a request.
 */
export class RedisRateLimits implements RateLimits {
  private readonly limiters = new Map<number, import('rate-limiter-flexible').RateLimiterRedis>();

  private constructor(
    private readonly redis: Redis,
    private readonly flexible: typeof import('rate-limiter-flexible'),
    private readonly prefix: string,
  ) {}

  /** `prefix` starts every key (PARLEY_REDIS_PREFIX). */
  static async connect(url: string, prefix = 'parley:'): Promise<RedisRateLimits> {
    const Redis = await loadRedis(); // only when Redis is configured
    const flexible = withNamedExports(await import('rate-limiter-flexible'));
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => {}); // the insurance limiter answers meanwhile; ioredis reconnects
    await redis.connect();
    return new RedisRateLimits(redis, flexible, prefix);
  }

  private limiter(limit: number) {
    let limiter = this.limiters.get(limit);
    if (!limiter) {
      const duration = WINDOW_MS / 1000;
      limiter = new this.flexible.RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}rate:${limit}`,
        points: limit,
        duration,
        insuranceLimiter: new this.flexible.RateLimiterMemory({ points: limit, duration }),
      });
      this.limiters.set(limit, limiter);
    }
    return limiter;
  }

  async hit(key: string, limit: number): Promise<RateLimitHit> {
    let result: import('rate-limiter-flexible').RateLimiterRes;
    try {
      result = await this.limiter(limit).consume(key);
    } catch (refused) {
      // Over the limit: the limiter answers with the same record, rejected.
      if (!(refused instanceof this.flexible.RateLimiterRes)) throw refused;
      result = refused;
    }
    return { count: result.consumedPoints, resetAt: Date.now() + result.msBeforeNext };
  }

  async close() {
    this.redis.disconnect();
  }
}

/** Forgets this process's windows (tests). */
export function resetRateLimits() {
  windows.clear();
}
