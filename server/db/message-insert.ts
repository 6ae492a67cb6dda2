import { sql, type Selectable } from 'kysely';
import { compiledForLength, compiledQuery } from './compiled.js';
import type { Dialect } from './dialect.js';
import type { Database } from './index.js';
import type { DB } from './schema.js';

/** The statements every message sent runs, compiled once (db/compiled.ts). */
const insertMessageRow = compiledQuery(
  (
    db,
    realmId: number,
    senderId: number,
    type: 'stream' | 'private',
    streamId: number | null,
    topic: string,
    topicKey: string,
    dmKey: string | null,
    content: string,
    rendered: string,
    contentFlags: number,
    dateSent: number,
    client: string,
  ) =>
    db
      .insertInto('messages')
      .values({
        realm_id: realmId,
        sender_id: senderId,
        type,
        stream_id: streamId,
        topic,
        topic_key: topicKey,
        dm_key: dmKey,
        content,
        rendered_content: rendered,
        content_flags: contentFlags,
        date_sent: dateSent,
        last_edit_time: null,
        sending_client: client,
      })
      .returningAll(),
);
/** A new message's values, in insertMessageRow's order. */
export type MessageValues =
  Parameters<typeof insertMessageRow.first> extends [Database, ...infer V] ? V : never;

/** Rows as flat triples: user_id, message_id, flags. */
const insertUserMessages = compiledForLength(
  (db, triples: number[]) =>
    db.insertInto('user_messages').values(
      Array.from({ length: triples.length / 3 }, (_, i) => ({
        user_id: triples[3 * i],
        message_id: triples[3 * i + 1],
        flags: triples[3 * i + 2],
      })),
    ),
  3 * 32,
);

/**
 * Stores a new message and one row per recipient (`userIds` and their `flags`, in order), and
 * returns the message row. PostgreSQL writes both in one statement, which saves a round trip at
 * every send; SQLite, in process, has no round trip to save.
 */
export async function insertMessageWithRecipients(
  db: Database,
  dialect: Dialect,
  values: MessageValues,
  userIds: number[],
  flags: number[],
): Promise<Selectable<DB['messages']>> {
  if (dialect === 'postgres') return (await insertWithRecipients(db, values, userIds, flags))!;
  const message = (await insertMessageRow.first(db, ...values))!;
  for (let i = 0; i < userIds.length; i += 500)
    await insertUserMessages(
      db,
      userIds.slice(i, i + 500).flatMap((userId, k) => [userId, message.id, flags[i + k]!]),
    );
  return message;
}

/** PostgreSQL: the message row and its recipients' rows (user ids and flags, in order) at once. */
async function insertWithRecipients(
  db: Database,
  [
    realmId,
    senderId,
    type,
    streamId,
    topic,
    topicKey,
    dmKey,
    content,
    rendered,
    contentFlags,
    dateSent,
    client,
  ]: MessageValues,
  userIds: number[],
  flags: number[],
) {
  const { rows } = await sql<Selectable<DB['messages']>>`
    WITH m AS (
      INSERT INTO messages (realm_id, sender_id, type, stream_id, topic, topic_key, dm_key,
        content, rendered_content, content_flags, date_sent, last_edit_time, sending_client)
      VALUES (${realmId}, ${senderId}, ${type}, ${streamId}, ${topic}, ${topicKey}, ${dmKey},
        ${content}, ${rendered}, ${contentFlags}, ${dateSent}, NULL, ${client})
      RETURNING *
    ), recipients AS (
      INSERT INTO user_messages (user_id, message_id, flags)
      SELECT r.user_id, m.id, r.flags
      FROM m CROSS JOIN unnest(${userIds}::integer[], ${flags}::integer[]) AS r (user_id, flags)
    )
    SELECT * FROM m`.execute(db);
  return rows[0];
}
