import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { FLAG_BITS } from '../domain/flags.js';
import { changeFlags, checkChangeableFlag } from './flags.js';
import { baseQuery, MAX_MESSAGES_PER_FETCH } from '../lib/get-messages.js';
import { narrowLookup, planNarrow, type NarrowTerm } from '../lib/narrow.js';
import { expandWithOperator } from '../lib/narrow-with.js';
import { streamForUser } from '../lib/streams.js';

async function unreadIds(
  trx: Database,
  userId: number,
  filter: { streamId?: number; topic?: string },
): Promise<number[]> {
  let q = trx
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select('um.message_id')
    .where('um.user_id', '=', userId)
    .where((eb) => eb(eb('um.flags', '&', FLAG_BITS.read), '=', 0));
  if (filter.streamId !== undefined) q = q.where('m.stream_id', '=', filter.streamId);
  if (filter.topic !== undefined) q = q.where('m.topic_key', '=', filter.topic.toLowerCase());
  return (await q.orderBy('um.message_id').execute()).map((r) => r.message_id);
}

/** POST /mark_all_as_read */
export async function markAllAsRead(ctx: AppContext, realm: Realm, user: User) {
  return transact(ctx, async (trx, events) => {
    await changeFlags(trx, realm, user, await unreadIds(trx, user.id, {}), 'add', 'read', events);
    return { complete: true };
  });
}

/** POST /mark_stream_as_read */
export async function markStreamAsRead(
  ctx: AppContext,
  realm: Realm,
  user: User,
  streamId: number,
) {
  const { stream } = await streamForUser(ctx.db, realm, user, { id: streamId });
  return transact(ctx, async (trx, events) => {
    await changeFlags(
      trx,
      realm,
      user,
      await unreadIds(trx, user.id, { streamId: stream.id }),
      'add',
      'read',
      events,
    );
    return {};
  });
}

/** POST /mark_topic_as_read (deprecated in favour of /messages/flags/narrow) */
export async function markTopicAsRead(
  ctx: AppContext,
  realm: Realm,
  user: User,
  streamId: number,
  topic: string,
) {
  const { stream } = await streamForUser(ctx.db, realm, user, { id: streamId });
  return transact(ctx, async (trx, events) => {
    const ids = await unreadIds(trx, user.id, { streamId: stream.id, topic });
    if (!ids.length) {
      const exists = await trx
        .selectFrom('messages')
        .select('id')
        .where('stream_id', '=', stream.id)
        .where('topic_key', '=', topic.toLowerCase())
        .executeTakeFirst();
      if (!exists) throw badRequest('No such topic');
    }
    await changeFlags(trx, realm, user, ids, 'add', 'read', events);
    return {};
  });
}

/** POST /messages/flags/narrow: a flag change over a window of a narrow, as GET /messages selects it. */
export async function updateFlagsForNarrow(
  ctx: AppContext,
  realm: Realm,
  user: User,
  opts: {
    anchor: 'newest' | 'oldest' | 'first_unread' | number;
    includeAnchor: boolean;
    numBefore: number;
    numAfter: number;
    narrow: NarrowTerm[];
    op: string;
    flag: string;
  },
) {
  if (opts.op !== 'add' && opts.op !== 'remove')
    throw badRequest(`Invalid message flag operation: '${opts.op}'`);
  const flag = checkChangeableFlag(opts.flag);
  // As upstream: a larger window is narrowed (the client continues from last_processed_id, as
  // found_newest and found_oldest tell it), not refused.
  const numBefore = Math.min(opts.numBefore, MAX_MESSAGES_PER_FETCH);
  const numAfter = Math.min(opts.numAfter, MAX_MESSAGES_PER_FETCH - numBefore);
  const op = opts.op;
  const narrow = await expandWithOperator(ctx.db, realm, user, opts.narrow);
  const plan = planNarrow(narrow, await narrowLookup(ctx.db, realm, user, narrow), ctx.dialect);
  // Only the user's own message rows can carry flags.
  plan.historyStream = null;
  plan.publicStreamIds = null;
  const MAX_ID = 2147483647;
  let anchor: number;
  if (opts.anchor === 'newest') anchor = MAX_ID;
  else if (opts.anchor === 'oldest') anchor = 0;
  else if (opts.anchor === 'first_unread') {
    const first = await baseQuery(ctx, user, plan)
      .clearSelect()
      .select(sql<number>`min(m.id)`.as('first'))
      .where(sql<number>`um.flags & ${FLAG_BITS.read}`, '=', 0)
      .executeTakeFirst();
    anchor = first?.first != null ? Number(first.first) : MAX_ID;
  } else anchor = Math.min(opts.anchor, MAX_ID);
  const ids = async (cmp: '<' | '>' | '=', dir: 'asc' | 'desc', limit: number) =>
    limit <= 0
      ? []
      : (
          await baseQuery(ctx, user, plan)
            .clearSelect()
            .select('um.message_id as id')
            .where('um.message_id', cmp, anchor)
            .orderBy('um.message_id', dir)
            .limit(limit)
            .execute()
        ).map((r: any) => Number(r.id));
  const before = await ids('<', 'desc', numBefore + 1);
  const at = opts.includeAnchor ? await ids('=', 'asc', 1) : [];
  const after = await ids('>', 'asc', numAfter + 1);
  const processed = [...before.slice(0, numBefore).reverse(), ...at, ...after.slice(0, numAfter)];
  return transact(ctx, async (trx, events) => {
    const updated = await changeFlags(trx, realm, user, processed, op, flag, events);
    return {
      processed_count: processed.length,
      updated_count: updated.length,
      first_processed_id: processed[0] ?? null,
      last_processed_id: processed[processed.length - 1] ?? null,
      found_oldest: before.length <= numBefore,
      found_newest: after.length <= numAfter,
    };
  });
}
