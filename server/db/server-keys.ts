import crypto from 'node:crypto';
import {
  KEY_BYTES,
  SERVER_KEY_NAMES,
  dataDirKeys,
  fixedKeys,
  readKeyFile,
  type ServerKeyName,
  type ServerKeys,
} from '../domain/server-keys.js';
import type { Database, DatabaseHandle } from './index.js';

/**
 * The installation's keys (domain/server-keys.ts) where its processes find them: in the
 * database on PostgreSQL, in the data directory on SQLite.
 */
export async function openServerKeys(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  dataDir: string,
): Promise<ServerKeys> {
  return handle.dialect === 'postgres'
    ? databaseKeys(handle.db, (name) => readKeyFile(dataDir, name))
    : dataDirKeys(dataDir);
}

/**
 * Every key, read from the database at start (signing and verifying then need no query). The
 * first process to start makes each: it offers its own, and the database keeps whichever offer
 * came first (ON CONFLICT DO NOTHING), which every process then reads back. The offer is the
 * key the data directory held, when it held one, so that an installation that kept its keys
 * there keeps its avatar URLs when it moves them into the database.
 */
export async function databaseKeys(
  db: Database,
  existing: (name: ServerKeyName) => Buffer | null = () => null,
): Promise<ServerKeys> {
  const keys = new Map<ServerKeyName, Buffer>();
  for (const name of SERVER_KEY_NAMES) {
    const offer = existing(name) ?? crypto.randomBytes(KEY_BYTES);
    await db
      .insertInto('server_keys')
      .values({ name, value: offer.toString('hex') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await db
      .selectFrom('server_keys')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    const key = Buffer.from(row.value, 'hex');
    if (key.length < KEY_BYTES) throw new Error(`The server key ${name} is not a usable key`);
    keys.set(name, key);
  }
  return fixedKeys(keys);
}
