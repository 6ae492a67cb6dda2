import type { Database } from '../db/index.js';
import type { Message, Realm, User } from '../db/schema.js';
import { OUTGOING_WEBHOOK_BOT, type BotService } from '../domain/bot-services.js';
import { nowSeconds } from './admin-checks.js';

/** Outgoing-webhook bots' services, by bot id. */
export async function servicesOf(db: Database, botIds: number[]) {
  const map = new Map<number, BotService>();
  if (!botIds.length) return map;
  for (const row of await db
    .selectFrom('bot_services')
    .selectAll()
    .where('bot_id', 'in', botIds)
    .execute())
    map.set(row.bot_id, row);
  return map;
}

/**
 * Inside the send's transaction: a job for each outgoing-webhook bot the message triggers, as
 * upstream's get_service_bot_events decides. Messages from bots trigger none (no bot loops); in a
 * channel a bot is triggered by a mention of it (not a wildcard), in a direct message by being a
 * recipient. Returns whether any job was written.
 */
export async function queueServiceTriggers(
  trx: Database,
  realm: Realm,
  sender: User,
  message: Pick<Message, 'id' | 'type'>,
  mentioned: ReadonlySet<number>,
  people: readonly User[],
): Promise<boolean> {
  if (sender.is_bot) return false;
  let triggered: { id: number; trigger: string }[];
  if (message.type === 'stream') {
    if (!mentioned.size) return false;
    const bots = await trx
      .selectFrom('users')
      .select('id')
      .where('id', 'in', [...mentioned])
      .where('realm_id', '=', realm.id)
      .where('bot_type', '=', OUTGOING_WEBHOOK_BOT)
      .where('is_active', '=', 1)
      .execute();
    triggered = bots.map((b) => ({ id: b.id, trigger: 'mention' }));
  } else {
    triggered = people
      .filter((u) => u.bot_type === OUTGOING_WEBHOOK_BOT && u.is_active && u.id !== sender.id)
      .map((u) => ({ id: u.id, trigger: 'private_message' }));
  }
  if (!triggered.length) return false;
  const now = nowSeconds();
  await trx
    .insertInto('outgoing_webhook_jobs')
    .values(
      triggered.map((t) => ({
        realm_id: realm.id,
        bot_id: t.id,
        message_id: message.id,
        trigger: t.trigger,
        attempts: 0,
        next_attempt_at: now,
        claimed_until: 0,
      })),
    )
    .execute();
  return true;
}
