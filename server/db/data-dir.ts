import fs from 'node:fs';
import path from 'node:path';

/** The embedded database inside the data directory, and the files SQLite keeps beside it. */
export const SQLITE_FILE = 'parley.sqlite3';
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'].map((suffix) => SQLITE_FILE + suffix);
/** Holds the pid of the server (or restore) that owns the directory. */
export const LOCK_FILE = 'parley.lock';
/** The event queues a graceful stop leaves for the next start (events/persist.ts): not data. */
export const QUEUES_FILE = 'event-queues.json';
/** Copies made before a migration changed the schema (pre-migration.ts). */
export const BACKUPS_DIR = 'backups';

export class DataDirLockedError extends Error {}

/**
 * Only one server process may own an SQLite data directory: a second one would see a consistent
 * database but keep its own in-memory event queues and write the same files. A restore takes it
 * too, so that no server starts on a directory half put back. The lock file holds the owner's
 * pid; a lock left behind by a dead process is taken over. Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err: any) {
      if (err.code !== 'EEXIST') throw err;
      const owner = lockOwner(dir);
      if (owner !== null) {
        throw new DataDirLockedError(
          `Another Parley server (pid ${owner}) is already using the data directory ${dir}. ` +
            `Stop it first, or set PARLEY_DATA_DIR to another directory.`,
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock from a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}`);
}

/** The pid of the live process holding the directory's lock, or null when none does. */
export function lockOwner(dir: string): number | null {
  let owner: number;
  try {
    owner = Number(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  return owner && isAlive(owner) ? owner : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err.code === 'EPERM';
  }
}

/** A timestamp that sorts as it reads and fits in a file name: 20250102T030405Z. */
export function fileTimestamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}
