import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, ScheduledMessageTable, User } from '../db/schema.js';
import type { Delivery, EventBody } from '../events/types.js';
import { DomainError, badRequest, missingParam, noSuchObject } from '../domain/errors.js';
import { renderMarkdown } from '../markdown/index.js';
import { checkMaySendToStream } from '../lib/send-access.js';
import { isDbId, MAX_DB_INT, nowSeconds } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { markdownContext } from './markdown-context.js';
import { normalizeContent, normalizeTopic } from '../domain/message-text.js';
import { findStream } from '../lib/streams.js';
import type {
  ScheduledMessage as WireScheduledMessage,
  ScheduledMessagesEvent,
} from '../../src/api/model/index.js';

export type ScheduledMessage = Selectable<ScheduledMessageTable>;

/** A scheduled message as the client addresses it: a stream id, or a list of user ids. */
export interface ScheduledDraft {
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
}

interface CheckedDraft {
  type: 'stream' | 'private';
  streamId: number | null;
  to: number | number[];
  topic: string;
  content: string;
  rendered: string;
}

export function scheduledToApi(row: ScheduledMessage): WireScheduledMessage {
  const out: WireScheduledMessage = {
    scheduled_message_id: row.id,
    // the column holds only the two wire types (checked when scheduling)
    type: row.type as WireScheduledMessage['type'],
    to: JSON.parse(row.to_ids),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: !!row.failed,
  };
  if (row.type === 'stream') out.topic = row.topic;
  return out;
}

/** The user's undelivered scheduled messages, soonest first (GET /scheduled_messages, register). */
export async function pendingScheduledMessages(db: Database, userId: number) {
  const rows = await db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('sender_id', '=', userId)
    .where('delivered', '=', 0)
    .orderBy('scheduled_timestamp')
    .orderBy('id')
    .execute();
  return rows.map(scheduledToApi);
}

