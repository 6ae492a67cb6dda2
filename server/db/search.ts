import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Dialect } from './migrations.js';
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
  return html.replace(/<[^>]*>/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  });
}

/**
 * Every SQLite connection that writes messages must have this function: the index's triggers
 * call it (a connection without it fails the write rather than let the index fall behind).
 */
export function registerSearchFunctions(sqlite: SQLite.Database) {
  sqlite.function(SEARCH_TEXT_FUNCTION, { deterministic: true }, (html: unknown) =>
    typeof html === 'string' ? searchText(html) : '',
  );
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
      `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN ${FTS_ROW('new')}; END`,
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
 * The condition that message `m` matches a query (which must search for something: see
 * searchesNothing). On SQLite the index's matches are read as a list, which is quick when they
 * are few; get-messages reads from the index in id order when they are many (searchDriver).
 */
export function searchCondition(dialect: Dialect, q: SearchQuery): Expression<SqlBool> {
  if (dialect === 'postgres') return sql<SqlBool>`m.search_tsvector @@ (${tsquery(q)})`;
  return sql<SqlBool>`m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${ftsMatch(q)})`;
}
