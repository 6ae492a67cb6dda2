import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { DeliveredEvent, Delivery } from '../events/types.js';
import type { UnreadMessageDetails, UpdateMessageFlagsEvent } from '../../src/api/model/index.js';
import { badRequest } from '../domain/errors.js';
import { FLAG_BITS, type FlagName, USER_CHANGEABLE_FLAGS, WILDCARD_BITS } from '../domain/flags.js';
import { VISIBILITY } from './subscription-properties.js';
import { accessibleMessage } from '../lib/message-access.js';
import { dmIds } from '../lib/message-records.js';

export function checkChangeableFlag(flag: string): FlagName {
  if (!(flag in FLAG_BITS) && flag !== 'wildcard_mentioned')
    throw badRequest(`Invalid flag: '${flag}'`);
  if (!USER_CHANGEABLE_FLAGS.includes(flag as FlagName))
    throw badRequest(`Flag not editable: '${flag}'`);
  return flag as FlagName;
}

/** Details clients need to put messages back into their unread counts. */
export async function messageDetails(db: Database, userId: number, ids: number[]) {
  const details: Record<string, UnreadMessageDetails> = {};
  if (!ids.length) return details;
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('user_messages as um', 'um.message_id', 'm.id')
    .select(['m.id', 'm.type', 'm.stream_id', 'm.topic', 'm.topic_key', 'm.dm_key', 'um.flags'])
    .where('um.user_id', '=', userId)
    .where('m.id', 'in', ids)
    .execute();
  const mutedStreams = new Set(
    (
      await db
        .selectFrom('subscriptions')
        .select('stream_id')
        .where('user_id', '=', userId)
        .where('is_muted', '=', 1)
        .execute()
    ).map((r) => r.stream_id),
  );
  const policies = await db
    .selectFrom('user_topics')
    .select(['stream_id', 'topic_key', 'visibility_policy'])
    .where('user_id', '=', userId)
    .execute();
  const policy = new Map(
    policies.map((t) => [`${t.stream_id}\u0000${t.topic_key}`, t.visibility_policy]),
  );
  /** As in the register's unread summary: a muted topic, or a muted stream unless the topic is unmuted or followed. */
  const muted = (streamId: number, topicKey: string) => {
    const p = policy.get(`${streamId}\u0000${topicKey}`);
    return (
      p === VISIBILITY.MUTED ||
      (p !== VISIBILITY.UNMUTED && p !== VISIBILITY.FOLLOWED && mutedStreams.has(streamId))
    );
  };
  for (const r of rows) {
    const d: UnreadMessageDetails = { type: r.type === 'stream' ? 'stream' : 'private' };
    // A wildcard mention in a muted conversation does not count as a mention (the register agrees).
    const wildcardCounts = r.type !== 'stream' || !muted(r.stream_id!, r.topic_key);
    if (r.flags & FLAG_BITS.mentioned || (r.flags & WILDCARD_BITS && wildcardCounts))
      d.mentioned = true;
    if (r.type === 'stream') {
      d.stream_id = r.stream_id!;
      d.topic = r.topic;
      d.unmuted_stream_msg = !mutedStreams.has(r.stream_id!);
    } else {
      d.user_ids = dmIds(r.dm_key).filter((id) => id !== userId);
    }
    details[String(r.id)] = d;
  }
  return details;
}

/** Applies a flag change to the user's rows and returns the ids whose flag actually changed. */
export async function changeFlags(
  trx: Database,
  realm: Realm,
  user: User,
  ids: number[],
  op: 'add' | 'remove',
  flag: FlagName,
  events: Delivery[],
): Promise<number[]> {
  const bit = FLAG_BITS[flag];
  const changed: number[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await trx
      .selectFrom('user_messages')
      .select(['message_id', 'flags'])
      .where('user_id', '=', user.id)
      .where('message_id', 'in', chunk)
      .execute();
    for (const r of rows)
      if (op === 'add' ? !(r.flags & bit) : r.flags & bit) changed.push(r.message_id);
  }
  for (let i = 0; i < changed.length; i += 500) {
    const chunk = changed.slice(i, i + 500);
    await trx
      .updateTable('user_messages')
      .set((eb) => ({ flags: op === 'add' ? eb('flags', '|', bit) : eb('flags', '&', ~bit) }))
      .where('user_id', '=', user.id)
      .where('message_id', 'in', chunk)
      .execute();
  }
  if (changed.length) {
    const event: DeliveredEvent<UpdateMessageFlagsEvent> = {
      type: 'update_message_flags',
      op,
      operation: op,
      flag,
      messages: changed,
      all: false,
    };
    if (flag === 'read' && op === 'remove')
      event.message_details = await messageDetails(trx, user.id, changed);
    events.push({ realmId: realm.id, userIds: [user.id], event });
  }
  return changed;
}

/** POST /messages/flags */
export async function updateMessageFlags(
  ctx: AppContext,
  realm: Realm,
  user: User,
  opts: { messages: number[]; op: string; flag: string },
) {
  if (opts.op !== 'add' && opts.op !== 'remove')
    throw badRequest(`Invalid message flag operation: '${opts.op}'`);
  const flag = checkChangeableFlag(opts.flag);
  const op = opts.op;
  return transact(ctx, async (trx, events) => {
    const ids = [...new Set(opts.messages)];
    const have = new Set<number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await trx
        .selectFrom('user_messages')
        .select('message_id')
        .where('user_id', '=', user.id)
        .where('message_id', 'in', ids.slice(i, i + 500))
        .execute();
      rows.forEach((r) => have.add(r.message_id));
    }
    // Starring or collapsing a message from a stream's history creates the user's row for it.
    const missing = ids.filter((id) => !have.has(id));
    for (const id of missing) {
      const accessible = await accessibleMessage(trx, realm, user, id);
      if (!accessible) throw badRequest('Invalid message(s)');
      if (op === 'add' && flag !== 'read') {
        await trx
          .insertInto('user_messages')
          .values({
            user_id: user.id,
            message_id: id,
            flags: FLAG_BITS.historical | FLAG_BITS.read,
          })
          .execute();
        have.add(id);
      }
    }
    await changeFlags(
      trx,
      realm,
      user,
      ids.filter((id) => have.has(id)),
      op,
      flag,
      events,
    );
    return { messages: ids.filter((id) => have.has(id)) };
  });
}
