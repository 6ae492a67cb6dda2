import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DiskFileStore,
  isStoreKey,
  type FileStore,
  type StoredFile,
} from '../domain/file-store.js';
import type { Database, DatabaseHandle } from './index.js';

/**
 * Files kept in the database (PARLEY_FILE_STORE=database), so that every server process on it
 * serves every file whatever its own data directory holds. A file's bytes are split in chunks
 * of CHUNK_BYTES, written in one transaction with the file's row and read back one chunk at a
 * time: a download holds one chunk in memory, and a range reads only the chunks it covers.
 */

export const CHUNK_BYTES = 512 * 1024;

interface FileRow {
  id: number;
  key: string;
  size: number;
  created: number;
}

export class DatabaseFileStore implements FileStore {
  readonly kind = 'database';

  /** `toDisk`: makes a commit durable (SQLite's is not by itself; see db/index.ts). */
  constructor(
    private readonly db: Database,
    private readonly toDisk: () => Promise<void> = async () => {},
  ) {}

  /** Nothing to do: the bytes are copied into the database, which makes them durable. */
  async prepare() {}

  async put(key: string, tmpPath: string, within?: Database) {
    checkKey(key);
    if (within) return void (await writeFile(within, key, tmpPath, true));
    await this.db.transaction().execute((trx) => writeFile(trx, key, tmpPath, true));
    await this.toDisk();
  }

  /** Stores the file unless `key` holds one already; whether it did. */
  async putIfAbsent(key: string, file: string): Promise<boolean> {
    checkKey(key);
    const stored = await this.db.transaction().execute((trx) => writeFile(trx, key, file, false));
    await this.toDisk();
    return stored;
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!isStoreKey(key)) return null;
    const row = await this.db
      .selectFrom('stored_files')
      .select(['id', 'key', 'size', 'created'])
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? this.found(row) : null;
  }

  async find(keys: string[]) {
    const valid = keys.filter(isStoreKey);
    if (!valid.length) return null;
    const rows = await this.db
      .selectFrom('stored_files')
      .select(['id', 'key', 'size', 'created'])
      .where('key', 'in', valid)
      .execute();
    for (const key of valid) {
      const row = rows.find((r) => r.key === key);
      if (row) return { key, file: this.found(row) };
    }
    return null;
  }

  async remove(key: string) {
    await this.db.transaction().execute((trx) => removeRows(trx, key));
    await this.toDisk();
  }

  private found(row: FileRow): StoredFile {
    return {
      size: row.size,
      modified: new Date(row.created * 1000),
      open: (start = 0, end = row.size - 1) => chunkStream(this.db, row.id, start, end),
    };
  }
}

function checkKey(key: string) {
  if (!isStoreKey(key)) throw new Error(`Not a file store key: ${key}`);
}

async function removeRows(db: Database, key: string) {
  const row = await db
    .selectFrom('stored_files')
    .select('id')
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return;
  await db.deleteFrom('stored_file_chunks').where('file_id', '=', row.id).execute();
  await db.deleteFrom('stored_files').where('id', '=', row.id).execute();
}

/**
 * The file's row and its chunks, in the caller's transaction. `replace`: what `key` held goes;
 * otherwise a key that holds a file already is left as it is (false). Two processes replacing
 * one key at once (a person's avatar, sent twice) keep the first to commit: the other's insert
 * waits for it and then finds the key taken.
 */
async function writeFile(
  db: Database,
  key: string,
  file: string,
  replace: boolean,
): Promise<boolean> {
  if (replace) await removeRows(db, key);
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const row = await db
      .insertInto('stored_files')
      .values({ key, size, created: Math.floor(Date.now() / 1000) })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size));
    let written = 0;
    for (let seq = 0; written < size; seq++) {
      const length = await readFully(handle, buffer, written);
      if (length === 0) break;
      const data = Buffer.from(buffer.subarray(0, length));
      await db.insertInto('stored_file_chunks').values({ file_id: row.id, seq, data }).execute();
      written += length;
    }
    // The file shrank while it was read: storing it would promise bytes that are not there.
    if (written !== size) throw new Error(`${file} changed while it was being stored`);
    return true;
  } finally {
    await handle.close();
  }
}

/** Fills `buffer` from `position` unless the file ends first; the bytes read. */
async function readFully(handle: fs.promises.FileHandle, buffer: Buffer, position: number) {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position);
    if (bytesRead === 0) break;
    filled += bytesRead;
    position += bytesRead;
  }
  return filled;
}

/**
 * The bytes from `start` to `end` (included) of a stored file, a chunk fetched only when the
 * reader wants more. A chunk found missing (the file was removed or replaced meanwhile) ends the
 * stream with an error, never with other bytes.
 */
function chunkStream(db: Database, fileId: number, start: number, end: number): Readable {
  let seq = Math.floor(start / CHUNK_BYTES);
  const last = end < start ? seq - 1 : Math.floor(end / CHUNK_BYTES);
  return new Readable({
    read() {
      if (seq > last) return void this.push(null);
      const at = seq++;
      db.selectFrom('stored_file_chunks')
        .select('data')
        .where('file_id', '=', fileId)
        .where('seq', '=', at)
        .executeTakeFirst()
        .then((row) => {
          if (!row) throw new Error(`Chunk ${at} of stored file ${fileId} is missing`);
          const from = at * CHUNK_BYTES;
          const data = Buffer.from(row.data);
          this.push(
            data.subarray(Math.max(0, start - from), Math.min(data.length, end - from + 1)),
          );
        })
        .catch((error: Error) => this.destroy(error));
    },
  });
}

/**
 * Moves the files a data directory kept before the database store was chosen (uploads, avatars,
 * custom emoji) into the database, once, at start: each is stored unless its key holds a file
 * already, and removed from the disk once that has committed, so that an interrupted move goes
 * on at the next start and no file is lost or stored twice. Returns the number moved.
 */
export async function moveIntoDatabase(store: DatabaseFileStore, dataDir: string) {
  const disk = new DiskFileStore(dataDir);
  let moved = 0;
  for (const top of ['uploads', 'avatars']) {
    for (const key of filesUnder(dataDir, top)) {
      const file = disk.pathOf(key);
      if (!file) continue;
      if (await store.putIfAbsent(key, file)) moved++;
      await fs.promises.rm(file, { force: true });
    }
  }
  return moved;
}

/** The keys of the regular files under `<dataDir>/<top>`, files being received left out. */
function filesUnder(dataDir: string, top: string): string[] {
  const root = path.join(dataDir, top);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)))
    .map((relative) => relative.split(path.sep).join('/'))
    .filter((key) => !key.startsWith('uploads/.incoming/'));
}

/** The file store the configuration chose, on the opened database. */
export function openFileStore(
  kind: FileStore['kind'],
  dataDir: string,
  handle: Pick<DatabaseHandle, 'db' | 'toDisk'>,
): FileStore {
  return kind === 'database'
    ? new DatabaseFileStore(handle.db, handle.toDisk)
    : new DiskFileStore(dataDir);
}
