import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { VISIBILITY } from '../domain/conversations.js';
import { FLAG_BITS, WILDCARD_BITS } from '../domain/flags.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { queueMissedMessagesMail, type MissedConversation } from './mail.js';

/**
 * Missed-message mail, as the reference sends it: a direct message, a mention or a message in a
 * channel or topic someone gets mail for, still unread after their batching period
 * (`email_notifications_batching_period_seconds`, 120 s by default), is mailed to them, one mail
 * per conversation and batch.
 *
 * When a message is sent, its candidates are noted in `email_notifications` in the same
 * transaction (noteEmailCandidates): a row per person and message, with why. The mail worker
 * calls sendDueMissedMessages: for each person whose oldest row is older than their period, it
 * takes all their rows, drops what was read meanwhile, muted or switched off in their settings,
 * and queues the mails, in one transaction, so a crash between the two loses and repeats nothing.
 */

export type EmailTrigger =
  'private_message' | 'mentioned' | 'wildcard_mentioned' | 'stream_email_notify' | 'followed_topic';

/** Subscriptions of a channel that set `email_notifications` themselves, either way. */
const streamEmailChoices = compiledQuery((db, streamId: number) =>
  db
    .selectFrom('subscriptions')
    .select(['user_id', 'email_notifications'])
    .where('stream_id', '=', streamId)
    .where('active', '=', 1)
    .where('email_notifications', 'is not', null),
);

