import fs from 'node:fs';
import SQLite from 'better-sqlite3';

/** Pages per step of the online backup: all of them, in one step (see copySqlite). */
const ALL_PAGES = 0x7fffffff;

/**
 * A consistent copy of a live SQLite database through its online backup API, made from any
 * connection, in this process or another: the copy is the database as one read transaction saw it.
 *
 * It is copied in one step. The backup API restarts from the first page whenever another
 * connection writes between two steps, so a copy made page by page while a server keeps sending
 * would start over for as long as it sends; within one step the read transaction sees a snapshot,
 * and in WAL mode the server's writes go on beside it. The copy is written aside, turned into a
 * self-contained file (rollback journal, no -wal beside it), checked, and then moved into place.
 */
export async function copySqlite(source: SQLite.Database, target: string): Promise<number> {
  const draft = `${target}.partial`;
  fs.rmSync(draft, { force: true });
  try {
    await source.backup(draft, { progress: () => ALL_PAGES });
    const copy = new SQLite(draft);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    checkSqliteFile(draft);
    fs.renameSync(draft, target);
  } catch (err) {
    fs.rmSync(draft, { force: true });
    throw err;
  }
  return fs.statSync(target).size;
}

/** Throws unless the file is an SQLite database that passes SQLite's quick check. */
export function checkSqliteFile(file: string) {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const problems = db.pragma('quick_check') as { quick_check: string }[];
    if (problems.length !== 1 || problems[0]!.quick_check !== 'ok')
      throw new Error(
        problems
          .map((p) => p.quick_check)
          .slice(0, 5)
          .join('; '),
      );
  } catch (err) {
    throw new Error(`${file} is not a sound SQLite database: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
}

/** A connection to copy the database a server may be using: no lock taken, nothing changed. */
export function openToCopy(file: string): SQLite.Database {
  if (!fs.existsSync(file)) throw new Error(`There is no database at ${file}`);
  const db = new SQLite(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** The migrations an SQLite database file has recorded, in order; empty when it has none. */
export function sqliteMigrations(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`)
      .get();
    if (!table) return [];
    return db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[];
  } finally {
    db.close();
  }
}
