import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { isAdmin, policyAllows } from '../domain/roles.js';
import { accessibleMessage } from './get-messages.js';
import { realmSettings } from './realm.js';

/** DELETE /messages/{id}: administrators always; senders by policy, within the delete time limit. */
export async function deleteMessage(ctx: AppContext, realm: Realm, user: User, messageId: number) {
  const row = await accessibleMessage(ctx, realm, user, messageId);
  if (!row) throw badRequest('Invalid message(s)');
  const settings = realmSettings(realm);
  if (!isAdmin(user)) {
    const own = row.sender_id === user.id || (await isOwnBot(ctx, user, row.sender_id));
    if (!own || !policyAllows(settings.delete_own_message_policy, user)) throw badRequest("You don't have permission to delete this message");
    const limit = settings.message_content_delete_limit_seconds;
    if (limit !== null && Date.now() / 1000 - row.date_sent > limit) throw badRequest('The time limit for deleting this message has passed');
  }
  return transact(ctx, async (trx, events) => {
    const holders = (await trx.selectFrom('user_messages').select('user_id').where('message_id', '=', messageId).execute()).map((r) => r.user_id);
    await trx.deleteFrom('user_messages').where('message_id', '=', messageId).execute();
    await trx.deleteFrom('reactions').where('message_id', '=', messageId).execute();
    await trx.deleteFrom('message_edits').where('message_id', '=', messageId).execute();
    await trx.deleteFrom('messages').where('id', '=', messageId).execute();
    const event: Record<string, unknown> = { type: 'delete_message', message_ids: [messageId], message_type: row.type === 'stream' ? 'stream' : 'private' };
    if (row.type === 'stream') Object.assign(event, { stream_id: row.stream_id, topic: row.topic });
    events.push({ realmId: realm.id, userIds: holders, event: event as any });
    return {};
  });
}

async function isOwnBot(ctx: AppContext, user: User, senderId: number) {
  const sender = await ctx.db.selectFrom('users').select(['is_bot', 'bot_owner_id']).where('id', '=', senderId).executeTakeFirst();
  return !!sender?.is_bot && sender.bot_owner_id === user.id;
}
