import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder } from 'kysely';

/** The databases Parley runs on: SQLite embedded, PostgreSQL by URL. */
export type Dialect = 'sqlite' | 'postgres';

/** Which database a connection (or a transaction on one) talks to. */
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The values of an integer expression over a group's rows as one text, "3,1,2", NULLs left out:
 * thousands of ids come back as one value instead of a row object each.
 */
export function joinedIds(dialect: Dialect, value: Expression<unknown>): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`string_agg((${value})::text, ',')`
    : sql<string | null>`group_concat(${value})`;
}

/** Comma-separated ids (as joinedIds gives them) as numbers, ascending. */
export function idList(text: string | null): number[] {
  if (!text) return [];
  const ids = text.split(',').map(Number);
  // The database hands a group's ids over in no promised order; they mostly come in order.
  for (let i = 1; i < ids.length; i++) if (ids[i - 1] > ids[i]) return ids.sort((a, b) => a - b);
  return ids;
}
