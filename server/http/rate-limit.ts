import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { rateLimited } from '../domain/errors.js';

export {
  MemoryRateLimits,
  RedisRateLimits,
  resetRateLimits,
  type RateLimitHit,
  type RateLimits,
} from './rate-limit-stores.js';

/**
 * A fixed one-minute window per user (or per address for anonymous requests), with the headers
 * clients use to pace themselves. Exceeding it answers 429 RATE_LIMIT_HIT with `retry-after`.
 */
export async function checkRateLimit(
  ctx: AppContext,
  reply: FastifyReply,
  key: string,
  limit = ctx.config.rateLimitPerMinute,
) {
  const now = Date.now();
  const { count, resetAt } = await ctx.rateLimits.hit(key, limit);
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
  reply.header('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
  if (count > limit) {
    const retryAfter = Math.max(0.001, (resetAt - now) / 1000);
    reply.header('Retry-After', String(Math.ceil(retryAfter)));
    throw rateLimited(retryAfter);
  }
}
