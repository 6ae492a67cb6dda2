import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Dialect } from './dialect.js';
import type { SearchQuery } from '../domain/search-text.js';

/**
 * Full-text search of messages through each database's own engine, the one place that knows
 * their SQL:
 * - SQLite: `messages_fts`, an FTS5 table without a copy of the text (contentless, rows deleted
 *   by id), keyed by message id, holding the topic and the text of the rendered HTML, stemmed by
 *   the Porter tokenizer. Triggers on `messages` keep it in step with every write: sending,
 *   editing, moving, deleting, and rows written directly (populate).
 * - PostgreSQL: `messages.search_tsvector`, a stored generated column of the topic and the
 *   rendered HTML (the parser skips tags) in the `english` configuration, with a GIN index.
 */

/** The SQL function the triggers call to turn rendered HTML into its text. */
const SEARCH_TEXT_FUNCTION = 'parley_search_text';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of rendered HTML: tags separate words (as PostgreSQL's parser reads them), entities decoded. */
export function searchText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (_, name) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? ' ';
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  });
}

/** The SQL function that tells the insert trigger whether to index each new message. */
const EACH_ROW_FUNCTION = 'parley_search_each_row';

/**
 * Every SQLite connection that writes messages must have these functions: the index's triggers
 * call them (a connection without them fails the write rather than let the index fall behind).
 * With `eachRow: false` (populate) the insert trigger leaves new messages to indexNewMessages,
 * which indexes many at once: FTS5 writes a row inserted by a trigger to disk at once, about ten
 * times the cost of indexing the same rows together.
 */
export function registerSearchFunctions(sqlite: SQLite.Database, opts = { eachRow: true }) {
  sqlite.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (html: unknown) =>
    typeof html === 'string' ? searchText(html) : '',
  );
  const eachRow = opts.eachRow ? 1 : 0;
  sqlite.function(EACH_ROW_FUNCTION, { deterministic: true }, () => eachRow);
}

/** SQLite: indexes the messages of an id range, inserted by a connection with `eachRow: false`. */
export function indexNewMessages(sqlite: SQLite.Database, firstId: number, lastId: number) {
  sqlite
    .prepare(
      `INSERT INTO messages_fts (rowid, topic, content) SELECT id, topic, ${SEARCH_TEXT_FUNCTION}(rendered_content) FROM messages WHERE id >= ? AND id <= ?`,
    )
    .run(BigInt(firstId), BigInt(lastId));
}

/** SQLite: optimizeSearchIndex on a connection of its own, after indexNewMessages. */
export function optimizeNewMessages(sqlite: SQLite.Database) {
  sqlite.exec(`INSERT INTO messages_fts (messages_fts) VALUES ('optimize')`);
}

const FTS_ROW = (row: 'new') =>
  `INSERT INTO messages_fts (rowid, topic, content) VALUES (${row}.id, ${row}.topic, ${SEARCH_TEXT_FUNCTION}(${row}.rendered_content))`;

