import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import {
  DataDirLockedError,
  LOCK_FILE,
  LOCK_PID_FILE,
  SQLITE_FILE,
  fileTimestamp,
  lockDataDir,
} from '../db/data-dir.js';
import { migrations } from '../db/migrations.js';
import { checkSqliteFile, sqliteMigrations } from '../db/sqlite-copy.js';
import {
  DATABASE_DIR,
  FILES_DIR,
  SQLITE_COPY,
  POSTGRES_DUMP,
  extractArchive,
  readManifest,
  type Manifest,
} from './archive.js';
import { checkPlainTree, moveEntries, setAside } from './data-files.js';
import { UsageError } from './errors.js';
import {
  restorePostgresSchema,
  checkPostgresTarget,
  type PostgresTarget,
} from './restore-postgres.js';

export interface RestoreResult {
  manifest: Manifest;
  /** where the data directory's previous contents went, if it had any */
  asideDir: string | null;
  /** PostgreSQL: the schema the previous tables were renamed to, if there were any */
  asideSchema: string | null;
}

/**
 * `manage restore FILE`: puts a backup back into the configured data directory (and database).
 * Everything that can refuse is asked before anything changes: that the file is a Parley backup
 * this version can read, that no server holds the directory or schema, that it is empty or
 * `force` is given, and that the extracted database is sound and of the manifest's schema
 * version. What was there is set aside, never deleted: the files in
 * `<dataDir>/before-restore-<time>/`, PostgreSQL's tables in a renamed schema.
 */
export async function restore(
  config: Config,
  file: string,
  opts: { force: boolean },
): Promise<RestoreResult> {
  const source = path.resolve(file);
  const manifest = await readManifest(source);
  checkCompatible(source, manifest, config.databaseUrl ? 'postgres' : 'sqlite', config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  let postgres: PostgresTarget | null = null;
  let unlock = () => {};
  try {
    if (config.databaseUrl) postgres = await checkPostgresTarget(config.databaseUrl, manifest);
    else unlock = lockForRestore(config.dataDir);
    const occupied = fs
      .readdirSync(config.dataDir)
      .filter((name) => name !== LOCK_FILE && name !== LOCK_PID_FILE);
    if (!opts.force && (occupied.length || postgres?.occupied))
      throw new Error(
        `${describeTarget(config, postgres)} is not empty` +
          (occupied.length
            ? ` (${occupied.slice(0, 5).join(', ')}${occupied.length > 5 ? ', ...' : ''})`
            : '') +
          `. Pass --force to set what is there aside (it is kept, not deleted) and restore.`,
      );
    return await putBack(config, source, manifest, postgres);
  } finally {
    unlock();
    await postgres?.client.end();
  }
}

/** The backup is of the configured kind of database, at a schema version this Parley knows. */
function checkCompatible(
  source: string,
  manifest: Manifest,
  dialect: 'sqlite' | 'postgres',
  dataDir: string,
) {
  if (manifest.database.kind !== dialect)
    throw new UsageError(
      manifest.database.kind === 'postgres'
        ? `${source} holds a PostgreSQL database: set DATABASE_URL to the database to restore it into`
        : `${source} holds an SQLite database, and DATABASE_URL is set: unset it to restore into ${dataDir}`,
    );
  const known = new Set(Object.keys(migrations(dialect)));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length)
    throw new UsageError(
      `${source} was made by a newer version of Parley (${manifest.parleyVersion}): its schema ` +
        `has migrations this version does not know (${unknown.join(', ')}). Restore it with that version.`,
    );
}

async function putBack(
  config: Config,
  source: string,
  manifest: Manifest,
  postgres: PostgresTarget | null,
): Promise<RestoreResult> {
  const stageName = `.restore-${process.pid}-${fileTimestamp()}`;
  const stage = path.join(config.dataDir, stageName);
  fs.mkdirSync(stage);
  try {
    await extractArchive(source, stage, [DATABASE_DIR, FILES_DIR]);
    checkPlainTree(stage);
    let asideSchema: string | null = null;
    if (postgres) {
      asideSchema = await restorePostgresSchema(
        postgres,
        manifest,
        path.join(stage, POSTGRES_DUMP),
        config.databaseUrl!,
      );
    } else {
      checkSqliteCopy(path.join(stage, SQLITE_COPY), manifest);
    }
    const asideDir = setAside(config.dataDir, [stageName]);
    if (!postgres)
      fs.renameSync(path.join(stage, SQLITE_COPY), path.join(config.dataDir, SQLITE_FILE));
    moveEntries(path.join(stage, FILES_DIR), config.dataDir);
    return { manifest, asideDir, asideSchema };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function checkSqliteCopy(file: string, manifest: Manifest) {
  if (!fs.existsSync(file)) throw new UsageError(`The backup holds no ${SQLITE_COPY}`);
  checkSqliteFile(file);
  const recorded = sqliteMigrations(file);
  if (recorded.join() !== manifest.migrations.join())
    throw new UsageError(
      `The backup's database is not at the schema version its manifest states ` +
        `(${recorded.at(-1) ?? 'none'} instead of ${manifest.migrations.at(-1)})`,
    );
}

function lockForRestore(dataDir: string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError)
      throw new Error(`${err.message.split('. ')[0]}. Stop it before restoring.`);
    throw err;
  }
}

function describeTarget(config: Config, postgres: PostgresTarget | null) {
  return postgres
    ? `The schema "${postgres.schema}" or the data directory ${config.dataDir}`
    : `The data directory ${config.dataDir}`;
}
