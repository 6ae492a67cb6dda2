import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type KyselyConfig,
  type SqliteDatabase,
} from 'kysely';
import type { DB } from './schema.js';
import { InCodeMigrations, ROWS_CHANGED_CHANNEL, type Dialect } from './migrations.js';
import { registerSearchFunctions } from './search.js';
import { RowCache, attachRowCache } from './row-cache.js';
import { SQLITE_FILE, lockDataDir } from './data-dir.js';
import { holdSchemaShared, parleySchema } from './pg-tools.js';
import { copyBeforeMigration, type MigrationStep } from './pre-migration.js';

export { DataDirLockedError } from './data-dir.js';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  dialect: Dialect;
  /**
   * Resolves once every transaction committed before the call is on disk (AppContext.toDisk).
   * PostgreSQL's commit is itself durable; SQLite's commit is made durable here, off the event
   * loop.
   */
  toDisk(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /** management commands share the directory with a running server; servers take the lock */
  lock?: boolean;
  /** told of every statement run through Kysely, its time and whether it failed (metrics) */
  onQuery?: (seconds: number, failed: boolean) => void;
}

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  const onQuery = opts.onQuery;
  const log: KyselyConfig['log'] = onQuery
    ? (event) => onQuery(event.queryDurationMillis / 1000, event.level === 'error')
    : undefined;
  return opts.databaseUrl ? openPostgres(opts, opts.databaseUrl, log) : openSqlite(opts, log);
}

async function openPostgres(
  opts: OpenOptions,
  databaseUrl: string,
  log: KyselyConfig['log'],
): Promise<DatabaseHandle> {
  // Loaded only for PostgreSQL: the driver costs a noticeable part of the start otherwise.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // A pooled connection that breaks while idle (the server restarted, an administrator ended
  // it) is dropped by the pool, which opens another when one is next needed; unheard, its error
  // would end the process.
  pool.on('error', (error) =>
    console.warn(`A PostgreSQL connection of the pool was lost and is replaced: ${error.message}`),
  );
  const rows = new RowCache(null);
  pool.on('connect', (client) => {
    preparedStatements(client, rows);
    // Ended while lent out: the statement in flight fails (its request gets the envelope), and
    // the pool drops the connection when it comes back; the event itself needs no more.
    client.on('error', () => {});
  });
  // COUNT(*) and BIGINT come back as strings by default; our ids and counts fit in a double.
  pg.types.setTypeParser(20, (v) => Number(v));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
  const listener = opts.lock !== false ? new ChangeListener(pg, databaseUrl, rows) : null;
  const handle: DatabaseHandle = {
    db,
    dialect: 'postgres',
    toDisk: async () => {},
    close: async () => {
      await listener?.close();
      await db.destroy();
    },
  };
  const connected = await listener?.connect();
  await migrate(handle, (step, schema) =>
    copyBeforeMigration({ dialect: 'postgres', databaseUrl, schema: schema! }, opts.dataDir, step),
  );
  if (connected && (await listener!.listen())) attachRowCache(db, rows);
  return handle;
}

/**
 * The connection through which changes committed by other processes reach the kept rows, by the
 * triggers' notifications; without it nothing is kept. It also holds the schema shared for as
 * long as the server runs, which a restore waits for (pg-tools.ts). When it is lost (PostgreSQL
 * restarted, the connection ended), nothing is kept until it is back: it reconnects by itself,
 * after 1 s and then up to 30 s apart, and keeps rows again once it listens.
 */
