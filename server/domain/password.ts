import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: crypto.ScryptOptions,
) => Promise<Buffer>;

/** scrypt, memory-hard: N=16384, r=8 needs 16 MiB per hash. Format: scrypt$N$r$p$salt$hash */
export async function hashPassword(password: string, cost = 16384): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, { N: cost, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
  return ['scrypt', cost, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  });
  return crypto.timingSafeEqual(actual, expected);
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
