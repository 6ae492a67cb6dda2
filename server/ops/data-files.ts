import fs from 'node:fs';
import path from 'node:path';
import {
  BACKUPS_DIR,
  LOCK_FILE,
  LOCK_PID_FILE,
  QUEUES_FILE,
  SQLITE_FILE,
  SQLITE_SIDE_FILES,
  fileTimestamp,
} from '../db/data-dir.js';

/**
 * The files of a data directory that a backup carries: everything a server wrote there (uploads,
 * avatars and custom emoji with the disk file store, the keys on SQLite, whatever comes later;
 * the database file store's files and PostgreSQL's keys are in the database's copy)
 * except the database, which is copied through its own means, and what is not data: the lock,
 * files still being received, copies made before migrations, and the work and set-aside
 * directories of backups and restores.
 */
const SKIPPED_AT_TOP = new Set([
  SQLITE_FILE,
  ...SQLITE_SIDE_FILES,
  LOCK_FILE,
  LOCK_PID_FILE,
  QUEUES_FILE,
  BACKUPS_DIR,
]);
const SKIPPED_PREFIXES = ['before-restore-', '.backup-', '.restore-'];
const SKIPPED_INSIDE = new Set([path.join('uploads', '.incoming')]);

export function isDataEntry(name: string): boolean {
  return !SKIPPED_AT_TOP.has(name) && !SKIPPED_PREFIXES.some((p) => name.startsWith(p));
}

/** The data directory's top-level entries that are data. */
export function dataEntries(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(isDataEntry).sort();
}

/**
 * Mirrors the data files into `into` with hard links: instant, no extra space, and immune to a
 * server that deletes or replaces a file meanwhile (uploads are written aside and renamed into
 * place, so a linked file is always whole). Where a link cannot be made (another file system) the
 * file is copied. Returns the number of files.
 */
export function linkDataFiles(dataDir: string, into: string): number {
  let files = 0;
  const walk = (relative: string) => {
    const from = path.join(dataDir, relative);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(from, { withFileTypes: true });
    } catch (err: any) {
      if (err.code === 'ENOENT') return; // removed while we walked
      throw err;
    }
    fs.mkdirSync(path.join(into, relative), { recursive: true });
    for (const entry of entries) {
      const child = path.join(relative, entry.name);
      if (relative === '' && !isDataEntry(entry.name)) continue;
      if (SKIPPED_INSIDE.has(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && linkOrCopy(path.join(dataDir, child), path.join(into, child)))
        files++;
    }
  };
  walk('');
  return files;
}

function linkOrCopy(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (err: any) {
    if (err.code === 'ENOENT') return false; // deleted since the directory was read
    if (!['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP'].includes(err.code)) throw err;
  }
  try {
    fs.copyFileSync(from, to);
    return true;
  } catch (err: any) {
    if (err.code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Moves the data directory's current contents (database included, lock and earlier set-aside
 * directories not) into `<dir>/before-restore-<time>/`. Inside the data directory, because its
 * parent may not be writable (a service's /var/lib/parley) and a rename within it never copies.
 * Returns the set-aside directory, or null when there was nothing to move.
 */
export function setAside(dir: string, keep: string[]): string | null {
  const entries = fs
    .readdirSync(dir)
    .filter(
      (name) => name !== LOCK_FILE && name !== LOCK_PID_FILE && !name.startsWith('before-restore-'),
    )
    .filter((name) => !keep.includes(name));
  if (!entries.length) return null;
  const aside = path.join(dir, `before-restore-${fileTimestamp()}`);
  fs.mkdirSync(aside);
  for (const name of entries) fs.renameSync(path.join(dir, name), path.join(aside, name));
  return aside;
}

/** Moves every entry of `from` into `to` (which has none of them by now). */
export function moveEntries(from: string, to: string) {
  for (const name of fs.readdirSync(from))
    fs.renameSync(path.join(from, name), path.join(to, name));
}

/** Throws unless the tree holds only directories and regular files (an archive's, once out). */
export function checkPlainTree(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isDirectory() && !entry.isFile())
      throw new Error(`The backup holds ${path.join(entry.parentPath, entry.name)}, not a file`);
  }
}