/** Creates the index and indexes the messages already there (migration 0011). */
export async function createMessageSearch(db: Kysely<any>, dialect: Dialect) {
  if (dialect === 'postgres') {
    // The generated column is computed for every existing row as the column is added.
    await sql`ALTER TABLE messages ADD COLUMN search_tsvector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, topic || ' ' || rendered_content)) STORED`.execute(
      db,
    );
    await sql`CREATE INDEX messages_search ON messages USING gin (search_tsvector)`.execute(db);
    await sql`ANALYZE messages`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(topic, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql
    .raw(
      `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN ${EACH_ROW_FUNCTION}() ` +
        `BEGIN ${FTS_ROW('new')}; END`,
    )
    .execute(db);
  // Moves between channels and other updates leave the words alone and the index untouched.
  await sql
    .raw(
      `CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, rendered_content ON messages ` +
        `WHEN old.topic IS NOT new.topic OR old.rendered_content IS NOT new.rendered_content BEGIN ` +
        `DELETE FROM messages_fts WHERE rowid = old.id; ${FTS_ROW('new')}; END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN ` +
        `DELETE FROM messages_fts WHERE rowid = old.id; END`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO messages_fts (rowid, topic, content) ` +
        `SELECT id, topic, ${SEARCH_TEXT_FUNCTION}(rendered_content) FROM messages`,
    )
    .execute(db);
  await optimizeSearchIndex(db);
}

/**
 * SQLite: merges the index into one segment after a bulk fill. A query opens every segment, and
 * one that asks the index about each message of a narrow (`probe`) pays that at every message,
 * many times over on a freshly filled index.
 */
export async function optimizeSearchIndex(db: Kysely<any>) {
  await sql`INSERT INTO messages_fts (messages_fts) VALUES ('optimize')`.execute(db);
}

/** A token or a phrase as an FTS5 string: quoted, so that no input is read as query syntax. */
const ftsString = (tokens: string[]) => `"${tokens.join(' ').replace(/"/g, '""')}"`;

/** The FTS5 MATCH expression of a query: every word and every phrase. */
export function ftsMatch(q: SearchQuery): string {
  return [...q.wordTokens.map((t) => ftsString([t])), ...q.phraseTokens.map(ftsString)].join(
    ' AND ',
  );
}

/** PostgreSQL's tsquery of a query: the words (stemmed, stop words dropped) and each phrase. */
function tsquery(q: SearchQuery) {
  const parts = [
    ...(q.words.length ? [sql`plainto_tsquery('english'::regconfig, ${q.words.join(' ')})`] : []),
    ...q.phrases.map((p) => sql`phraseto_tsquery('english'::regconfig, ${p})`),
  ];
  return sql.join(parts, sql` && `);
}

/**
 * How a search term is read on SQLite, chosen per request from how many messages match and how
 * many the rest of the narrow holds (get-messages): `list` reads every match from the index
 * first, quick when they are few; `probe` asks the index about each message of a small narrow;
 * `driven` reads the messages in id order from the index itself (messagesBySearch), the term's
 * own condition then being always true; `{ ids }` is every match, already read from the index
 * (searchMatchIds), so that the index is not asked again. PostgreSQL's planner makes this choice
 * itself.
 */
export type SearchReading = 'list' | 'probe' | 'driven' | { ids: number[] };

/** The condition that message `m` matches a query (which must search for something). */
export function searchCondition(
  dialect: Dialect,
  q: SearchQuery,
  reading: SearchReading = 'list',
): Expression<SqlBool> {
  if (dialect === 'postgres') return sql<SqlBool>`m.search_tsvector @@ (${tsquery(q)})`;
  if (reading === 'driven') return sql<SqlBool>`1 = 1`;
  if (typeof reading === 'object')
    return reading.ids.length
      ? sql<SqlBool>`m.id IN (SELECT value FROM json_each(${JSON.stringify(reading.ids)}))`
      : sql<SqlBool>`1 = 0`;
  if (reading === 'probe')
    return sql<SqlBool>`EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ${ftsMatch(q)} AND rowid = m.id)`;
  return sql<SqlBool>`m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${ftsMatch(q)})`;
}

const ftsMatchAll = (queries: SearchQuery[]) => queries.map(ftsMatch).join(' AND ');

/**
 * SQLite: the ids of the messages that match all the queries, up to `cap` of them, in no order
 * that matters (the index's, ascending, which FTS5 walks quickest). Fewer than `cap` is every
 * match: a phrase of two common words has the index compare the positions of both words in every
 * message holding them, the bulk of such a search's time, and this reads that answer once.
 */
export async function searchMatchIds(
  db: Kysely<any>,
  queries: SearchQuery[],
  cap: number,
): Promise<number[]> {
  const { rows } = await sql<{
    id: number;
  }>`SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ${ftsMatchAll(queries)} LIMIT ${cap}`.execute(
    db,
  );
  return rows.map((r) => Number(r.id));
}

/** The column that orders messagesBySearch: the index's own id order. */
export const SEARCH_ORDER_COLUMN = 'messages_fts.rowid';

/**
 * A bound on SEARCH_ORDER_COLUMN. The value is cast: the driver binds numbers as REAL, and FTS5
 * takes a rowid constraint of another type as no constraint at all (`rowid = ?` then returns
 * every match, and `<` reads them all).
 */
export const searchOrderBound = (cmp: '<' | '>' | '=', id: number) =>
  sql<SqlBool>`messages_fts.rowid ${sql.raw(cmp)} CAST(${id} AS INTEGER)`;

/**
 * SQLite: the messages `m` that match all the queries, read from the index in id order (order
 * them by SEARCH_ORDER_COLUMN, bound them with searchOrderBound, so that the index does both), joined to nothing else
 * before them: a window of the newest matches costs about as many rows as it returns.
 */
export function messagesBySearch(db: Kysely<any>, queries: SearchQuery[]) {
  return db
    .selectFrom('messages_fts')
    .crossJoin('messages as m')
    .whereRef('m.id', '=', SEARCH_ORDER_COLUMN)
    .where(sql<SqlBool>`messages_fts MATCH ${ftsMatchAll(queries)}`);
}
