import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { DB, Realm, Stream, User } from '../db/schema.js';
import { sql, type Selectable } from 'kysely';
import { type Delivery, type EventDelivery, untypedEvent } from '../events/types.js';
import { badRequest, streamDoesNotExist } from '../domain/errors.js';
import { FLAG_BITS, flagsToList } from '../domain/flags.js';
import { PRIVATE_MESSAGE_BIT } from '../db/flag-conditions.js';
import { renderMarkdown } from '../markdown/index.js';
import { activeSubscriberIds } from '../lib/access.js';
import { claimLinkedUploads } from './upload-claims.js';
import { buildMessageRecords, dmKeyOf } from '../lib/message-records.js';
import { realmSettings } from '../lib/realm.js';
import { mentionedUserIds } from './user-groups.js';
import { noteEmailCandidates } from './missed-messages.js';
import { queueServiceTriggers } from '../lib/service-bots.js';
import { findStream } from '../lib/streams.js';
import { checkMaySendToStream } from '../lib/send-access.js';
import { checkMentionsAllowed } from '../lib/mention-policy.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';
import { insertMessageWithRecipients, type MessageValues } from '../db/message-insert.js';
import { contentFlagsOf } from '../domain/message-content.js';
import { normalizeContent, normalizeTopic } from '../domain/message-text.js';
import { markdownContext } from './markdown-context.js';
import { insertWidget } from './submessages.js';
import { widgetFromContent, type SubmessageRecord, type WidgetContent } from '../domain/widgets.js';

export type Recipient =
  | { type: 'stream'; streamId?: number; streamName?: string; topic: string }
  | { type: 'direct'; userIds?: number[]; emails?: string[] };

export interface SendOptions {
  recipient: Recipient;
  content: string;
  client: string;
  queueId?: string;
  localId?: string;
  /** a user for whom the message starts out read: whoever caused a system notice */
  readFor?: number;
  /** a widget given by the client (a bot's form), in place of one from a `/poll` or `/todo` */
  widgetContent?: WidgetContent;
  /** history being written (the demo's), not news: nobody is mailed about it */
  history?: boolean;
}

async function resolveDirectRecipients(
  db: Database,
  realm: Realm,
  sender: User,
  r: Extract<Recipient, { type: 'direct' }>,
) {
  const users: User[] = [];
  for (const id of r.userIds ?? []) {
    const u = await db
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!u) throw badRequest(`Invalid user ID ${id}`);
    users.push(u);
  }
  for (const email of r.emails ?? []) {
    const u = await db
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!u) throw badRequest(`Invalid email '${email}'`);
    users.push(u);
  }
  if (!users.length) throw badRequest('Message must have recipients');
  for (const u of users) {
    if (!u.is_active && u.id !== sender.id)
      throw badRequest(`'${u.email}' is no longer using Zulip.`);
  }
  const settings = realmSettings(realm);
  const others = users.filter((u) => u.id !== sender.id);
  if (settings.private_message_policy === 2 && others.some((u) => !u.is_bot) && !sender.is_bot)
    throw badRequest('Direct messages are disabled in this organization.');
  const all = new Map<number, User>([
    [sender.id, sender],
    ...users.map((u) => [u.id, u] as [number, User]),
  ]);
  return [...all.values()];
}

/** Every alert word of the organization's people, kept flat and lower-cased: id, word, id, word. */
const realmAlertWords = compiledQuery((db, realmId: number) =>
  db
    .selectFrom('alert_words as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.user_id', 'a.word'])
    .where('u.realm_id', '=', realmId),
);
const mutedByOthers = compiledQuery((db, senderId: number) =>
  db.selectFrom('muted_users').select('user_id').where('muted_user_id', '=', senderId),
);
/**
 * The sender's policy for the topic (null without one) and whether the topic has more than one
 * message (two rows answer it, however long the topic is), in one statement: each is a round
 * trip on PostgreSQL, at every message sent.
 */
const topicPolicyAndStart = compiledQuery(
  (db, userId: number, streamId: number, topicKey: string) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('user_topics')
        .select('visibility_policy')
        .where('user_id', '=', userId)
        .where('stream_id', '=', streamId)
        .where('topic_key', '=', topicKey)
        .as('policy'),
      eb
        .selectFrom(
          eb
            .selectFrom('messages')
            .select('id')
            .where('stream_id', '=', streamId)
            .where('topic_key', '=', topicKey)
            // Written out, not bound: SQLite counts a subquery with a bound LIMIT much slower.
            .limit(sql.lit(2))
            .as('first_two'),
        )
        .select((c) => c.fn.countAll<number>().as('n'))
        .as('messages'),
    ]),
);

/** POST /messages */
export async function sendMessage(ctx: AppContext, realm: Realm, sender: User, opts: SendOptions) {
  return transact(ctx, (trx, events) => insertMessage(ctx, trx, events, realm, sender, opts));
}

/**
 * Sends a message inside an open transaction; events go to `events` for after the commit.
 * `system` skips the sender's posting permissions (notification messages).
 */
