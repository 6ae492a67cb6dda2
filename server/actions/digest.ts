import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { VISIBILITY } from '../domain/conversations.js';
import { FLAG_BITS } from '../domain/flags.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { queueDigestMail, type DigestConversation } from './mail.js';

/**
 * The weekly digest, as the reference sends it: on the organization's `digest_weekday` (0 is
 * Monday), to each person with `enable_digest_emails` on who has been away for a while, the
 * busiest conversations of the past week in their channels that they have not read. Someone who
 * read them, or who was here, gets none; nobody gets two for one week (the mail's cause names the
 * week).
 */

const DAY = 86_400;
/** Away: not active for this long (the reference's digest cutoff is days, not hours). */
export const AWAY_SECONDS = 5 * DAY;
/** The conversations a digest shows at most. */
const TOPICS = 5;

/** The reference's weekday numbering: Monday 0 … Sunday 6. */
export const weekdayOf = (seconds: number) => (new Date(seconds * 1000).getUTCDay() + 6) % 7;

/** The week a digest is for, by its Monday (UTC): `2026-11-30`. */
export function weekKey(seconds: number) {
  const monday = seconds - weekdayOf(seconds) * DAY;
  return new Date(monday * 1000).toISOString().slice(0, 10);
}

/** People who may get this week's digest: active, not bots, away, wanting it, not sent one yet. */
async function candidates(db: Database, realm: Realm, now: number) {
  const week = weekKey(now);
  const sent = new Set(
    (
      await db
        .selectFrom('mail_queue')
        .select('cause')
        .where('realm_id', '=', realm.id)
        .where('kind', '=', 'digest')
        .where('cause', 'like', `digest:%:${week}`)
        .execute()
    ).map((r) => r.cause),
  );
  const people = await db
    .selectFrom('users')
    .leftJoin('presences', 'presences.user_id', 'users.id')
    .selectAll('users')
    .select('presences.last_active_time')
    .where('users.realm_id', '=', realm.id)
    .where('users.is_active', '=', 1)
    .where('users.is_bot', '=', 0)
    .execute();
  return people.filter(
    (u) =>
      (u.last_active_time ?? 0) < now - AWAY_SECONDS &&
      !sent.has(`digest:${u.id}:${week}`) &&
      parseSettings(USER_SETTING_DEFAULTS, u.settings).enable_digest_emails !== false,
  );
}

/** The busiest conversations of the week in `user`'s channels that they have not read. */
export async function missedConversations(
  db: Database,
  user: User,
  now: number,
): Promise<DigestConversation[]> {
  const busiest = await db
    .selectFrom('user_messages')
    .innerJoin('messages', 'messages.id', 'user_messages.message_id')
    .innerJoin('subscriptions', (j) =>
      j
        .onRef('subscriptions.stream_id', '=', 'messages.stream_id')
        .on('subscriptions.user_id', '=', user.id)
        .on('subscriptions.active', '=', 1)
        .on('subscriptions.is_muted', '=', 0),
    )
    .leftJoin('user_topics', (j) =>
      j
        .on('user_topics.user_id', '=', user.id)
        .onRef('user_topics.stream_id', '=', 'messages.stream_id')
        .onRef('user_topics.topic_key', '=', 'messages.topic_key'),
    )
    .select((eb) => [
      'messages.stream_id',
      'messages.topic_key',
      eb.fn.max('messages.id').as('last_id'),
      eb.fn.countAll<number | string>().as('count'),
    ])
    .where('user_messages.user_id', '=', user.id)
    .where((eb) => eb(eb('user_messages.flags', '&', FLAG_BITS.read), '=', 0))
    .where('messages.stream_id', 'is not', null)
    .where('messages.date_sent', '>=', now - 7 * DAY)
    .where((eb) =>
      eb.or([
        eb('user_topics.visibility_policy', 'is', null),
        eb('user_topics.visibility_policy', '!=', VISIBILITY.MUTED),
      ]),
    )
    .groupBy(['messages.stream_id', 'messages.topic_key'])
    .orderBy('count', 'desc')
    .orderBy('last_id', 'desc')
    .limit(TOPICS)
    .execute();
  const conversations: DigestConversation[] = [];
  for (const row of busiest) {
    const messages = await db
      .selectFrom('messages')
      .innerJoin('users', 'users.id', 'messages.sender_id')
      .innerJoin('streams', 'streams.id', 'messages.stream_id')
      .select([
        'messages.id',
        'messages.topic',
        'messages.stream_id',
        'streams.name as stream_name',
        'users.full_name',
      ])
      .where('messages.stream_id', '=', row.stream_id)
      .where('messages.topic_key', '=', row.topic_key)
      .where('messages.date_sent', '>=', now - 7 * DAY)
      .orderBy('messages.id')
      .execute();
    const first = messages[0];
    if (!first) continue;
    conversations.push({
      stream: { id: first.stream_id!, name: first.stream_name },
      topic: first.topic,
      firstId: first.id,
      unread: Number(row.count),
      senders: [...new Set(messages.map((m) => m.full_name))],
    });
  }
  return conversations;
}

/** Queues the digests due now; returns how many. Runs hourly: a week's digest goes once. */
export async function sendDueDigests(ctx: AppContext, now = nowSeconds()): Promise<number> {
  const realms = await ctx.db
    .selectFrom('realms')
    .selectAll()
    .where('deactivated', '=', 0)
    .execute();
  let queued = 0;
  for (const realm of realms) {
    const settings = realmSettings(realm);
    if (!settings.digest_emails_enabled || settings.digest_weekday !== weekdayOf(now)) continue;
    for (const user of await candidates(ctx.db, realm, now)) {
      const conversations = await missedConversations(ctx.db, user, now);
      if (conversations.length === 0) continue;
      await transact(ctx, async (trx) => {
        if (await queueDigestMail(ctx, trx, realm, user, conversations, weekKey(now))) queued++;
      });
    }
  }
  return queued;
}

/** Looks for due digests every hour (and once soon after the start); returns its stop. */
export function startDigests(ctx: AppContext, intervalMs = 3_600_000): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const round = () => {
    if (running || stopped) return;
    running = sendDueDigests(ctx)
      .catch((err) => ctx.log.error({ err }, 'Queueing digests failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(round, intervalMs);
  timer.unref();
  const first = setTimeout(round, 60_000);
  first.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(first);
    await running;
  };
}
