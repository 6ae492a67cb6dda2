import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { BACKUPS_DIR, SQLITE_FILE, fileTimestamp } from '../db/data-dir.js';
import { connectPg, parleySchema, pgDump, pgMigrations } from '../db/pg-tools.js';
import { copySqlite, openToCopy, sqliteMigrations } from '../db/sqlite-copy.js';
import {
  DATABASE_DIR,
  FILES_DIR,
  MANIFEST,
  POSTGRES_DUMP,
  SQLITE_COPY,
  createArchive,
  isCompressed,
  newManifest,
  type Manifest,
} from './archive.js';
import { linkDataFiles } from './data-files.js';
import { UsageError } from './errors.js';
import { parleyVersion } from './version.js';

export interface BackupResult {
  file: string;
  bytes: number;
  databaseBytes: number;
  files: number;
  seconds: number;
  manifest: Manifest;
}

/**
 * `manage backup FILE`: a consistent copy of the database and the data directory's files in one
 * archive, made while the server runs and without its lock. The database first, the files after:
 * an upload is on disk before the row naming it is committed, so every upload the copy names is
 * there to be linked (unless it was deleted in between). The archive is written beside FILE and
 * renamed into place once complete and synced, so FILE is never a partial backup.
 */
export async function backup(config: Config, file: string): Promise<BackupResult> {
  const started = Date.now();
  const target = path.resolve(file);
  if (fs.statSync(target, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${target} is a directory; name the backup file to write`);
  if (!fs.existsSync(path.dirname(target)))
    throw new UsageError(`The directory ${path.dirname(target)} does not exist`);
  const inData = path.relative(config.dataDir, target);
  if (
    !inData.startsWith('..') &&
    !path.isAbsolute(inData) &&
    !inData.startsWith(BACKUPS_DIR + path.sep)
  )
    throw new UsageError(
      `Write the backup outside the data directory, or into its ${BACKUPS_DIR}/ directory: ` +
        `a file among the data would be carried by the next backup`,
    );
  // The database's copy beside the archive (where the operator expects the space to be used),
  // the files' links inside the data directory (a hard link cannot cross file systems).
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.parley-backup-'));
  const hasDataDir = fs.existsSync(config.dataDir);
  const linked = hasDataDir
    ? path.join(config.dataDir, `.backup-${process.pid}-${fileTimestamp()}`)
    : path.join(work, 'links');
  const partial = `${target}.partial`;
  try {
    fs.mkdirSync(path.join(work, DATABASE_DIR));
    const database = config.databaseUrl
      ? await dumpPostgres(config.databaseUrl, path.join(work, POSTGRES_DUMP))
      : await copySqliteDatabase(config.dataDir, path.join(work, SQLITE_COPY));
    fs.mkdirSync(path.join(linked, FILES_DIR), { recursive: true });
    const files = hasDataDir ? linkDataFiles(config.dataDir, path.join(linked, FILES_DIR)) : 0;
    const manifest = newManifest({
      createdAt: new Date().toISOString(),
      parleyVersion: parleyVersion(),
      database: database.kind,
      migrations: database.migrations,
      files,
    });
    fs.writeFileSync(path.join(work, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    // Created private: it holds password hashes, API keys and the upload-URL signing key.
    fs.writeFileSync(partial, '', { mode: 0o600 });
    await createArchive(
      partial,
      [
        { dir: work, names: [MANIFEST, DATABASE_DIR] },
        { dir: linked, names: [FILES_DIR] },
      ],
      { gzip: isCompressed(target) },
    );
    syncFile(partial);
    fs.renameSync(partial, target);
    return {
      file: target,
      bytes: fs.statSync(target).size,
      databaseBytes: database.bytes,
      files,
      seconds: (Date.now() - started) / 1000,
      manifest,
    };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(linked, { recursive: true, force: true });
  }
}

interface DatabaseCopy {
  kind: Manifest['database'];
  migrations: string[];
  bytes: number;
}

async function copySqliteDatabase(dataDir: string, into: string): Promise<DatabaseCopy> {
  const source = openToCopy(path.join(dataDir, SQLITE_FILE));
  let bytes: number;
  try {
    bytes = await copySqlite(source, into);
  } finally {
    source.close();
  }
  return { kind: { kind: 'sqlite' }, migrations: checkedMigrations(sqliteMigrations(into)), bytes };
}

/**
 * pg_dump takes its own snapshot; the migrations recorded are read before and after it, so that
 * the manifest's schema version is the dump's (a newer server migrating meanwhile fails the
 * backup rather than mislabel it).
 */
async function dumpPostgres(databaseUrl: string, into: string): Promise<DatabaseCopy> {
  const client = await connectPg(databaseUrl);
  try {
    const schema = await parleySchema(client);
    const before = await pgMigrations(client, schema);
    await pgDump(databaseUrl, schema, into);
    const after = await pgMigrations(client, schema);
    if (before.join() !== after.join())
      throw new Error('The database was migrated while it was being dumped; back up again');
    return {
      kind: { kind: 'postgres', schema },
      migrations: checkedMigrations(after),
      bytes: fs.statSync(into).size,
    };
  } finally {
    await client.end();
  }
}

function checkedMigrations(names: string[]): string[] {
  if (!names.length)
    throw new Error('The database has no Parley schema yet (no migration is recorded)');
  return names;
}

function syncFile(file: string) {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
