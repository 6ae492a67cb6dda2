import crypto from 'node:crypto';
import type { ServerKeys } from './server-keys.js';

/**
 * Where a person's avatar is served: `/user_avatars/<realm_id>/<user_id>-<version>-<mac>`, the
 * reference server's directory with a name nobody can guess. The MAC is keyed with a secret of
 * the installation over the realm, the person and the avatar's version, so each upload (each
 * version) gets a new path, and knowing one path tells nothing of another. The files are public,
 * as upstream's are, so that an <img> shows them without credentials; walking ids finds nothing.
 */

const MAC_HEX = 32;
const FILE = /^(\d{1,10})-(\d{1,10})-([0-9a-f]{32})$/;

function mac(keys: ServerKeys, realmId: number, userId: number, version: number): string {
  return crypto
    .createHmac('sha256', keys.key('avatar-path.key'))
    .update(`avatar/${realmId}/${userId}/${version}`)
    .digest('hex')
    .slice(0, MAC_HEX);
}

/** Paths computed recently, per installation's keys: every message record carries its sender's. */
const knownByKeys = new WeakMap<ServerKeys, Map<string, string>>();
const MAX_KNOWN = 10_000;

export function avatarPath(
  keys: ServerKeys,
  realmId: number,
  userId: number,
  version: number,
): string {
  let known = knownByKeys.get(keys);
  if (!known) knownByKeys.set(keys, (known = new Map()));
  const key = `${realmId}/${userId}/${version}`;
  let found = known.get(key);
  if (found === undefined) {
    found = `/user_avatars/${realmId}/${userId}-${version}-${mac(keys, realmId, userId, version)}`;
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(key, found);
  }
  return found;
}

/** The person and avatar version a file name under `/user_avatars/<realm_id>/` was made for, if any. */
export function avatarPathOwner(
  keys: ServerKeys,
  realmId: number,
  file: string,
): { userId: number; version: number } | null {
  const m = FILE.exec(file);
  if (!m) return null;
  const userId = Number(m[1]);
  const version = Number(m[2]);
  const expected = Buffer.from(mac(keys, realmId, userId, version));
  if (!crypto.timingSafeEqual(expected, Buffer.from(m[3]!))) return null;
  return { userId, version };
}
