import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm } from '../db/schema.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { nowSeconds } from '../lib/admin-checks.js';
import {
  scheduledMessagesEvent,
  scheduledToApi,
  type ScheduledMessage,
} from './scheduled-messages.js';
import { insertMessage, type Recipient } from './send-message.js';
import { notificationBot } from './system-bots.js';

/** The real server gives up on a scheduled message this long after its time. */
export const LATE_CUTOFF_SECONDS = 10 * 60;
const BATCH = 100;

/** A failure the sender is not told about: their account or organization is gone. */
class SilentFailure extends Error {}

/**
 * Sends the scheduled messages that are due, oldest first, each in its own transaction, and
 * returns how many it attempted. Failures are recorded on the scheduled message (`failed`) and
 * explained to the sender by the Notification Bot. `now` is for tests.
 */
export async function deliverDueScheduledMessages(
  ctx: AppContext,
  now = nowSeconds(),
): Promise<number> {
  const due = await ctx.db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('delivered', '=', 0)
    .where('failed', '=', 0)
    .where('scheduled_timestamp', '<=', now)
    .orderBy('scheduled_timestamp')
    .orderBy('id')
    .limit(BATCH)
    .execute();
  for (const row of due) {
    try {
      await deliver(ctx, row, now);
    } catch (err) {
      await recordFailure(ctx, row, err).catch((e) => ctx.log.error?.(e));
    }
  }
  return due.length;
}

async function deliver(ctx: AppContext, row: ScheduledMessage, now: number) {
  await transact(ctx, async (trx, events) => {
    // Claiming the row first makes a second process (or an overlapping tick) skip it.
    const claim = await trx
      .updateTable('scheduled_messages')
      .set({ delivered: 1 })
      .where('id', '=', row.id)
      .where('delivered', '=', 0)
      .where('failed', '=', 0)
      .executeTakeFirst();
    if (!Number(claim.numUpdatedRows)) return;
    const realm = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', row.realm_id)
      .executeTakeFirstOrThrow();
    if (realm.deactivated) throw new SilentFailure('This organization has been deactivated');
    const sender = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', row.sender_id)
      .executeTakeFirstOrThrow();
    if (!sender.is_active) throw new SilentFailure('Account is deactivated');
    if (now > row.scheduled_timestamp + LATE_CUTOFF_SECONDS)
      throw badRequest('Message could not be sent at the scheduled time.');
    const to = JSON.parse(row.to_ids) as number | number[];
    const recipient: Recipient =
      row.type === 'stream'
        ? { type: 'stream', streamId: row.stream_id!, topic: row.topic }
        : { type: 'direct', userIds: Array.isArray(to) ? to : [to] };
    const sent = await insertMessage(ctx, trx, events, realm, sender, {
      recipient,
      content: row.content,
      client: row.sending_client,
    });
    await trx
      .updateTable('scheduled_messages')
      .set({ delivered_message_id: sent.id as number })
      .where('id', '=', row.id)
      .execute();
    events.push(
      scheduledMessagesEvent(realm, sender.id, { op: 'remove', scheduled_message_id: row.id }),
    );
  });
}

async function recordFailure(ctx: AppContext, row: ScheduledMessage, err: unknown) {
  const known = err instanceof DomainError || err instanceof SilentFailure;
  const reason = known ? (err as Error).message : 'Internal server error';
  if (!known) ctx.log.error?.(err as any);
  const realm = await transact(ctx, async (trx, events) => {
    const updated = await trx
      .updateTable('scheduled_messages')
      .set({ failed: 1, failure_message: reason })
      .where('id', '=', row.id)
      .where('delivered', '=', 0)
      .returningAll()
      .executeTakeFirst();
    if (!updated || err instanceof SilentFailure) return null;
    const realm: Realm = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', row.realm_id)
      .executeTakeFirstOrThrow();
    events.push(
      scheduledMessagesEvent(realm, row.sender_id, {
        op: 'update',
        scheduled_message: scheduledToApi(updated),
      }),
    );
    return realm;
  });
  if (!realm) return;
  // Separately, so that a failing notice cannot undo the record of the failure.
  const when = new Date(row.scheduled_timestamp * 1000).toISOString();
  await transact(ctx, async (trx, events) => {
    const bot = await notificationBot(ctx, trx, realm, events);
    await insertMessage(
      ctx,
      trx,
      events,
      realm,
      bot,
      {
        recipient: { type: 'direct', userIds: [row.sender_id] },
        content: `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`,
        client: 'Internal',
      },
      true,
    );
  });
}

/**
 * Runs deliverDueScheduledMessages every `intervalMs` in this process. Returns the function that
 * stops it and waits for a tick in progress (call it before closing the database).
 */
export function startScheduler(
  ctx: AppContext,
  opts: { intervalMs?: number } = {},
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = deliverDueScheduledMessages(ctx)
      .catch((err) => ctx.log.error?.(err))
      .finally(() => {
        running = null;
      });
  }, opts.intervalMs ?? 5000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
