import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { BACKUPS_DIR, fileTimestamp } from './data-dir.js';
import { pgDump, pgToolVersion } from './pg-tools.js';
import { copySqlite } from './sqlite-copy.js';

/** Copies made before migrations that are kept in the data directory; older ones are removed. */
export const KEPT_MIGRATION_COPIES = 3;
const COPY_NAME = /^before-migration-.*-(\d{8}T\d{6}Z)\.(sqlite|pgdump)$/;

export interface MigrationStep {
  /** the last migration the database has, and the last this version of Parley has */
  from: string;
  to: string;
}

export type CopySource =
  | { dialect: 'sqlite'; sqlite: SQLite.Database }
  | { dialect: 'postgres'; databaseUrl: string; schema: string };

/**
 * A copy of an existing database made just before migrations change its schema, in
 * `<dataDir>/backups/before-migration-<from>-to-<to>-<time>.sqlite` (or `.pgdump`), so that an
 * upgrade that goes wrong can be undone with the previous version. The last few are kept.
 *
 * SQLite: the copy is required; if it cannot be made (a full disk), the start stops before any
 * migration runs. PostgreSQL: pg_dump when it is installed, otherwise a log line says none was
 * taken and the migration goes on. A PostgreSQL server is usually backed up by its own means
 * (base backups, archived WAL), its client tools may be missing or of an older major version than
 * the server (pg_dump then refuses), and a server that will not start until an optional tool is
 * installed is worse than a clear line in the log.
 */
export async function copyBeforeMigration(
  source: CopySource,
  dataDir: string,
  step: MigrationStep,
  log: (line: string) => void = (line) => console.log(line),
): Promise<string | null> {
  // Private: a copy holds password hashes and API keys.
  const dir = path.join(dataDir, BACKUPS_DIR);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const label = `${migrationNumber(step.from)}-to-${migrationNumber(step.to)}`;
  const started = Date.now();
  let file: string;
  if (source.dialect === 'sqlite') {
    file = path.join(dir, `before-migration-${label}-${fileTimestamp()}.sqlite`);
    try {
      await copySqlite(source.sqlite, file);
    } catch (err) {
      throw new Error(
        `Could not copy the database to ${file} before migrating it from ${step.from} to ` +
          `${step.to}; nothing was changed. ${(err as Error).message}`,
      );
    }
  } else {
    file = path.join(dir, `before-migration-${label}-${fileTimestamp()}.pgdump`);
    if ((await pgToolVersion('pg_dump')) === null) {
      log(
        `No copy of the database was taken before migrating it from ${step.from} to ${step.to}: ` +
          `pg_dump is not installed (Debian: apt-get install postgresql-client).`,
      );
      return null;
    }
    try {
      await pgDump(source.databaseUrl, source.schema, file);
    } catch (err) {
      fs.rmSync(file, { force: true });
      log(
        `No copy of the database was taken before migrating it from ${step.from} to ${step.to}: ` +
          (err as Error).message,
      );
      return null;
    }
  }
  fs.chmodSync(file, 0o600);
  const size = (fs.statSync(file).size / 1e6).toFixed(1);
  log(
    `Copied the database before migrating it from ${step.from} to ${step.to}: ${file} ` +
      `(${size} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  pruneMigrationCopies(dir);
  return file;
}

/** Removes all but the newest KEPT_MIGRATION_COPIES copies. */
export function pruneMigrationCopies(dir: string) {
  const copies = fs
    .readdirSync(dir)
    .flatMap((name) => {
      const time = COPY_NAME.exec(name)?.[1];
      return time ? [{ name, time }] : [];
    })
    .sort((a, b) => (a.time === b.time ? a.name.localeCompare(b.name) : a.time < b.time ? -1 : 1));
  for (const old of copies.slice(0, -KEPT_MIGRATION_COPIES))
    fs.rmSync(path.join(dir, old.name), { force: true });
}

/** "0017_content_flags" -> "0017" */
function migrationNumber(name: string) {
  return name.split('_')[0]!;
}