const streamMissing = (id: number) =>
  new DomainError(`Channel with ID '${id}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, {
    stream_id: id,
  });

/** The checks a send would make, done when the message is scheduled (and again at delivery). */
async function checkDraft(
  trx: Database,
  realm: Realm,
  sender: User,
  d: ScheduledDraft,
): Promise<CheckedDraft> {
  const content = normalizeContent(d.content);
  const rendered = renderMarkdown(content, await markdownContext(trx, realm, sender, content)).html;
  if (d.type === 'stream') {
    const ids = Array.isArray(d.to) ? d.to : [d.to];
    if (ids.length !== 1) throw badRequest('Invalid data type for channel ID');
    const streamId = ids[0];
    // As when sending: found whoever asks, then refused by name if closed to the sender.
    const stream = await findStream(trx, realm, { id: streamId });
    if (!stream) throw streamMissing(streamId);
    await checkMaySendToStream(trx, realm, sender, stream);
    if (d.topic === undefined) throw missingParam('topic');
    const topic = normalizeTopic(d.topic, realmSettings(realm).mandatory_topics);
    return { type: 'stream', streamId, to: streamId, topic, content, rendered };
  }
  const ids = [...new Set(Array.isArray(d.to) ? d.to : [d.to])].sort((a, b) => a - b);
  if (!ids.length) throw badRequest('Message must have recipients');
  const outOfRange = ids.find((id) => !isDbId(id));
  if (outOfRange !== undefined) throw badRequest(`Invalid user ID ${outOfRange}`);
  const users = await trx
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('id', 'in', ids)
    .execute();
  for (const id of ids) {
    const user = users.find((u) => u.id === id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    if (!user.is_active && user.id !== sender.id)
      throw badRequest(`'${user.email}' is no longer using Zulip.`);
  }
  if (
    realmSettings(realm).private_message_policy === 2 &&
    !sender.is_bot &&
    users.some((u) => u.id !== sender.id && !u.is_bot)
  )
    throw badRequest('Direct messages are disabled in this organization.');
  return { type: 'private', streamId: null, to: ids, topic: '', content, rendered };
}

function checkFuture(timestamp: number) {
  if (timestamp <= nowSeconds()) throw badRequest('Scheduled delivery time must be in the future.');
  if (timestamp > MAX_DB_INT) throw badRequest('scheduled_delivery_timestamp is too large');
}

const event = (
  realm: Realm,
  userId: number,
  body: EventBody<ScheduledMessagesEvent>,
): Delivery => ({
  realmId: realm.id,
  userIds: [userId],
  event: { type: 'scheduled_messages', ...body },
});

/** POST /scheduled_messages */
export async function createScheduledMessage(
  ctx: AppContext,
  realm: Realm,
  sender: User,
  draft: ScheduledDraft,
  opts: { deliverAt: number; client: string; readBySender?: boolean },
) {
  checkFuture(opts.deliverAt);
  return transact(ctx, async (trx, events) => {
    const d = await checkDraft(trx, realm, sender, draft);
    const row = await trx
      .insertInto('scheduled_messages')
      .values({
        realm_id: realm.id,
        sender_id: sender.id,
        type: d.type,
        stream_id: d.streamId,
        to_ids: JSON.stringify(d.to),
        topic: d.topic,
        content: d.content,
        rendered_content: d.rendered,
        scheduled_timestamp: opts.deliverAt,
        sending_client: opts.client,
        read_by_sender: opts.readBySender === undefined ? null : opts.readBySender ? 1 : 0,
        delivered: 0,
        delivered_message_id: null,
        failed: 0,
        failure_message: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    events.push(event(realm, sender.id, { op: 'add', scheduled_messages: [scheduledToApi(row)] }));
    return { scheduled_message_id: row.id };
  });
}

async function ownScheduledMessage(
  trx: Database,
  sender: User,
  id: number,
): Promise<ScheduledMessage> {
  if (!isDbId(id)) throw noSuchObject('Scheduled message does not exist');
  const row = await trx
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('id', '=', id)
    .where('sender_id', '=', sender.id)
    .executeTakeFirst();
  if (!row) throw noSuchObject('Scheduled message does not exist');
  return row;
}

export interface ScheduledEdit {
  type?: 'stream' | 'private';
  to?: number | number[];
  topic?: string;
  content?: string;
  deliverAt?: number;
  client: string;
}

/** PATCH /scheduled_messages/{id} */
export async function editScheduledMessage(
  ctx: AppContext,
  realm: Realm,
  sender: User,
  id: number,
  edit: ScheduledEdit,
) {
  const { type, to, topic, content, deliverAt } = edit;
  if ([type, to, topic, content, deliverAt].every((v) => v === undefined))
    throw badRequest('Nothing to change');
  if (type !== undefined && to === undefined)
    throw badRequest('Recipient required when updating type of scheduled message.');
  if (deliverAt !== undefined) checkFuture(deliverAt);
  return transact(ctx, async (trx, events) => {
    const row = await ownScheduledMessage(trx, sender, id);
    if (row.delivered) throw badRequest('Scheduled message was already sent');
    if (row.failed && deliverAt === undefined)
      throw badRequest('Scheduled delivery time must be in the future.');
    const existingType = row.type as 'stream' | 'private';
    const changes: Partial<ScheduledMessage> = {
      sending_client: edit.client,
      failed: 0,
      failure_message: null,
    };
    if (type !== undefined || to !== undefined || content !== undefined) {
      const newType = type ?? existingType;
      if (newType === 'stream' && existingType !== 'stream' && topic === undefined)
        throw badRequest('Topic required when updating scheduled message type to channel.');
      const d = await checkDraft(trx, realm, sender, {
        type: newType,
        to: to ?? (JSON.parse(row.to_ids) as number | number[]),
        topic: topic ?? row.topic,
        content: content ?? row.content,
      });
      Object.assign(changes, {
        type: d.type,
        stream_id: d.streamId,
        to_ids: JSON.stringify(d.to),
        topic: d.topic,
        content: d.content,
        rendered_content: d.rendered,
      });
    } else if (topic !== undefined && existingType === 'stream') {
      changes.topic = normalizeTopic(topic, realmSettings(realm).mandatory_topics);
    }
    if (deliverAt !== undefined) changes.scheduled_timestamp = deliverAt;
    const updated = await trx
      .updateTable('scheduled_messages')
      .set(changes)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    events.push(
      event(realm, sender.id, { op: 'update', scheduled_message: scheduledToApi(updated) }),
    );
    return {};
  });
}

/** DELETE /scheduled_messages/{id} */
export async function deleteScheduledMessage(
  ctx: AppContext,
  realm: Realm,
  sender: User,
  id: number,
) {
  return transact(ctx, async (trx, events) => {
    const row = await ownScheduledMessage(trx, sender, id);
    await trx.deleteFrom('scheduled_messages').where('id', '=', row.id).execute();
    events.push(event(realm, sender.id, { op: 'remove', scheduled_message_id: row.id }));
    return {};
  });
}

/** GET /scheduled_messages */
export async function getScheduledMessages(ctx: AppContext, user: User) {
  return { scheduled_messages: await pendingScheduledMessages(ctx.db, user.id) };
}

export { event as scheduledMessagesEvent };