export async function insertMessage(
  ctx: AppContext,
  trx: Database,
  events: Delivery[],
  realm: Realm,
  sender: User,
  opts: SendOptions,
  system = false,
) {
  const content = normalizeContent(opts.content);
  const where = await resolveConversation(trx, realm, sender, opts.recipient, system);
  const { stream, topic, recipients } = where;
  const md = renderMarkdown(content, await markdownContext(trx, realm, sender, content));
  if (!system)
    await checkMentionsAllowed(
      trx,
      realm,
      sender,
      md,
      stream ? { stream, topic, subscriberCount: where.subscriberCount } : null,
    );
  const { flags, mentioned } = await recipientFlags(trx, realm, sender, opts, where, md, content);

  const now = Math.floor(Date.now() / 1000);
  const values: MessageValues = [
    realm.id,
    sender.id,
    stream ? 'stream' : 'private',
    stream?.id ?? null,
    topic,
    topic.toLowerCase(),
    where.dmKey,
    content,
    md.html,
    contentFlagsOf(md.html),
    now,
    opts.client,
  ];
  const message = await insertMessageWithRecipients(trx, ctx.dialect, values, recipients, flags);
  if (!system && !opts.history)
    await noteEmailCandidates(trx, realm, sender.id, message, where, flags);
  await claimLinkedUploads(ctx, trx, realm, sender, message);
  // upstream do_widget_post_save_actions: `/poll` and `/todo` make a widget, or the client gives one.
  const widget = opts.widgetContent ?? widgetFromContent(content);
  const submessages = widget ? [await insertWidget(trx, message, widget)] : [];
  const delivery = await messageDelivery(ctx, trx, realm, message, where, flags, opts, submessages);
  if (await queueServiceTriggers(trx, realm, sender, message, mentioned, where.people))
    delivery.outgoingWebhooks = true;
  events.push(delivery);

  const result: Record<string, unknown> = { id: message.id };
  if (stream && !system) {
    const policy = await automaticFollow(trx, sender, stream, topic, now, events, realm);
    if (policy !== null) result.automatic_new_visibility_policy = policy;
  }
  return result;
}

/** Where a message goes: its channel and topic or its direct conversation, and who receives it. */
interface Conversation {
  stream: Stream | null;
  topic: string;
  dmKey: string | null;
  /** active recipients' ids, the sender's always among them */
  recipients: number[];
  subscriberCount: number;
  /** the users the message record names: the sender, and a direct message's recipients */
  people: User[];
}

/**
 * The conversation a recipient names, once the sender may post there. The channel is looked up
 * whoever sends: one that exists but is closed to the sender is checkMaySendToStream's refusal
 * ("Not authorized to send"), as upstream, not "does not exist".
 */
async function resolveConversation(
  trx: Database,
  realm: Realm,
  sender: User,
  recipient: Recipient,
  system: boolean,
): Promise<Conversation> {
  let where: Conversation;
  if (recipient.type === 'stream') {
    const { streamId, streamName } = recipient;
    const stream = (await findStream(trx, realm, { id: streamId, name: streamName })) ?? null;
    if (!stream) throw streamDoesNotExist(streamId ?? streamName ?? '');
    // System notices (Notification Bot) go to streams the bot itself is not in, private ones too.
    if (!system) await checkMaySendToStream(trx, realm, sender, stream);
    const topic = normalizeTopic(recipient.topic, realmSettings(realm).mandatory_topics);
    const recipients = await activeSubscriberIds(trx, stream.id);
    const subscriberCount = recipients.length;
    where = { stream, topic, dmKey: null, recipients, subscriberCount, people: [sender] };
  } else {
    const users = await resolveDirectRecipients(trx, realm, sender, recipient);
    where = {
      stream: null,
      topic: '',
      dmKey: dmKeyOf(users.map((u) => u.id)),
      recipients: users.filter((u) => u.is_active).map((u) => u.id),
      subscriberCount: 0,
      people: users,
    };
  }
  if (!where.recipients.includes(sender.id)) where.recipients.push(sender.id);
  return where;
}

/**
 * Each recipient's flags for the new message, in the order of `where.recipients`, and the users
 * it mentions by name or through a group.
 */
async function recipientFlags(
  trx: Database,
  realm: Realm,
  sender: User,
  opts: SendOptions,
  where: Conversation,
  md: ReturnType<typeof renderMarkdown>,
  content: string,
) {
  const { stream, topic, recipients } = where;
  // Who muted the sender and the organization's alert words: kept between sends (row-cache.ts).
  const mutedBy = new Set(
    (await cachedRow(trx, `muted-by:${sender.id}`, async () =>
      (await mutedByOthers.all(trx, sender.id)).map((r) => r.user_id),
    ))!,
  );
  const topicParticipants =
    md.topicWildcard && stream
      ? await topicParticipantIds(trx, sender, stream, topic)
      : new Set<number>();
  const mentioned = new Set(await mentionedUserIds(trx, realm.id, md));
  const alerted = await alertedUserIds(trx, realm, sender, recipients, content);
  const flagsFor = (userId: number) => {
    let flags = stream ? 0 : PRIVATE_MESSAGE_BIT;
    if (userId === sender.id || userId === opts.readFor || mutedBy.has(userId))
      flags |= FLAG_BITS.read;
    if (mentioned.has(userId)) flags |= FLAG_BITS.mentioned;
    if (md.streamWildcard) flags |= FLAG_BITS.stream_wildcard_mentioned;
    if (md.topicWildcard && topicParticipants.has(userId))
      flags |= FLAG_BITS.topic_wildcard_mentioned;
    if (alerted.has(userId)) flags |= FLAG_BITS.has_alert_word;
    return flags;
  };
  return { flags: recipients.map(flagsFor), mentioned };
}

