import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The embedded database inside the data directory, and the files SQLite keeps beside it. */
export const SQLITE_FILE = 'parley.sqlite3';
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'].map((suffix) => SQLITE_FILE + suffix);
/**
 * The directory's lock: a small SQLite database that its owner holds an exclusive lock on (the
 * operating system's file lock, released when the process ends, however it ends).
 */
export const LOCK_FILE = 'parley.lock';
/** The owner's pid, written beside the lock for the message a second server gets; never trusted. */
export const LOCK_PID_FILE = 'parley.lock.pid';
const SQLITE_HEADER = 'SQLite format 3\0';
/** The event queues a graceful stop leaves for the next start (events/persist.ts): not data. */
export const QUEUES_FILE = 'event-queues.json';
/** Copies made before a migration changed the schema (pre-migration.ts). */
export const BACKUPS_DIR = 'backups';

export class DataDirLockedError extends Error {}

/**
 * Only one server process may own an SQLite data directory: a second one would see a consistent
 * database but keep its own in-memory event queues and write the same files. A restore takes it
 * too, so that no server starts on a directory half put back. Returns the release.
 *
 * The lock is the operating system's: the owner keeps an SQLite database (LOCK_FILE) open in
 * exclusive locking mode with a write made, so SQLite holds an exclusive file lock on it for as
 * long as the connection is open; the kernel drops it when the process ends, also by `kill -9`
 * or a power cut. No pid decides anything: right after a crash the dead process's pid can still
 * look alive, and after a reboot another process may have it.
 */
export function lockDataDir(dir: string): () => void {
  const lockPath = path.join(dir, LOCK_FILE);
  const pidPath = path.join(dir, LOCK_PID_FILE);
  clearPidLock(dir, lockPath);
  const db = new Database(lockPath, { timeout: 0 });
  try {
    db.pragma('journal_mode = MEMORY');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec(
      'BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS owner (pid INTEGER); DELETE FROM owner; ' +
        `INSERT INTO owner VALUES (${Number(process.pid)}); COMMIT`,
    );
  } catch (err: any) {
    db.close();
    if (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED') {
      const owner = readPid(pidPath);
      throw new DataDirLockedError(
        `Another Parley server${owner ? ` (pid ${owner})` : ''} is already using the data ` +
          `directory ${dir}. Stop it first, or set PARLEY_DATA_DIR to another directory.`,
      );
    }
    throw err;
  }
  fs.writeFileSync(pidPath, String(process.pid));
  return () => {
    try {
      if (readPid(pidPath) === process.pid) fs.unlinkSync(pidPath);
    } catch {
      /* already gone */
    }
    db.close();
  };
}

function readPid(pidPath: string): number | null {
  try {
    return Number(fs.readFileSync(pidPath, 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

/**
 * A lock file of the versions before the operating system's lock held a pid as text: a live
 * process of such a version still owns the directory; a dead one's file is removed.
 */
function clearPidLock(dir: string, lockPath: string) {
  let head: string;
  try {
    head = fs.readFileSync(lockPath).subarray(0, 16).toString('latin1');
  } catch {
    return; // none
  }
  if (head.length === 0 || head === SQLITE_HEADER) return;
  const owner = Number(head.trim());
  if (owner && owner !== process.pid && isAlive(owner))
    throw new DataDirLockedError(
      `Another Parley server (pid ${owner}) is already using the data directory ${dir}. ` +
        `Stop it first, or set PARLEY_DATA_DIR to another directory.`,
    );
  fs.rmSync(lockPath, { force: true });
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
