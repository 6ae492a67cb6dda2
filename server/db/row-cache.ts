import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/** The database or one of its transactions (index.ts's Database, which imports this module). */
type Database = Kysely<DB>;

/** The tables whose rows are kept; a write naming any of them drops every kept row. */
const CACHED_TABLES =
  /\b(?:realms|users|streams|subscriptions|linkifiers|muted_users|alert_words)\b/i;
const USER_MESSAGES = /\buser_messages\b/i;
const RETURNING = /\breturning\b/i;
/** SQLite: statements that change rows, and so take the write lock. */
const ROW_WRITES = /^\s*(?:insert|update|delete|replace)\b/i;
const ROLLBACK_TO = /^\s*rollback\s+to\b/i;
/** Statements that may change rows (PostgreSQL's driver does not say which ones read only). */
const WRITES = /^\s*(?:insert|update|delete|with|alter|drop|create|truncate|merge)\b/i;
/** Rows kept at most; past it the cache starts over. */
const MAX_ENTRIES = 50_000;

/**
 * Rows that nearly every request reads and that rarely change: the organization, the person
 * authenticating, a channel by name or id and its subscribers, for /register the organization's
 * channels, its bots and its people's ids by role, and for every message sent the organization's
 * linkifiers and alert words and who muted the sender. Each costs a statement per request
 * otherwise, about a fifth of the server's work for a message sent.
 *
 * Every change is seen:
 *  - this process's own writes: every statement passes through `noteStatement`, and one that
 *    writes (or alters) and names a cached table drops every kept row before it runs, and again
 *    once it is committed;
 *  - other processes (management commands while the server runs, other servers on the same
 *    PostgreSQL database): on SQLite, `PRAGMA data_version` changes when another connection
 *    commits, and is read before each use; on PostgreSQL, triggers on the cached tables notify
 *    `ROWS_CHANGED_CHANNEL` (migrations.ts) at commit, which this process listens to (`dropAll`), and the cache
 *    is switched off if that connection fails.
 * A row is kept only when nothing that may have changed it was uncommitted while it was read:
 * no uncommitted value is ever kept. Callers get copies.
 */
export class RowCache {
  private generation = 0;
  private entries = new Map<string, unknown>();
  private enabled = true;
  /** SQLite: the generation when the open transaction began; null outside a transaction */
  private atBegin: number | null = null;
  /** PostgreSQL: open transactions that have written a cached table */
  private dirtyTransactions = 0;
  private readonly dataVersion: SQLite.Statement | null;
  private seenVersion = 0;
  /** SQLite: statements this connection ran that write and name `user_messages` */
  private userMessageWrites = 0;
  /** SQLite: the open transaction has written, so it holds the database's one write lock */
  private holdsWriteLock = false;

  /** `sqlite`: the one connection of an SQLite database; none for PostgreSQL. */
  constructor(private readonly sqlite: SQLite.Database | null) {
    this.dataVersion = sqlite ? sqlite.prepare('PRAGMA data_version').pluck() : null;
    if (this.dataVersion) this.seenVersion = this.dataVersion.get() as number;
  }

  /** SQLite: called with every statement about to run on the connection (withStatementCache). */
  noteStatement(text: string, reader: boolean) {
    // better-sqlite3 counts a write with RETURNING among the statements that read.
    if (reader && !RETURNING.test(text)) return;
    if (text === 'begin') this.atBegin = this.generation;
    else if (text === 'commit' || text === 'rollback') {
      this.atBegin = null;
      this.holdsWriteLock = false;
    } else if (ROLLBACK_TO.test(text)) {
      // A write refused for want of the lock leaves the transaction without it.
      this.holdsWriteLock = false;
    } else {
      if (CACHED_TABLES.test(text)) this.dropAll();
      if (USER_MESSAGES.test(text)) this.userMessageWrites++;
      // It runs as soon as it is prepared; a savepoint takes no lock.
      if (ROW_WRITES.test(text) && this.sqlite?.inTransaction) this.holdsWriteLock = true;
    }
  }