class ChangeListener {
  private client: import('pg').Client | null = null;
  private closed = false;
  private retryMs = 1000;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pg: typeof import('pg').default,
    private readonly databaseUrl: string,
    private readonly rows: RowCache,
  ) {}

  /** The first connection, before the migrations; false when it cannot be had. */
  async connect(): Promise<boolean> {
    try {
      await this.open();
      return true;
    } catch (error) {
      console.error('Listening to PostgreSQL failed: rows are not kept between requests', error);
      return false;
    }
  }

  /** Starts listening; false (nothing kept) when that fails. */
  async listen(): Promise<boolean> {
    try {
      await this.client!.query(`LISTEN ${ROWS_CHANGED_CHANNEL}`);
      return true;
    } catch (error) {
      console.error('Rows are not kept between requests: listening to PostgreSQL failed', error);
      this.rows.disable();
      return false;
    }
  }

  private async open() {
    const client = new this.pg.Client({ connectionString: this.databaseUrl });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', () => this.rows.dropAll());
    try {
      await client.connect();
      await holdSchemaShared(client, await parleySchema(client));
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
  }

  private lost(client: import('pg').Client) {
    if (this.client !== client) return;
    this.client = null;
    this.rows.disable();
    if (!this.closed) {
      console.warn('The PostgreSQL connection that announces changes was lost; reconnecting');
      this.retryLater();
    }
  }

  private retryLater() {
    this.timer = setTimeout(() => void this.reconnect(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(30_000, this.retryMs * 2);
  }

  private async reconnect() {
    if (this.closed) return;
    try {
      await this.open();
      if (this.closed) return void (await this.client?.end().catch(() => {}));
      await this.client!.query(`LISTEN ${ROWS_CHANGED_CHANNEL}`);
      this.retryMs = 1000;
      this.rows.enable();
      console.warn('The PostgreSQL connection that announces changes is back');
    } catch {
      this.client = null;
      this.retryLater();
    }
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

async function openSqlite(opts: OpenOptions, log: KyselyConfig['log']): Promise<DatabaseHandle> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const unlock = opts.lock === false ? () => {} : lockDataDir(opts.dataDir);
  try {
    const file = path.join(opts.dataDir, SQLITE_FILE);
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL: a commit writes the log (the WAL) without waiting for the disk, which would stop
    // the whole process while the disk syncs; toDisk then syncs the log in the thread pool, and
    // no write is acknowledged before it (context.ts). SQLite itself still syncs around
    // checkpoints, so a machine crash never corrupts the file.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    registerSearchFunctions(sqlite);
    const wal = walSyncer(`${file}-wal`);
    const rows = new RowCache(sqlite);
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({
        database: withStatementCache(sqlite, (text, statement) =>
          rows.noteStatement(text, statement.reader),
        ),
      }),
      log,
    });
    attachRowCache(db, rows);
    let optimizing: NodeJS.Timeout | undefined;
    const handle: DatabaseHandle = {
      db,
      dialect: 'sqlite',
      toDisk: () => wal.sync(),
      close: async () => {
        clearInterval(optimizing);
        await db.destroy();
        wal.close();
        unlock();
      },
    };
    await migrate(handle, (step) =>
      copyBeforeMigration({ dialect: 'sqlite', sqlite }, opts.dataDir, step),
    );
    if (opts.lock !== false) optimizing = keepStatistics(sqlite);
    return handle;
  } catch (err) {
    unlock();
    throw err;
  }
}

/** How often a running server looks at the statistics SQLite's planner reads. */
const STATISTICS_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Below this many messages the planner's guesses serve as well as statistics. */
const STATISTICS_FROM_MESSAGES = 10_000;

/**
 * SQLite's planner chooses between indexes from the statistics ANALYZE writes (sqlite_stat1 and
 * sqlite_stat4): without them it guesses, and `has:link` then reads every message of the person
 * rather than the few with a link, or `sender:` every message rather than the sender's few. The
 * benchmark's databases have them (populate ends with ANALYZE); a database grown by use has none
 * until this writes them once it holds enough messages to matter. It runs a full ANALYZE, once,
 * because sampled statistics (`analysis_limit`) misled the planner into reading all of a prolific
 * sender's messages for one page of `sender:`. Indexes added since the last ANALYZE are analysed
 * alone, and `PRAGMA optimize` every few hours analyses again the tables that have grown or
 * shrunk a lot since.
 */
function keepStatistics(sqlite: SQLite.Database): NodeJS.Timeout {
  const look = () => {
    const analysed = sqlite
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'`)
      .get();
    if (!analysed) {
      const newest = sqlite.prepare('SELECT max(id) AS id FROM messages').get() as { id: number };
      if ((newest?.id ?? 0) >= STATISTICS_FROM_MESSAGES) sqlite.exec('ANALYZE');
      return;
    }
    const unanalysed = sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ` +
          `AND name NOT IN (SELECT idx FROM sqlite_stat1 WHERE idx IS NOT NULL)`,
      )
      .pluck()
      .all() as string[];
    for (const name of unanalysed) sqlite.exec(`ANALYZE "${name.replace(/"/g, '""')}"`);
    sqlite.pragma('optimize');
  };
  look();
  const timer = setInterval(look, STATISTICS_INTERVAL_MS);
  timer.unref();
  return timer;
}

/** Statement names by SQL text, shared by every connection (each prepares a name once). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 5_000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * A PostgreSQL connection runs this server's queries as named prepared statements, parsed and
 * analysed once per connection rather than at every execution: a message sent runs a dozen small
 * statements inside the write lock. PostgreSQL plans the first five executions of each for their
 * own values and keeps a generic plan afterwards only where it costs no more than those
 * (`plan_cache_mode = auto`), which measured faster than forcing a plan per execution.
 * Statements with long lists of values, and texts past the first few thousand, stay unnamed,
 * so that no connection keeps an unbounded number of them.
 */
