import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets of this installation, one per purpose: they sign temporary upload URLs and name avatar
 * files. Every server process that serves the installation must hold the same ones, and keep them
 * across restarts, or a URL one process made is refused by another. With SQLite (one process)
 * they live in `<dataDir>/secrets/<name>`; with PostgreSQL in the database (db/server-keys.ts),
 * since processes there share no directory.
 */
export const SERVER_KEY_NAMES = ['upload-url.key', 'avatar-path.key'] as const;
export type ServerKeyName = (typeof SERVER_KEY_NAMES)[number];

export interface ServerKeys {
  key(name: ServerKeyName): Buffer;
}

/** Bytes of a new key. */
export const KEY_BYTES = 32;

const secretsDir = (dataDir: string) => path.join(dataDir, 'secrets');

/** The key a data directory holds already, if any (null: none, or not a usable one). */
export function readKeyFile(dataDir: string, name: ServerKeyName): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(secretsDir(dataDir), name), 'utf8');
  } catch {
    return null;
  }
  const key = Buffer.from(text.trim(), 'hex');
  return key.length >= KEY_BYTES ? key : null;
}

/** Keys of a data directory, made on first use and kept there. */
export function dataDirKeys(dataDir: string): ServerKeys {
  return { key: (name) => dataDirKey(dataDir, name) };
}

const keys = new Map<string, Buffer>();

function dataDirKey(dataDir: string, name: ServerKeyName): Buffer {
  const dir = secretsDir(dataDir);
  const file = path.join(dir, name);
  let key = keys.get(file);
  if (key) return key;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    // Written aside and linked into place: another process sharing the directory sees the whole
    // key or none, and the first link wins.
    const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, crypto.randomBytes(KEY_BYTES).toString('hex'), { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (err: any) {
      if (err.code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  key = readKeyFile(dataDir, name) ?? undefined;
  if (!key) throw new Error(`${file} does not hold a usable key`);
  keys.set(file, key);
  return key;
}

/** Keys already read (from the database), by name. */
export function fixedKeys(values: ReadonlyMap<ServerKeyName, Buffer>): ServerKeys {
  return {
    key(name) {
      const key = values.get(name);
      if (!key) throw new Error(`No server key named ${name} was loaded`);
      return key;
    },
  };
}
