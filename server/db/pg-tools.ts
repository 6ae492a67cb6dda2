import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type pg from 'pg';

/**
 * PostgreSQL's own dump and restore (pg_dump, pg_restore from the postgresql-client package),
 * scoped to the one schema Parley's tables live in: the URL's search_path (`options=-c
 * search_path=...`, as the tests make one schema each) or the role's default, usually `public`.
 */

export class PgToolMissingError extends Error {}

/** What libpq reads: the URL without node-pg's own parameters, the password in the environment. */
export function pgToolConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  url.password = '';
  // The schema is named to the tools explicitly; libpq would also read '+' in options literally.
  url.searchParams.delete('options');
  if (url.searchParams.get('ssl') === 'true' && !url.searchParams.has('sslmode'))
    url.searchParams.set('sslmode', 'require');
  url.searchParams.delete('ssl');
  return { dbname: url.toString(), env };
}

/** The version line of a PostgreSQL client tool on the PATH, or null when it is not there. */
export function pgToolVersion(tool: 'pg_dump' | 'pg_restore'): Promise<string | null> {
  return run(tool, ['--version'], process.env).then(
    (out) => out.trim(),
    () => null,
  );
}

async function requireTool(tool: 'pg_dump' | 'pg_restore') {
  if ((await pgToolVersion(tool)) === null)
    throw new PgToolMissingError(
      `${tool} was not found on the PATH. Install PostgreSQL's client tools ` +
        `(Debian: apt-get install postgresql-client) of the server's major version or newer.`,
    );
}

/** `pg_dump --format=custom` of the schema into `file`. */
export async function pgDump(databaseUrl: string, schema: string, file: string): Promise<void> {
  await requireTool('pg_dump');
  const { dbname, env } = pgToolConnection(databaseUrl);
  await run(
    'pg_dump',
    ['--format=custom', `--schema=${quoted(schema)}`, '--no-password', `--file=${file}`],
    env,
    dbname,
  );
}

/** The table of contents of a custom-format dump (`pg_restore --list`); throws if it is none. */
export async function pgDumpContents(file: string): Promise<string> {
  await requireTool('pg_restore');
  return run('pg_restore', ['--list', file], process.env);
}

/**
 * Restores a dump into the schema it was taken from, which must exist and be empty: the dump's own
 * entry creating the schema is left out (the restore made it, and `public` exists in every
 * database anyway). Ownership and privileges are the restoring role's; one transaction, so that a
 * failure leaves nothing half restored.
 */
export async function pgRestore(databaseUrl: string, file: string): Promise<void> {
  const contents = await pgDumpContents(file);
  const entries = contents
    .split('\n')
    .filter((line) => !line.startsWith(';') && line.trim())
    .filter((line) => !/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )/.test(line));
  const list = `${file}.list`;
  fs.writeFileSync(list, entries.join('\n') + '\n');
  try {
    const { dbname, env } = pgToolConnection(databaseUrl);
    await run(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        '--no-password',
        `--use-list=${list}`,
        file,
      ],
      env,
      dbname,
    );
  } finally {
    fs.rmSync(list, { force: true });
  }
}

/** The schema a dump holds, read from its table of contents. */
export function dumpedSchema(contents: string): string | null {
  return /^\d+; \d+ \d+ SCHEMA - (\S+) /m.exec(contents)?.[1] ?? null;
}

/** A quoted identifier; also an exact-name pattern for pg_dump's `--schema` (psql patterns). */
function quoted(name: string) {
  return `"${name.replace(/"/g, '""')}"`;
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv, dbname?: string) {
  const all = dbname ? [...args, `--dbname=${dbname}`] : args;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(tool, all, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${tool} failed (exit ${code}): ${err.trim()}`)),
    );
  });
}

/** A client on Parley's database, for the few statements around a dump or restore. */
export async function connectPg(databaseUrl: string): Promise<pg.Client> {
  // Loaded here, not at the top: SQLite servers import this module and never need the driver.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}

/** The schema Parley's tables are in for this connection: the first of its search_path. */
export async function parleySchema(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ schema: string | null; path: string; user: string }>(
    `SELECT current_schema() AS schema, current_setting('search_path') AS path, current_user AS user`,
  );
  const row = rows[0]!;
  if (row.schema) return row.schema;
  // The first schema of the path does not exist yet (a new, empty database).
  const first = row.path
    .split(',')[0]!
    .trim()
    .replace(/^"(.*)"$/, '$1');
  return first === '$user' ? row.user : first;
}

/**
 * Servers on a schema hold this advisory lock shared for as long as they run (db/index.ts); a
 * restore takes it exclusively, so that it refuses while a server runs and a server starting
 * meanwhile waits for it. The first key is "PARL"; the second names the schema.
 */
const LOCK_CLASS = 0x5041524c;

/** Holds the schema shared, waiting (and saying so) while a restore holds it. */
export async function holdSchemaShared(client: pg.Client, schema: string): Promise<void> {
  const { rows } = await client.query<{ held: boolean }>(
    'SELECT pg_try_advisory_lock_shared($1, hashtext($2)) AS held',
    [LOCK_CLASS, schema],
  );
  if (rows[0]!.held) return;
  console.log(`Waiting for the restore into the schema "${schema}" to finish`);
  await client.query('SELECT pg_advisory_lock_shared($1, hashtext($2))', [LOCK_CLASS, schema]);
}

export async function tryLockSchema(client: pg.Client, schema: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
    [LOCK_CLASS, schema],
  );
  return rows[0]!.locked;
}

export async function schemaExists(client: pg.Client, schema: string): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return rows.length > 0;
}

/** Whether the schema holds any table, sequence, view or function. */
export async function schemaHasObjects(client: pg.Client, schema: string): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1
     UNION ALL
     SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
     LIMIT 1`,
    [schema],
  );
  return rows.length > 0;
}

/** The migrations recorded in the schema, in order; empty when it has none. */
export async function pgMigrations(client: pg.Client, schema: string): Promise<string[]> {
  const table = `${quoted(schema)}.kysely_migration`;
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT name FROM ${table} ORDER BY name`,
    );
    return rows.map((r) => r.name);
  } catch (err: any) {
    if (err.code === '42P01' || err.code === '3F000') return []; // no such table or schema
    throw err;
  }
}

export async function renameSchema(client: pg.Client, from: string, to: string) {
  await client.query(`ALTER SCHEMA ${quoted(from)} RENAME TO ${quoted(to)}`);
}

export async function createSchema(client: pg.Client, schema: string) {
  await client.query(`CREATE SCHEMA ${quoted(schema)}`);
}

/** Drops the schema; with `cascade` whatever it holds too, otherwise only if it is empty. */
export async function dropSchema(client: pg.Client, schema: string, cascade: boolean) {
  await client.query(`DROP SCHEMA IF EXISTS ${quoted(schema)}${cascade ? ' CASCADE' : ''}`);
}
