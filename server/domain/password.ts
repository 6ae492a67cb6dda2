import crypto from 'node:crypto';

const MAX_MEMORY = 256 * 1024 * 1024;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** Looked up on every call (not bound once) so that tests can watch the hashing work being done. */
function scrypt(
  password: string,
  salt: Buffer,
  length: number,
  params: ScryptParams,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, length, { ...params, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt, memory-hard: N=16384, r=8 needs 16 MiB per hash. Format: scrypt$N$r$p$salt$hash */
export async function hashPassword(password: string, cost = 16384): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, { N: cost, r: 8, p: 1 });
  return ['scrypt', cost, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface StoredHash {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

/** A stored hash we can check against, or null (none, another scheme, or parameters scrypt would refuse). */
function parseStoredHash(stored: string | null): StoredHash | null {
  const [scheme, n, r, p, saltB64, hashB64, ...rest] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || rest.length || !saltB64 || !hashB64) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const powerOfTwo =
    Number.isInteger(params.N) && params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (
    !powerOfTwo ||
    params.N > 1 << 20 ||
    !(params.r >= 1 && params.r <= 32) ||
    !(params.p >= 1 && params.p <= 16)
  )
    return null;
  const hash = Buffer.from(hashB64, 'base64');
  if (hash.length < 16 || hash.length > 64) return null;
  return { params, salt: Buffer.from(saltB64, 'base64'), hash };
}

const DUMMY_SALT = crypto.randomBytes(16);

/**
 * Whether `password` matches the stored hash. With no usable hash (no such account, a bot) it
 * still runs scrypt once at `cost`, the cost new hashes get, so that a refusal takes as long
 * whether or not the account exists and timing tells nobody who has one.
 */
export async function verifyPassword(
  password: string,
  stored: string | null,
  cost = 16384,
): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) {
    await scrypt(password, DUMMY_SALT, 32, { N: cost, r: 8, p: 1 });
    return false;
  }
  const actual = await scrypt(password, parsed.salt, parsed.hash.length, parsed.params);
  return crypto.timingSafeEqual(actual, parsed.hash);
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 characters drawn uniformly from 62 with rejection sampling: about 190 bits. */
export function generateApiKey(): string {
  let key = '';
  while (key.length < 32) {
    for (const byte of crypto.randomBytes(48)) {
      if (byte < 248 && key.length < 32) key += KEY_ALPHABET[byte % 62];
    }
  }
  return key;
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab); // same work either way
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

/** The reference server's defaults (`password_min_length`, `password_max_length` in /register). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 100;

/**
 * Why a new password is refused, in words a person can act on, or null when it may be used: the
 * one rule for sign-up, a password change and the management commands.
 */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `The password is too short (at least ${PASSWORD_MIN_LENGTH} characters).`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password is too long (at most ${PASSWORD_MAX_LENGTH} characters).`;
  return null;
}
