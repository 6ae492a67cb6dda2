import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, Stream, User } from '../db/schema.js';
import {
  editHistoryEntry,
  finishMessage,
  messageRecord,
  type DisplayUser,
} from '../domain/serialize.js';
import type { EditHistoryEntry } from '../../src/api/model/message.js';
import { realmSettings } from './realm.js';
import { dmIds, dmKeyOf } from '../domain/conversations.js';
import type { SubmessageRecord } from '../domain/widgets.js';

/** Loads what message records need (senders, streams, DM participants) in a few queries. */
export async function buildMessageRecords(
  ctx: AppContext,
  db: Database,
  realm: Realm,
  messages: Message[],
  /**
   * What the caller has already read: a message being sent knows its channel, its sender (as
   * upstream, the person who sent it as they were when the request came in) and its direct
   * recipients, and has no reactions yet, so none of them is read again.
   */
  known: {
    streams?: Stream[];
    users?: User[];
    noReactions?: boolean;
    /** a message being sent: its submessages (its widget, or none) */
    submessages?: SubmessageRecord[];
  } = {},
): Promise<Map<number, Record<string, unknown>>> {
  const userIds = new Set<number>();
  const streamIds = new Set<number>();
  for (const m of messages) {
    userIds.add(m.sender_id);
    if (m.stream_id !== null) streamIds.add(m.stream_id);
    for (const id of dmIds(m.dm_key)) userIds.add(id);
  }
  const userMap = new Map<number, Pick<User, 'id' | 'email' | 'full_name' | 'avatar_version'>>(
    (known.users ?? []).map((u) => [u.id, u]),
  );
  const missingUsers = [...userIds].filter((id) => !userMap.has(id));
  if (missingUsers.length)
    for (const u of await db
      .selectFrom('users')
      .select(['id', 'email', 'full_name', 'avatar_version'])
      .where('id', 'in', missingUsers)
      .execute())
      userMap.set(u.id, u);
  const streamMap = new Map<number, Stream>((known.streams ?? []).map((s) => [s.id, s]));
  const missingStreams = [...streamIds].filter((id) => !streamMap.has(id));
  if (missingStreams.length)
    for (const s of await db
      .selectFrom('streams')
      .selectAll()
      .where('id', 'in', missingStreams)
      .execute())
      streamMap.set(s.id, s);
  const reactions = known.noReactions
    ? new Map<number, never[]>()
    : await reactionsFor(
        db,
        messages.map((m) => m.id),
      );
  const submessages = known.submessages
    ? new Map(messages.map((m) => [m.id, known.submessages!]))
    : await submessagesOf(
        db,
        messages.map((m) => m.id),
      );
  const editHistory = await editHistoryOf(db, realm, messages);
  const out = new Map<number, Record<string, unknown>>();
  for (const m of messages) {
    const sender = userMap.get(m.sender_id)!;
    out.set(
      m.id,
      messageRecord(ctx, {
        id: m.id,
        sender,
        type: m.type,
        stream: m.stream_id !== null ? streamMap.get(m.stream_id) : null,
        topic: m.topic,
        dmUsers: dmIds(m.dm_key)
          .map((id) => userMap.get(id))
          .filter((u): u is DisplayUser & { avatar_version: number } => !!u),
        content: m.content,
        rendered_content: m.rendered_content,
        date_sent: m.date_sent,
        last_edit_time: m.last_edit_time,
        sending_client: m.sending_client,
        realm,
        reactions: reactions.get(m.id) ?? [],
        submessages: submessages.get(m.id) ?? [],
        edit_history: editHistory.get(m.id),
      }),
    );
  }
  return out;
}

export { dmIds, dmKeyOf };

export async function formatMessages(
  ctx: AppContext,
  db: Database,
  realm: Realm,
  rows: (Message & { flags: number })[],
  opts: { applyMarkdown: boolean },
) {
  const records = await buildMessageRecords(ctx, db, realm, rows);
  return rows.map((r) =>
    finishMessage(records.get(r.id)!, { applyMarkdown: opts.applyMarkdown, flags: r.flags }),
  );
}

export type { User };

/** The submessages of some messages, oldest first, by message id. */
export async function submessagesOf(db: Database, messageIds: number[]) {
  const map = new Map<number, SubmessageRecord[]>();
  if (!messageIds.length) return map;
  const rows = await db
    .selectFrom('submessages')
    .select(['id', 'message_id', 'sender_id', 'msg_type', 'content'])
    .where('message_id', 'in', messageIds)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = map.get(row.message_id) ?? [];
    list.push(row);
    map.set(row.message_id, list);
  }
  return map;
}

/**
 * The edit history of the messages ever edited or moved, newest first, by message id: one query
 * for the whole page, which never-edited messages (most of them) stay out of. None at all when
 * the organization hides edit history.
 */
export async function editHistoryOf(
  db: Database,
  realm: Realm,
  messages: Pick<Message, 'id' | 'last_edit_time'>[],
) {
  const map = new Map<number, EditHistoryEntry[]>();
  if (!realmSettings(realm).allow_edit_history) return map;
  const edited = messages.filter((m) => m.last_edit_time !== null).map((m) => m.id);
  if (!edited.length) return map;
  const rows = await db
    .selectFrom('message_edits')
    .select([
      'message_id',
      'user_id',
      'timestamp',
      'prev_content',
      'prev_rendered_content',
      'prev_topic',
      'prev_stream_id',
      'topic',
      'stream_id',
    ])
    .where('message_id', 'in', edited)
    .orderBy('id', 'desc')
    .execute();
  for (const row of rows) {
    const list = map.get(row.message_id) ?? [];
    list.push(editHistoryEntry(row));
    map.set(row.message_id, list);
  }
  return map;
}

/** Reactions as message records carry them. */
export async function reactionsFor(db: Database, messageIds: number[]) {
  const map = new Map<number, Record<string, unknown>[]>();
  if (!messageIds.length) return map;
  const rows = await db
    .selectFrom('reactions')
    .innerJoin('users', 'users.id', 'reactions.user_id')
    .select([
      'reactions.message_id',
      'reactions.user_id',
      'reactions.emoji_name',
      'reactions.emoji_code',
      'reactions.reaction_type',
      'users.email',
      'users.full_name',
    ])
    .where('reactions.message_id', 'in', messageIds)
    .execute();
  for (const r of rows) {
    const list = map.get(r.message_id) ?? [];
    list.push({
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
      user_id: r.user_id,
      user: { id: r.user_id, email: r.email, full_name: r.full_name, is_mirror_dummy: false },
    });
    map.set(r.message_id, list);
  }
  return map;
}