/** People of the organization who want mail for every channel unless a channel says otherwise. */
const streamEmailByDefault = compiledQuery((db, realmId: number, pattern: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where('settings', 'like', pattern),
);

/**
 * Who gets mail for every message of the channel (its own setting, else their default): one
 * kept row per channel (row-cache.ts), dropped by any change to people or subscriptions, so a
 * message sent costs no statement for it.
 */
async function streamMailRecipients(trx: Database, realmId: number, streamId: number) {
  const ids = await cachedRow(trx, `stream-mail:${streamId}`, async () => {
    const [choices, byDefault] = await Promise.all([
      streamEmailChoices.all(trx, streamId),
      streamEmailByDefault.all(trx, realmId, '%"enable_stream_email_notifications":true%'),
    ]);
    const off = new Set(choices.filter((r) => r.email_notifications === 0).map((r) => r.user_id));
    return [
      ...new Set([
        ...choices.filter((r) => r.email_notifications === 1).map((r) => r.user_id),
        ...byDefault.map((r) => r.id).filter((id) => !off.has(id)),
      ]),
    ];
  });
  return new Set(ids!);
}

/** Who follows the topic: one indexed statement (user_topics_topic), built once. */
const topicFollowers = compiledQuery((db, streamId: number, topicKey: string, policy: number) =>
  db
    .selectFrom('user_topics')
    .select('user_id')
    .where('stream_id', '=', streamId)
    .where('topic_key', '=', topicKey)
    .where('visibility_policy', '=', policy),
);

async function followers(trx: Database, streamId: number, topic: string) {
  const rows = await topicFollowers.all(trx, streamId, topic.toLowerCase(), VISIBILITY.FOLLOWED);
  return new Set(rows.map((r) => r.user_id));
}

/**
 * Notes who may be mailed about a new message, in its transaction: each recipient but the sender
 * for whom it arrived unread, with the strongest reason. Settings are read when the batch is due,
 * so that a change in between counts.
 */
export async function noteEmailCandidates(
  trx: Database,
  realm: Realm,
  senderId: number,
  message: { id: number },
  where: { stream: Stream | null; topic: string; recipients: number[] },
  flags: number[],
) {
  const { stream, topic, recipients } = where;
  const perStream = stream ? await streamMailRecipients(trx, realm.id, stream.id) : null;
  const followed = stream ? await followers(trx, stream.id, topic) : null;
  const now = nowSeconds();
  const rows: { user_id: number; message_id: number; trigger: string; created_at: number }[] = [];
  recipients.forEach((userId, i) => {
    const f = flags[i]!;
    if (userId === senderId || f & FLAG_BITS.read) return;
    let trigger: EmailTrigger | null = null;
    if (!stream) trigger = 'private_message';
    else if (f & FLAG_BITS.mentioned) trigger = 'mentioned';
    else if (f & WILDCARD_BITS) trigger = 'wildcard_mentioned';
    else if (perStream!.has(userId)) trigger = 'stream_email_notify';
    else if (followed!.has(userId)) trigger = 'followed_topic';
    if (trigger) rows.push({ user_id: userId, message_id: message.id, trigger, created_at: now });
  });
  // Chunks keep each statement under SQLite's limit of bound values.
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto('email_notifications')
      .values(rows.slice(i, i + 500))
      .execute();
}

interface Candidate {
  id: number;
  message_id: number;
  trigger: string;
}

/** The batching period of `user`, or the server's override (PARLEY_MISSED_MESSAGE_DELAY). */
function batchingPeriod(ctx: AppContext, user: User) {
  if (ctx.config.missedMessageDelaySeconds !== undefined)
    return ctx.config.missedMessageDelaySeconds;
  return Number(
    parseSettings(USER_SETTING_DEFAULTS, user.settings).email_notifications_batching_period_seconds,
  );
}

/** Whether the person's settings ask for mail about a message for `trigger`. */
function wantsMail(
  settings: Record<string, unknown>,
  trigger: string,
  subscription: { wildcard_mentions_notify: number | null } | undefined,
) {
  switch (trigger) {
    case 'private_message':
    case 'mentioned':
      return settings.enable_offline_email_notifications === true;
    case 'wildcard_mentioned':
      return (
        settings.enable_offline_email_notifications === true &&
        (subscription?.wildcard_mentions_notify ?? (settings.wildcard_mentions_notify ? 1 : 0)) ===
          1
      );
    case 'followed_topic':
      return settings.enable_followed_topic_email_notifications === true;
    default:
      return true; // stream_email_notify: decided by the channel's setting when it was sent
  }
}

/** One person's due batch: what is still unread and wanted, grouped into conversations. */
async function batchFor(trx: Database, user: User, candidates: Candidate[]) {
  const ids = candidates.map((c) => c.message_id);
  const messages = await trx
    .selectFrom('messages')
    .innerJoin('user_messages', (j) =>
      j
        .onRef('user_messages.message_id', '=', 'messages.id')
        .on('user_messages.user_id', '=', user.id),
    )
    .selectAll('messages')
    .select('user_messages.flags')
    .where('messages.id', 'in', ids)
    .orderBy('messages.id')
    .execute();
  const unread = messages.filter((m) => (Number(m.flags) & FLAG_BITS.read) === 0);
  if (unread.length === 0) return [];
  const settings = parseSettings(USER_SETTING_DEFAULTS, user.settings) as Record<string, unknown>;
  const streamIds = [
    ...new Set(unread.flatMap((m) => (m.stream_id === null ? [] : [m.stream_id]))),
  ];
  const subscriptions = new Map(
    (streamIds.length
      ? await trx
          .selectFrom('subscriptions')
          .select(['stream_id', 'is_muted', 'wildcard_mentions_notify'])
          .where('user_id', '=', user.id)
          .where('stream_id', 'in', streamIds)
          .where('active', '=', 1)
          .execute()
      : []
    ).map((s) => [s.stream_id, s]),
  );
  const topicPolicies = new Map(
    (streamIds.length
      ? await trx
          .selectFrom('user_topics')
          .select(['stream_id', 'topic_key', 'visibility_policy'])
          .where('user_id', '=', user.id)
          .where('stream_id', 'in', streamIds)
          .execute()
      : []
    ).map((t) => [`${t.stream_id}:${t.topic_key}`, t.visibility_policy]),
  );
  const mutedSenders = new Set(
    (
      await trx
        .selectFrom('muted_users')
        .select('muted_user_id')
        .where('user_id', '=', user.id)
        .execute()
    ).map((r) => r.muted_user_id),
  );
  const triggerOf = new Map(candidates.map((c) => [c.message_id, c.trigger]));

  const wanted = unread.filter((m) => {
    if (mutedSenders.has(m.sender_id)) return false;
    const subscription = m.stream_id === null ? undefined : subscriptions.get(m.stream_id);
    if (m.stream_id !== null) {
      if (!subscription) return false;
      const policy = topicPolicies.get(`${m.stream_id}:${m.topic_key}`);
      if (policy === VISIBILITY.MUTED) return false;
      if (subscription.is_muted && policy !== VISIBILITY.UNMUTED && policy !== VISIBILITY.FOLLOWED)
        return false;
    }
    return wantsMail(settings, triggerOf.get(m.id)!, subscription);
  });

  const conversations = new Map<string, typeof wanted>();
  for (const m of wanted) {
    const key = m.stream_id === null ? `dm:${m.dm_key}` : `${m.stream_id}:${m.topic_key}`;
    conversations.set(key, [...(conversations.get(key) ?? []), m]);
  }
  return [...conversations.values()];
}

/** Sends the mails of every batch that is due; returns how many mails were queued. */
export async function sendDueMissedMessages(ctx: AppContext): Promise<number> {
  const now = nowSeconds();
  const waiting = await ctx.db
    .selectFrom('email_notifications')
    .select(['user_id', (eb) => eb.fn.min('created_at').as('oldest')])
    .groupBy('user_id')
    .execute();
  let queued = 0;
  for (const { user_id: userId, oldest } of waiting) {
    queued += await transact(ctx, async (trx) => {
      const user = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirst();
      if (user && Number(oldest) + batchingPeriod(ctx, user) > now) return 0;
      const candidates = await trx
        .selectFrom('email_notifications')
        .select(['id', 'message_id', 'trigger'])
        .where('user_id', '=', userId)
        .execute();
      if (candidates.length === 0) return 0;
      for (let i = 0; i < candidates.length; i += 500)
        await trx
          .deleteFrom('email_notifications')
          .where(
            'id',
            'in',
            candidates.slice(i, i + 500).map((c) => c.id),
          )
          .execute();
      if (!user || !user.is_active || user.is_bot) return 0;
      const realm = await trx
        .selectFrom('realms')
        .selectAll()
        .where('id', '=', user.realm_id)
        .executeTakeFirstOrThrow();
      if (realm.deactivated) return 0;
      const batch = await batchFor(trx, user, candidates);
      let mails = 0;
      for (const messages of batch) {
        const conversation = await describeConversation(trx, user, messages);
        if (
          await queueMissedMessagesMail(ctx, trx, realm, user, conversation, {
            withContent:
              realmSettings(realm).message_content_allowed_in_email_notifications !== false &&
              parseSettings(USER_SETTING_DEFAULTS, user.settings)
                .message_content_in_email_notifications !== false,
          })
        )
          mails++;
      }
      return mails;
    });
  }
  return queued;
}

type BatchMessage = Awaited<ReturnType<typeof batchFor>>[number][number];

/** Who and where: the channel and topic, or the others in a direct conversation. */
async function describeConversation(
  trx: Database,
  user: User,
  messages: BatchMessage[],
): Promise<MissedConversation> {
  const senderIds = [...new Set(messages.map((m) => m.sender_id))];
  const first = messages[0]!;
  const dmIds =
    first.stream_id === null
      ? (first.dm_key ?? '')
          .split(',')
          .map(Number)
          .filter((id) => id > 0 && id !== user.id)
      : [];
  const people = await trx
    .selectFrom('users')
    .select(['id', 'full_name'])
    .where('id', 'in', [...senderIds, ...dmIds, user.id])
    .execute();
  const nameOf = new Map(people.map((p) => [p.id, p.full_name]));
  const stream =
    first.stream_id === null
      ? null
      : await trx
          .selectFrom('streams')
          .select(['id', 'name'])
          .where('id', '=', first.stream_id)
          .executeTakeFirst();
  return {
    stream: stream ?? null,
    topic: first.topic,
    others: dmIds.map((id) => ({ id, name: nameOf.get(id) ?? '' })),
    messages: messages.map((m) => ({
      id: m.id,
      senderName: nameOf.get(m.sender_id) ?? '',
      dateSent: m.date_sent,
      html: m.rendered_content,
      text: m.content,
    })),
  };
}

/**
 * Looks for due batches every `config.mailPollMs`, whether or not a mail server is configured
 * (without one, the mails wait with the rest for administrators to read). Returns the function
 * that stops it and waits for a round in progress.
 */
export function startMissedMessageMail(ctx: AppContext): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = sendDueMissedMessages(ctx)
      .catch((err) => ctx.log.error({ err }, 'Queueing missed-message mail failed'))
      .finally(() => {
        running = null;
      });
  }, ctx.config.mailPollMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