  /**
   * SQLite: drops everything when another connection has committed since the last look. Not
   * asked while this connection's transaction holds the write lock: no other connection can
   * commit before it ends (a batch of messages sent asks once, not at every kept row it reads).
   */
  private seeOtherConnections() {
    if (!this.dataVersion || this.holdsWriteLock) return;
    const version = this.dataVersion.get() as number;
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.dropAll();
    }
  }

  /**
   * A value that stays the same only while nothing has changed the rows of `table` but through
   * the events this process publishes: no other process has committed, and no statement of this
   * one has written that table. Copies kept apart from this cache that follow those events (the
   * people of /register, a person's unread messages) skip the reading that proves them current
   * while it holds. Null where it cannot be told: PostgreSQL, for the messages people have, whose
   * changes no trigger announces.
   */
  versionOf(table: 'users' | 'user_messages'): string | null {
    if (!this.enabled) return null;
    this.seeOtherConnections();
    if (table === 'users') return `${this.generation}`;
    return this.sqlite ? `${this.generation}:${this.userMessageWrites}` : null;
  }

  /**
   * PostgreSQL: called with every statement a pooled connection is about to run; `state` is that
   * connection's. Returns what to do once the statement has ended (null: nothing).
   */
  notePostgresStatement(
    text: string,
    state: { inTransaction: boolean; dirty: boolean },
  ): (() => void) | null {
    const lowered = text.length < 20 ? text.trim().toLowerCase() : '';
    if (lowered === 'begin' || /^\s*start\s+transaction\b/i.test(text)) {
      state.inTransaction = true;
      return null;
    }
    if (lowered === 'commit' || lowered === 'rollback') {
      state.inTransaction = false;
      if (!state.dirty) return null;
      return () => {
        state.dirty = false;
        this.dirtyTransactions--;
        this.dropAll();
      };
    }
    if (!WRITES.test(text) || !CACHED_TABLES.test(text)) return null;
    this.dropAll();
    if (!state.inTransaction) return () => this.dropAll(); // committed when it ends
    if (!state.dirty) {
      state.dirty = true;
      this.dirtyTransactions++;
    }
    return null;
  }

  dropAll() {
    this.generation++;
    this.entries.clear();
  }

  /** Keeps nothing from now on (PostgreSQL: the notifications can no longer be trusted). */
  disable() {
    this.enabled = false;
    this.dropAll();
  }

  /** Keeps rows again, starting empty (PostgreSQL: listening again after a lost connection). */
  enable() {
    this.dropAll();
    this.enabled = true;
  }

  private safeToKeep(generation: number) {
    if (!this.enabled || this.generation !== generation) return false;
    if (this.sqlite) return !this.sqlite.inTransaction || this.atBegin === generation;
    return this.dirtyTransactions === 0;
  }

  /**
   * The kept value for `key`, or `load`'s (kept when it is safe to). A missing row (undefined) is
   * never kept: it may be created next.
   */
  async get<T extends object>(key: string, load: () => Promise<T | undefined>) {
    this.seeOtherConnections();
    const kept = this.entries.get(key) as T | undefined;
    if (kept) return copy(kept);
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && this.safeToKeep(generation)) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, copy(value));
    }
    return value;
  }
}

/** A copy a caller may change: of a list, its rows are copied too. */
function copy<T extends object>(value: T): T {
  if (!Array.isArray(value)) return { ...value };
  // A list of ids (a channel's subscribers, read at every message sent) needs no more.
  if (typeof value[0] !== 'object' || value[0] === null) return [...value] as T;
  return value.map((v: object) => ({ ...v })) as T;
}

const caches = new WeakMap<object, RowCache>();

/** Attaches `cache` to the database `db` (and to its transactions). */
export function attachRowCache(db: Database, cache: RowCache) {
  caches.set(db.getExecutor().adapter, cache);
}

/**
 * `load`'s value through the row cache of `db` (a database or one of its transactions), or
 * straight from `load` where there is none.
 */
export function cachedRow<T extends object>(
  db: Database,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const cache = caches.get(db.getExecutor().adapter);
  return cache ? cache.get(key, load) : load();
}

/** RowCache.versionOf for the database `db`, or null where it has no row cache. */
export function tableVersion(db: Database, table: 'users' | 'user_messages'): string | null {
  return caches.get(db.getExecutor().adapter)?.versionOf(table) ?? null;
}
