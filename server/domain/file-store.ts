import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Database } from '../db/index.js';

/**
 * Where the files people upload are kept: uploads, avatars and custom emoji images. Each is named
 * by a key, its path in the data directory's layout (`uploads/<path_id>`,
 * `avatars/<realm_id>/users/<user_id>.<ext>`, `avatars/<realm_id>/emoji/images/<id>.<ext>`), so
 * that the disk store keeps the directory exactly as it always was and the database store
 * (db/file-store.ts) names files the same way, which lets it take a directory's files over.
 */

/** A stored file, found. */
export interface StoredFile {
  size: number;
  /** when it was stored: its Last-Modified, and part of its ETag */
  modified: Date;
  /** on disk: the file itself, which @fastify/send serves with ranges and conditional requests */
  path?: string;
  /** its bytes from `start` to `end`, both included (by default all of them) */
  open(start?: number, end?: number): Readable;
}

export interface FileStore {
  readonly kind: 'disk' | 'database';
  /**
   * Makes a received file durable where this store needs it to be, before a `put` that must be
   * quick because it runs under the write lock (the disk store syncs it; the database copies it).
   */
  prepare(tmpPath: string): Promise<void>;
  /**
   * Stores the received file at `key`, replacing what was there; the temporary file is gone or
   * left to its owner to remove. `within`: the database transaction to write in, when the
   * database store is to commit the file with the rows that name it.
   */
  put(key: string, tmpPath: string, within?: Database): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /** The first of `keys` that is stored, in their order. */
  find(keys: string[]): Promise<{ key: string; file: StoredFile } | null>;
  remove(key: string): Promise<void>;
}

/**
 * Whether `key` names a file inside the store: relative, and without an empty, `.` or `..`
 * segment or a NUL, so that it can neither leave the data directory nor name one file two ways.
 */
export function isStoreKey(key: string): boolean {
  return (
    !key.includes('\u0000') && !key.split('/').some((p) => p === '' || p === '.' || p === '..')
  );
}

/** Writes the file's data to the disk before anything that promises it exists. */
export async function syncFile(file: string) {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Files in the data directory, as they have always been kept. */
export class DiskFileStore implements FileStore {
  readonly kind = 'disk';

  private readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = path.resolve(dataDir);
  }

  /** The absolute path of a key, or null for one that would leave the data directory. */
  pathOf(key: string): string | null {
    if (!isStoreKey(key)) return null;
    const full = path.resolve(this.dataDir, key);
    return full.startsWith(this.dataDir + path.sep) ? full : null;
  }

  prepare(tmpPath: string) {
    return syncFile(tmpPath);
  }

  /** Synced, then renamed into place: a file at its key is always whole. */
  async put(key: string, tmpPath: string) {
    const target = this.pathOf(key);
    if (!target) throw new Error(`Not a file store key: ${key}`);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await syncFile(tmpPath);
    await fs.promises.rename(tmpPath, target);
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.pathOf(key);
    const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
    if (!file || !stat?.isFile()) return null;
    return {
      size: stat.size,
      modified: stat.mtime,
      path: file,
      open: (start, end) => fs.createReadStream(file, { start, end }),
    };
  }

  async find(keys: string[]) {
    for (const key of keys) {
      const file = await this.get(key);
      if (file) return { key, file };
    }
    return null;
  }

  async remove(key: string) {
    const file = this.pathOf(key);
    if (file) await fs.promises.rm(file, { force: true });
  }
}
