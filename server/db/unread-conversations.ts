import { sql, type Transaction } from 'kysely';
import { FLAG_BITS, WILDCARD_BITS } from '../domain/flags.js';
import { rowsWith } from './flag-conditions.js';
import type { Database } from './index.js';
import type { DB } from './schema.js';
import { joinedIds, type Dialect } from './dialect.js';

/** One conversation among a person's newest unread messages, its ids as comma-separated text. */
export interface UnreadConversationRow {
  stream_id: number | null;
  topic_key: string;
  dm_key: string | null;
  /** every unread message of the conversation among the newest, in no particular order */
  ids: string;
  /** those that mention the person by name, or null */
  mentioned: string | null;
  /** those with a wildcard mention (@all, @topic...), or null */
  wildcard: string | null;
}

const withBits = (bits: number) => sql`case when u.flags & ${sql.lit(bits)} != 0 then m.id end`;

/**
 * A person's newest `limit` unread messages, grouped by conversation (channel and topic, or
 * direct-message participants) in the database: tens of thousands of unread rows come back as a
 * few thousand groups, instead of one row object per message.
 *
 * The unread rows come from the index of unread rows alone (user_messages_unread_flags, which
 * holds the flags), newest first; each message is then found by its primary key.
 */
export async function unreadConversations(
  db: Database,
  dialect: Dialect,
  userId: number,
  limit: number,
): Promise<UnreadConversationRow[]> {
  if (dialect === 'sqlite') return grouped(db, dialect, userId, limit);
  // PostgreSQL would rather hash-join the unread rows with a scan of every message (a million
  // rows for fifty thousand wanted); a lateral lookup keeps it to one index seek per unread
  // message. That plan's estimated cost would also start the JIT compiler, which takes longer
  // than the query itself.
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL jit = off`.execute(tx);
    return grouped(tx, dialect, userId, limit);
  });
}

async function grouped(
  db: Database | Transaction<DB>,
  dialect: Dialect,
  userId: number,
  limit: number,
): Promise<UnreadConversationRow[]> {
  const recent = db
    .selectFrom('user_messages')
    .select(['message_id', 'flags'])
    .where('user_id', '=', userId)
    .where(rowsWith('unread'))
    .orderBy('message_id', 'desc')
    .limit(limit)
    .as('u');
  const columns = [
    'm.stream_id',
    'm.topic_key',
    'm.dm_key',
    joinedIds(dialect, sql.ref('m.id')).as('ids'),
    joinedIds(dialect, withBits(FLAG_BITS.mentioned)).as('mentioned'),
    joinedIds(dialect, withBits(WILDCARD_BITS)).as('wildcard'),
  ] as const;
  const groupBy = ['m.stream_id', 'm.topic_key', 'm.dm_key'] as const;
  const rows =
    dialect === 'sqlite'
      ? await db
          .selectFrom(recent)
          .innerJoin('messages as m', 'm.id', 'u.message_id')
          .select(columns)
          .groupBy(groupBy)
          .execute()
      : await db
          .selectFrom(recent)
          .innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('messages')
                .select(['id', 'stream_id', 'topic_key', 'dm_key'])
                .whereRef('messages.id', '=', 'u.message_id')
                // keeps the subquery from being merged into a plain join
                .offset(0)
                .as('m'),
            (join) => join.onTrue(),
          )
          .select(columns)
          .groupBy(groupBy)
          .execute();
  return rows as UnreadConversationRow[];
}

/** The topic of each of these messages, by id (read in batches of a few thousand ids). */
export async function topicsOf(db: Database, messageIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let at = 0; at < messageIds.length; at += 5000) {
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'topic'])
      .where('id', 'in', messageIds.slice(at, at + 5000))
      .execute();
    for (const r of rows) out.set(r.id, r.topic);
  }
  return out;
}