/** The topic's participants: those who wrote in it before, and the sender. */
async function topicParticipantIds(trx: Database, sender: User, stream: Stream, topic: string) {
  return new Set([
    sender.id,
    ...(
      await trx
        .selectFrom('messages')
        .select('sender_id')
        .distinct()
        .where('stream_id', '=', stream.id)
        .where('topic_key', '=', topic.toLowerCase())
        .execute()
    ).map((r) => r.sender_id),
  ]);
}

/** The recipients, the sender aside, who have an alert word that the content contains. */
async function alertedUserIds(
  trx: Database,
  realm: Realm,
  sender: User,
  recipients: number[],
  content: string,
) {
  const lowered = content.toLowerCase();
  const alerted = new Set<number>();
  const alertWords = (await cachedRow(trx, `alert-words:${realm.id}`, async () =>
    (await realmAlertWords.all(trx, realm.id)).flatMap((a) => [a.user_id, a.word.toLowerCase()]),
  ))!;
  if (alertWords.length) {
    const receiving = new Set(recipients);
    for (let i = 0; i < alertWords.length; i += 2) {
      const userId = alertWords[i] as number;
      const word = alertWords[i + 1] as string;
      if (userId !== sender.id && receiving.has(userId) && lowered.includes(word))
        alerted.add(userId);
    }
  }
  return alerted;
}

/** The message event to its recipients, each with their own flags. */
async function messageDelivery(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  message: Selectable<DB['messages']>,
  where: Conversation,
  flags: number[],
  opts: SendOptions,
  submessages: SubmessageRecord[],
) {
  const { stream, recipients } = where;
  const record = (
    await buildMessageRecords(ctx, trx, realm, [message], {
      streams: stream ? [stream] : [],
      users: where.people,
      noReactions: true,
      submessages,
    })
  ).get(message.id)!;
  const delivery: EventDelivery = {
    realmId: realm.id,
    userIds: recipients,
    // Escaped: the message record is still an untyped object, and each queue's `flags` arrive
    // through perUser, which the wire type (flags required) cannot see at this point.
    event: untypedEvent({ type: 'message', message: record }),
    perUser: Object.fromEntries(
      recipients.map((userId, i) => [userId, { flags: flagsToList(flags[i]!) }]),
    ),
    conversation: {
      streamId: message.stream_id,
      topic: message.topic,
      topicKey: message.topic_key,
      dmKey: message.dm_key,
    },
  };
  if (opts.queueId && opts.localId !== undefined)
    delivery.echo = { queueId: opts.queueId, localId: opts.localId };
  if (stream && !stream.invite_only) delivery.publicStreamId = stream.id;
  return delivery;
}

/** The sender's "automatically follow topics" setting: 1 on send, 2 on participation, 3 on start. */
async function automaticFollow(
  trx: Database,
  sender: User,
  stream: Stream,
  topic: string,
  now: number,
  events: Delivery[],
  realm: Realm,
): Promise<number | null> {
  if (sender.is_bot) return null;
  const settings = parseSettings(USER_SETTING_DEFAULTS, sender.settings);
  const policy = settings.automatically_follow_topics_policy;
  if (policy === 4) return null;
  const found = await topicPolicyAndStart.first(trx, sender.id, stream.id, topic.toLowerCase());
  if (found?.policy != null && Number(found.policy) !== 0) return null;
  // Policy 3 follows only the topics this message started.
  if (policy === 3 && Number(found?.messages) !== 1) return null;
  const FOLLOWED = 3;
  await trx
    .deleteFrom('user_topics')
    .where('user_id', '=', sender.id)
    .where('stream_id', '=', stream.id)
    .where('topic_key', '=', topic.toLowerCase())
    .execute();
  await trx
    .insertInto('user_topics')
    .values({
      user_id: sender.id,
      stream_id: stream.id,
      topic,
      topic_key: topic.toLowerCase(),
      visibility_policy: FOLLOWED,
      last_updated: now,
    })
    .execute();
  // No muted_topics event: following a topic that had no policy leaves the muted list as it was.
  events.push({
    realmId: realm.id,
    userIds: [sender.id],
    event: {
      type: 'user_topic',
      stream_id: stream.id,
      topic_name: topic,
      last_updated: now,
      visibility_policy: FOLLOWED,
    },
  });
  return FOLLOWED;
}
