import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { rateLimited, type DomainError } from './errors.js';
import { loadRedis } from '../db/ioredis.js';

/** A password check in progress: it counts as a failure unless it is taken back on success. */
export interface PasswordAttempt {
  succeeded(): Promise<void>;
}

/**
 * Failed password attempts per account (organization and login name), whatever address they come
 * from: at most `limit` within a sliding window, then every attempt, the right password included,
 * is refused with RATE_LIMIT_HIT until the oldest failure leaves the window.
 *
 * An attempt is counted before the password is checked and taken back if it was right, so that a
 * burst of parallel guesses cannot all pass the check before any of them has failed. Successes do
 * not wipe earlier failures (upstream Zulip clears the count on a successful login): the owner
 * logging in from their phone would otherwise hand a guesser a fresh budget, and as only failures
 * count, a person or script that logs in often never locks itself out anyway. Names without an
 * account are counted like the others, so a lock says nothing about who has one.
 */
export interface LoginAttempts {
  begin(realmId: number, loginName: string): Promise<PasswordAttempt>;
  close(): Promise<void>;
}

/** The login name as the account lookup sees it, hashed so that a huge name costs no memory. */
function accountKey(realmId: number, loginName: string): string {
  const digest = crypto.createHash('sha256').update(loginName.trim().toLowerCase()).digest('hex');
  return `${realmId}:${digest}`;
}

function locked(waitMs: number): DomainError {
  return rateLimited(Math.max(0.001, waitMs / 1000));
}

/** Past this many accounts, the least recently tried are forgotten rather than growing without bound. */
const MAX_ACCOUNTS = 100_000;

/** One server process: the attempts live in its memory. */
export class MemoryLoginAttempts implements LoginAttempts {
  /** start times of counted attempts per account, oldest first; map order is least recently tried first */
  private readonly attempts = new Map<string, number[]>();
  private readonly windowMs: number;

  constructor(
    private readonly limit: number,
    windowSeconds: number,
  ) {
    this.windowMs = windowSeconds * 1000;
  }

  async begin(realmId: number, loginName: string): Promise<PasswordAttempt> {
    const key = accountKey(realmId, loginName);
    const now = Date.now();
    const live = (this.attempts.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (live.length >= this.limit) throw locked(live[0]! + this.windowMs - now);
    live.push(now);
    this.attempts.delete(key);
    this.attempts.set(key, live);
    if (this.attempts.size > MAX_ACCOUNTS) this.forget(now);
    return {
      succeeded: async () => {
        const list = this.attempts.get(key);
        const i = list?.lastIndexOf(now) ?? -1;
        if (i >= 0) list!.splice(i, 1);
      },
    };
  }

  private forget(now: number) {
    for (const [key, times] of this.attempts)
      if (times.every((t) => now - t >= this.windowMs)) this.attempts.delete(key);
    for (const key of this.attempts.keys()) {
      if (this.attempts.size <= MAX_ACCOUNTS) break;
      this.attempts.delete(key);
    }
  }

  async close() {}
}

/**
 * Prunes the window, refuses when it is full (answering the milliseconds until its oldest entry
 * leaves), otherwise counts this attempt: one atomic step, however many processes ask at once.
 */
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

/** Several server processes (REDIS_URL): the count is shared, so more processes buy no more guesses. */
export class RedisLoginAttempts implements LoginAttempts {
  private readonly windowMs: number;

  private constructor(
    private readonly redis: Redis,
    private readonly limit: number,
    windowSeconds: number,
    private readonly prefix: string,
  ) {
    this.windowMs = windowSeconds * 1000;
  }

  /** `prefix` starts every key (PARLEY_REDIS_PREFIX). */
  static async connect(
    url: string,
    limit: number,
    windowSeconds: number,
    prefix = 'parley:',
  ): Promise<RedisLoginAttempts> {
    const Redis = await loadRedis(); // only when Redis is configured
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    await redis.connect();
    return new RedisLoginAttempts(redis, limit, windowSeconds, prefix);
  }

  async begin(realmId: number, loginName: string): Promise<PasswordAttempt> {
    const key = `${this.prefix}login-attempts:${accountKey(realmId, loginName)}`;
    const id = `${Date.now()}:${crypto.randomBytes(6).toString('hex')}`;
    const wait = Number(
      await this.redis.eval(BEGIN_SCRIPT, 1, key, Date.now(), this.windowMs, this.limit, id),
    );
    if (wait > 0) throw locked(wait);
    return {
      succeeded: async () => {
        await this.redis.zrem(key, id);
      },
    };
  }

  async close() {
    this.redis.disconnect();
  }
}
