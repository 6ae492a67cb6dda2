import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { DeliveredEvent, Delivery } from '../events/types.js';
import type { DeleteMessageEvent } from '../../src/api/model/index.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import { mayDeleteOwnMessages } from '../lib/policies.js';
import { canReadStreamHistory, receivedMessageIds } from '../lib/access.js';
import { requireAdmin } from '../lib/admin-checks.js';
import { accessibleMessage } from '../lib/message-access.js';
import { releaseClaims } from './upload-claims.js';
import { realmSettings } from '../lib/realm.js';
import { streamForUser } from '../lib/streams.js';

/** DELETE /messages/{id}: administrators always; senders by policy, within the delete time limit. */
export async function deleteMessage(ctx: AppContext, realm: Realm, user: User, messageId: number) {
  const row = await accessibleMessage(ctx.db, realm, user, messageId);
  if (!row) throw badRequest('Invalid message(s)');
  const settings = realmSettings(realm);
  if (!isAdmin(user)) {
    const own = row.sender_id === user.id || (await isOwnBot(ctx, user, row.sender_id));
    if (!own || !mayDeleteOwnMessages(realm, user))
      throw badRequest("You don't have permission to delete this message");
    const limit = settings.message_content_delete_limit_seconds;
    if (limit !== null && Date.now() / 1000 - row.date_sent > limit)
      throw badRequest('The time limit for deleting this message has passed');
  }
  return transact(ctx, async (trx, events) => {
    const holders = (
      await trx
        .selectFrom('user_messages')
        .select('user_id')
        .where('message_id', '=', messageId)
        .execute()
    ).map((r) => r.user_id);
    await removeMessages(trx, [messageId]);
    const event: DeliveredEvent<DeleteMessageEvent> = {
      type: 'delete_message',
      message_ids: [messageId],
      message_type: row.type === 'stream' ? 'stream' : 'private',
    };
    if (row.type === 'stream') Object.assign(event, { stream_id: row.stream_id, topic: row.topic });
    events.push({ realmId: realm.id, userIds: holders, event });
    return {};
  });
}

/** Messages deleted per transaction by a topic deletion, newest first, as upstream does. */
const TOPIC_DELETE_BATCH = 1000;

/**
 * POST /streams/{stream_id}/delete_topic: administrators delete every message of a topic they can
 * read (with protected history, only those they received). Batches commit one by one; the answer
 * is `complete: true` once the topic is empty (feature level 211).
 */
export async function deleteTopic(
  ctx: AppContext,
  realm: Realm,
  user: User,
  streamId: number,
  topicName: string,
) {
  requireAdmin(user);
  const { stream, subscribed } = await streamForUser(ctx.db, realm, user, { id: streamId });
  const fullHistory = canReadStreamHistory(user, stream, subscribed);
  const topicKey = topicName.trim().toLowerCase();
  for (;;) {
    const deleted = await transact(ctx, async (trx, events) => {
      let q = trx
        .selectFrom('messages')
        .select('id')
        .where('stream_id', '=', stream.id)
        .where('topic_key', '=', topicKey);
      if (!fullHistory) q = q.where('id', 'in', receivedMessageIds(trx, user.id));
      const ids = (await q.orderBy('id', 'desc').limit(TOPIC_DELETE_BATCH).execute()).map(
        (r) => r.id,
      );
      if (!ids.length) return 0;
      const rows = await trx
        .selectFrom('user_messages')
        .select(['user_id', 'message_id'])
        .where('message_id', 'in', ids)
        .execute();
      const topic = (
        await trx
          .selectFrom('messages')
          .select('topic')
          .where('id', '=', ids[0])
          .executeTakeFirstOrThrow()
      ).topic;
      await removeMessages(trx, ids);
      events.push(
        ...deletionDeliveries(realm, rows, { message_type: 'stream', stream_id: stream.id, topic }),
      );
      return ids.length;
    });
    if (deleted < TOPIC_DELETE_BATCH) return { complete: true };
  }
}

/** One delete_message event per distinct set of ids, so nobody learns of messages they never had. */
function deletionDeliveries(
  realm: Realm,
  rows: { user_id: number; message_id: number }[],
  fields: Pick<DeleteMessageEvent, 'message_type' | 'stream_id' | 'topic'>,
): Delivery[] {
  const byUser = new Map<number, number[]>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.message_id]);
  const byIds = new Map<string, { ids: number[]; users: number[] }>();
  for (const [userId, ids] of byUser) {
    ids.sort((a, b) => a - b);
    const key = ids.join(',');
    const entry = byIds.get(key) ?? { ids, users: [] };
    entry.users.push(userId);
    byIds.set(key, entry);
  }
  return [...byIds.values()].map(({ ids, users }) => ({
    realmId: realm.id,
    userIds: users,
    event: { type: 'delete_message', message_ids: ids, ...fields },
  }));
}

export async function removeMessages(trx: Database, ids: number[]) {
  await releaseClaims(trx, ids);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await trx.deleteFrom('user_messages').where('message_id', 'in', chunk).execute();
    await trx.deleteFrom('reactions').where('message_id', 'in', chunk).execute();
    await trx.deleteFrom('submessages').where('message_id', 'in', chunk).execute();
    await trx.deleteFrom('message_edits').where('message_id', 'in', chunk).execute();
    await trx.deleteFrom('messages').where('id', 'in', chunk).execute();
  }
}

async function isOwnBot(ctx: AppContext, user: User, senderId: number) {
  const sender = await ctx.db
    .selectFrom('users')
    .select(['is_bot', 'bot_owner_id'])
    .where('id', '=', senderId)
    .executeTakeFirst();
  return !!sender?.is_bot && sender.bot_owner_id === user.id;
}
