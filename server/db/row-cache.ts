import type SQLite from 'better-sqlite3';
import type { Database } from './index.js';

/** The tables whose rows are kept; a write naming any of them drops every kept row. */
const CACHED_TABLES = /\b(?:realms|users|streams|subscriptions)\b/i;
/** Rows kept at most; past it the cache starts over. */
const MAX_ENTRIES = 50_000;

/**
 * Rows that nearly every request reads and that rarely change: the organization, the person
 * authenticating, a channel by name or id and its subscribers. Each costs a statement per request
 * otherwise, about a fifth of the server's work for a message sent.
 *
 * SQLite only, where this process owns the one connection that writes (the data directory is
 * locked), so that every change is seen:
 *  - this connection's own writes: every statement prepared passes through `noteStatement`, and
 *    one that writes (or alters) and names a cached table drops every kept row before it runs;
 *  - other processes (management commands while the server runs): `PRAGMA data_version` changes
 *    when another connection commits, and is read before each use of the cache.
 * A row is kept only when it was read outside a transaction, or inside one that has not yet
 * written a cached table, so that no uncommitted value is ever kept. Callers get copies.
 *
 * PostgreSQL has no such cache: several processes may write to it, and nothing tells this one.
 */
export class RowCache {
  private generation = 0;
  /** the generation when the open transaction began; null outside a transaction */
  private atBegin: number | null = null;
  private entries = new Map<string, unknown>();
  private readonly dataVersion: SQLite.Statement;
  private seenVersion: number;

  constructor(private readonly sqlite: SQLite.Database) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    this.seenVersion = this.dataVersion.get() as number;
  }

  /** Called with every statement about to run on the connection (withStatementCache). */
  noteStatement(text: string, reader: boolean) {
    if (reader) return;
    if (text === 'begin') this.atBegin = this.generation;
    else if (text === 'commit' || text === 'rollback') this.atBegin = null;
    else if (CACHED_TABLES.test(text)) this.drop();
  }

  private drop() {
    this.generation++;
    this.entries.clear();
  }

  /**
   * The kept value for `key`, or `load`'s (kept when it is safe to). A missing row (undefined) is
   * never kept: it may be created next.
   */
  async get<T extends object>(key: string, load: () => Promise<T | undefined>) {
    const version = this.dataVersion.get() as number;
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.drop();
    }
    const kept = this.entries.get(key) as T | undefined;
    if (kept) return copy(kept);
    const generation = this.generation;
    const value = await load();
    const unwritten = !this.sqlite.inTransaction || this.atBegin === generation;
    if (value !== undefined && this.generation === generation && unwritten) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, copy(value));
    }
    return value;
  }
}

function copy<T extends object>(value: T): T {
  return (Array.isArray(value) ? [...value] : { ...value }) as T;
}

const caches = new WeakMap<object, RowCache>();

/** Attaches `cache` to the database `db` (and to its transactions). */
export function attachRowCache(db: Database, cache: RowCache) {
  caches.set(db.getExecutor().adapter, cache);
}

/**
 * `load`'s value through the row cache of `db` (a database or one of its transactions), or
 * straight from `load` where there is none (PostgreSQL).
 */
export function cachedRow<T extends object>(
  db: Database,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const cache = caches.get(db.getExecutor().adapter);
  return cache ? cache.get(key, load) : load();
}