function preparedStatements(client: import('pg').PoolClient, rows: RowCache) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const state = { inTransaction: false, dirty: false };
  (client as { query: unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const after = typeof text === 'string' ? rows.notePostgresStatement(text, state) : null;
    const result = namedQuery(text, values, ...rest);
    if (after) {
      if (result instanceof Promise) result.then(after, after);
      else after();
    }
    return result;
  };
  const namedQuery = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length <= 100 &&
      text.length <= 4000 &&
      PREPARABLE.test(text)
    ) {
      let name = statementNames.get(text);
      if (!name && statementNames.size < MAX_STATEMENT_NAMES)
        statementNames.set(text, (name = `parley_${statementNames.size}`));
      if (name) return query({ name, text, values }, ...rest);
    }
    return query(text, values, ...rest);
  };
}

/**
 * fsync of the write-ahead log in the thread pool. The log holds every commit since the last
 * checkpoint, in order, each frame checksummed over those before it: once it is synced, every
 * commit written to it is durable. It is opened once and kept: SQLite truncates or rewrites it in
 * place but removes it only when its last connection closes, and this one stays open until
 * `close`. A log that does not exist yet holds nothing to sync.
 */
function walSyncer(file: string) {
  let fd: number | null = null;
  const fsync = (descriptor: number) =>
    new Promise<void>((resolve, reject) =>
      fs.fsync(descriptor, (error) => (error ? reject(error) : resolve())),
    );
  return {
    async sync(): Promise<void> {
      if (fd === null) {
        try {
          fd = fs.openSync(file, 'r');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
      }
      await fsync(fd);
    },
    close() {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}

/** Prepared statements kept per connection, by SQL text; the least recently used go first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with its prepared statements kept: Kysely prepares every
 * query anew, which for the small queries of a send costs more than running them. A statement
 * still being iterated (a streamed query) is not handed out twice.
 */
export function withStatementCache(
  sqlite: SQLite.Database,
  /** told of every statement about to run (RowCache.noteStatement) */
  onStatement?: (text: string, statement: SQLite.Statement) => void,
): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const kept = cache.get(text);
      if (kept && !kept.busy) {
        // Map order is insertion order: moving it to the end keeps the eviction LRU.
        cache.delete(text);
        cache.set(text, kept);
        onStatement?.(text, kept);
        return kept;
      }
      const statement = sqlite.prepare(text);
      onStatement?.(text, statement);
      if (!kept) {
        cache.set(text, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}
/**
 * Applies the migrations the database lacks. Before they change an existing database (not a new
 * one), `copyBefore` is given the step and, on PostgreSQL, the schema, to keep a copy.
 */
export async function migrate(
  handle: DatabaseHandle,
  copyBefore?: (step: MigrationStep, schema: string | undefined) => Promise<unknown>,
): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const schema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db))
          .rows[0]?.schema
      : undefined;
  const provider = new InCodeMigrations(handle.dialect);
  const known = Object.keys(await provider.getMigrations()).sort();
  const applied = await appliedMigrations(handle, schema);
  const pending = known.filter((name) => !applied.includes(name));
  if (!pending.length) return;
  if (applied.length && copyBefore)
    await copyBefore({ from: applied.at(-1)!, to: known.at(-1)! }, schema);
  const migrator = new Migrator({
    db: schema ? withSchemaIntrospection(handle.db, schema) : handle.db,
    provider,
    // Migrations written on parallel branches may land out of order; each runs once.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') console.error(`migration ${r.migrationName} failed`);
  }
  if (error) throw error;
}

/**
 * The database as the migrator sees it on PostgreSQL: its look for its bookkeeping tables reads
 * only our schema. Kysely's own introspector lists every table of every schema and then reads
 * their columns, which fails when another schema is dropped between the two queries (another
 * server's, or a test's), and grows with every schema the database holds.
 */
export function withSchemaIntrospection(db: Database, schema: string): Database {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{
        name: string;
      }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; type: string }>`
        select table_name as name, table_type as type from information_schema.tables
        where table_schema = ${schema}`.execute(db);
      return rows.map((r) => ({ name: r.name, schema, isView: r.type === 'VIEW', columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value = Reflect.get(target, key, target) as unknown;
      // Kysely's methods read private fields, so they run on the instance itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The migrations recorded, in order, read straight from Kysely's bookkeeping table: whether all
 * are applied is the usual question at a start, answered with one query instead of the
 * migrator's look at every table. Empty for a new database.
 */
async function appliedMigrations(
  handle: DatabaseHandle,
  schema: string | undefined,
): Promise<string[]> {
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(handle.db);
    return rows.map((r) => r.name).sort();
  } catch {
    return []; // a new database: no bookkeeping table yet
  }
}
