import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { rateLimited } from '../domain/errors.js';

interface Window {
  start: number;
  count: number;
}

const windows = new Map<string, Window>();
const WINDOW_MS = 60_000;

/**
 * A fixed one-minute window per user (or per address for anonymous requests), with the headers
 * clients use to pace themselves. Exceeding it answers 429 RATE_LIMIT_HIT with `retry-after`.
 */
export function checkRateLimit(
  ctx: AppContext,
  reply: FastifyReply,
  key: string,
  limit = ctx.config.rateLimitPerMinute,
) {
  const now = Date.now();
  let w = windows.get(key);
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 };
    windows.set(key, w);
    if (windows.size > 50_000) pruneWindows(now);
  }
  w.count++;
  const resetSeconds = Math.ceil((w.start + WINDOW_MS) / 1000);
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - w.count)));
  reply.header('X-RateLimit-Reset', String(resetSeconds));
  if (w.count > limit) {
    const retryAfter = Math.max(0.001, (w.start + WINDOW_MS - now) / 1000);
    reply.header('Retry-After', String(Math.ceil(retryAfter)));
    throw rateLimited(retryAfter);
  }
}

function pruneWindows(now: number) {
  for (const [k, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(k);
}

export function resetRateLimits() {
  windows.clear();
}
