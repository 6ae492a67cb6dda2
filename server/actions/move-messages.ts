/**
 * The move half of an edit (PATCH /messages/{id} with a topic or a channel): which messages go,
 * moving them with their audience and their people's topic settings, and the notification bot's
 * notices of the move or the resolve.
 */
import { mutedTopicsEvent } from '../lib/muted-topics.js';
import { RESOLVED_PREFIX } from '../domain/conversations.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, Stream, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { FLAG_BITS } from '../domain/flags.js';
import { topicNarrowUrl } from '../markdown/index.js';
import { readsStreamHistory, receivedMessageIds } from '../lib/access.js';
import { insertMessage } from './send-message.js';
import { notificationBot } from './system-bots.js';
import { removeMessages } from './delete-message.js';
import { now, type EditInProgress, type EditPlan, type EditRequest } from './edit-plan.js';
import type { TopicVisibilityPolicy } from '../../src/api/model/index.js';

/** The messages the edit applies to, by propagate mode, once the move's time limit allows them. */
export async function messagesToMove(
  trx: Database,
  user: User,
  oldStream: Stream | null,
  row: Message,
  mode: EditRequest['propagateMode'],
  plan: EditPlan,
): Promise<Message[]> {
  const moveLimit = plan.moving && !plan.exempt && !plan.pureResolve ? plan.moveLimit : null;
  if (!plan.moving || mode === 'change_one') {
    if (moveLimit !== null && plan.age > moveLimit)
      throw badRequest("The time limit for editing this message's topic has passed");
    return [row];
  }
  const inTopic = await topicMessagesVisibleTo(trx, user, oldStream!, row, mode);
  return moveLimit === null ? inTopic : withinMoveLimit(inTopic, row, mode, moveLimit);
}

/**
 * The recent part of a topic that a time-limited move may take: only a `change_later` move that
 * starts at a message still within the limit is cut short; any other move over the limit fails.
 */
function withinMoveLimit(
  inTopic: Message[],
  row: Message,
  mode: 'change_later' | 'change_all',
  moveLimit: number,
) {
  const allowed = inTopic.filter((m) => now() - m.date_sent <= moveLimit);
  if (allowed.length === inTopic.length) return inTopic;
  if (mode === 'change_all' || allowed.length === 0 || allowed[0].id !== row.id) {
    throw new DomainError(
      'You only have permission to move the ' +
        allowed.length +
        '/' +
        inTopic.length +
        ' most recent messages in this topic.',
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      400,
      {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_in_topic: inTopic.length,
        total_messages_allowed_to_move: allowed.length,
      },
    );
  }
  return allowed;
}

/**
 * Moves the target messages to their new topic or channel with a history row each; the audience
 * follows a channel change, and the people's topic settings follow a whole topic.
 */
export async function moveMessages(edit: EditInProgress) {
  const { trx, events, realm, row, req, plan, targets, editTime, event } = edit;
  const topic = plan.newTopic ?? row.topic;
  const streamId = plan.newStream?.id ?? row.stream_id!;
  await recordMoves(edit, topic, streamId);
  const ids = targets.map((m) => m.id);
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .updateTable('messages')
      .set({
        topic,
        topic_key: topic.toLowerCase(),
        stream_id: streamId,
        last_edit_time: editTime,
      })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
  event.stream_id = row.stream_id!;
  event.orig_subject = row.topic;
  event.subject = topic;
  event.topic_links = [];
  event.propagate_mode = req.propagateMode;
  if (plan.newStream) {
    event.new_stream_id = plan.newStream.id;
    await moveAudience(trx, realm, plan.newStream, ids, events);
  }
  // A whole topic that moves (or is resolved) takes its people's mute and follow settings along.
  if (req.propagateMode === 'change_all') {
    const left = await trx
      .selectFrom('messages')
      .select('id')
      .where('stream_id', '=', row.stream_id!)
      .where('topic_key', '=', row.topic_key)
      .limit(1)
      .executeTakeFirst();
    if (!left)
      await moveTopicSettings(
        trx,
        realm,
        { streamId: row.stream_id!, topicKey: row.topic_key, topic: row.topic },
        { streamId, topic },
        editTime,
        events,
      );
  }
}

/** One history row per moved message, naming only what changed; a few hundred per insert. */
async function recordMoves(edit: EditInProgress, topic: string, streamId: number) {
  const { trx, user, plan, targets, editTime } = edit;
  const rows = targets.map((m) => ({
    message_id: m.id,
    user_id: user.id,
    timestamp: editTime,
    prev_content: null,
    prev_rendered_content: null,
    prev_topic: plan.topicChanges ? m.topic : null,
    prev_stream_id: plan.newStream ? m.stream_id : null,
    topic: plan.topicChanges ? topic : null,
    stream_id: plan.newStream ? streamId : null,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto('message_edits')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** The notification bot's notices of a move or a resolve, in the topics the move touched. */
export async function announceMove(edit: EditInProgress, oldStream: Stream) {
  const { ctx, trx, events, realm, user, row, plan } = edit;
  const bot = await notificationBot(ctx, trx, realm, events);
  const notice = (streamId: number, topic: string, content: string) =>
    insertMessage(
      ctx,
      trx,
      events,
      realm,
      bot,
      {
        recipient: { type: 'stream', streamId, topic },
        content,
        client: 'Internal',
        readFor: user.id,
      },
      true,
    );
  const who = `@_**${user.full_name}|${user.id}**`;
  const topic = plan.newTopic ?? row.topic;
  if (plan.pureResolve) {
    // As the reference server: a resolve or unresolve is announced in the topic itself, and
    // that notice stands in for the "moved here" one.
    const done = topic.startsWith(RESOLVED_PREFIX) ? 'resolved' : 'unresolved';
    if (!(await undoRecentResolveNotice(trx, realm, bot, oldStream.id, topic, events)))
      await notice(oldStream.id, topic, `${who} has marked this topic as ${done}.`);
  } else {
    await announceMovedMessages(edit, oldStream, topic, who, notice);
  }
}

/** "Moved here" in the destination and "moved to" in the origin, as the request asks for each. */
async function announceMovedMessages(
  edit: EditInProgress,
  oldStream: Stream,
  topic: string,
  who: string,
  notice: (streamId: number, topic: string, content: string) => Promise<unknown>,
) {
  const { trx, user, row, req, plan, targets } = edit;
  const dest = plan.newStream ?? oldStream;
  const count = targets.length;
  const ids = targets.map((m) => m.id);
  const movedAll =
    req.propagateMode === 'change_all' &&
    !(await topicHasOtherMessages(trx, user, oldStream, row.topic_key, ids));
  const oldPlace = `#**${oldStream.name}>${row.topic}**`;
  const newPlace = `#**${dest.name}>${topic}**`;
  if (req.notifyNew) {
    const joinsOthers = await topicHasOtherMessages(trx, user, dest, topic.toLowerCase(), ids);
    const link = `${topicNarrowUrl(dest.id, dest.name, topic)}/near/${row.id}`;
    const text =
      movedAll && !joinsOthers
        ? `This topic was moved here from ${oldPlace} by ${who}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${oldPlace} by ${who}.`
          : `${count} messages were moved here from ${oldPlace} by ${who}.`;
    await notice(dest.id, topic, text);
  }
  if (req.notifyOld) {
    const text = movedAll
      ? `This topic was moved to ${newPlace} by ${who}.`
      : count === 1
        ? `A message was moved from this topic to ${newPlace} by ${who}.`
        : `${count} messages were moved from this topic to ${newPlace} by ${who}.`;
    await notice(oldStream.id, row.topic, text);
  }
}

/** As upstream: a resolve undone within this time takes its notice away instead of adding one. */
export const RESOLVE_UNDO_GRACE_SECONDS = 60;
const RESOLVE_NOTICE = /^@_\*\*[^\n]*\*\* has marked this topic as (un)?resolved\.$/;

/**
 * Deletes the topic's last message when it is a resolve or unresolve notice from the last
 * minute: someone who resolves by mistake and undoes it leaves no pair of notices behind.
 */
async function undoRecentResolveNotice(
  trx: Database,
  realm: Realm,
  bot: User,
  streamId: number,
  topic: string,
  events: Delivery[],
) {
  const last = await trx
    .selectFrom('messages')
    .select(['id', 'sender_id', 'content', 'date_sent', 'topic'])
    .where('stream_id', '=', streamId)
    .where('topic_key', '=', topic.toLowerCase())
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last || last.sender_id !== bot.id || !RESOLVE_NOTICE.test(last.content)) return false;
  if (now() - last.date_sent > RESOLVE_UNDO_GRACE_SECONDS) return false;
  const holders = await trx
    .selectFrom('user_messages')
    .select('user_id')
    .where('message_id', '=', last.id)
    .execute();
  await removeMessages(trx, [last.id]);
  events.push({
    realmId: realm.id,
    userIds: holders.map((h) => h.user_id),
    event: {
      type: 'delete_message',
      message_type: 'stream',
      message_ids: [last.id],
      stream_id: streamId,
      topic: last.topic,
    },
  });
  return true;
}

/**
 * Whether a topic holds messages other than `except` that the user can see: deciding whether a
 * whole topic moved, by the mover's own access, so that a notice leaks nothing they cannot read.
 */
async function topicHasOtherMessages(
  trx: Database,
  user: User,
  stream: Stream,
  topicKey: string,
  except: number[],
) {
  let q = trx
    .selectFrom('messages')
    .select('id')
    .where('stream_id', '=', stream.id)
    .where('topic_key', '=', topicKey);
  if (except.length <= 500) q = q.where('id', 'not in', except.length ? except : [0]);
  if (!(await readsStreamHistory(trx, user, stream)))
    q = q.where('id', 'in', receivedMessageIds(trx, user.id));
  const rows = await q.limit(except.length <= 500 ? 1 : except.length + 1).execute();
  const moved = new Set(except);
  return rows.some((r) => !moved.has(r.id));
}

/** The messages of the target's topic that the user can see, by propagate mode. */
async function topicMessagesVisibleTo(
  trx: Database,
  user: User,
  stream: Stream,
  target: Message,
  mode: 'change_later' | 'change_all',
) {
  let q = trx
    .selectFrom('messages')
    .selectAll()
    .where('stream_id', '=', stream.id)
    .where('topic_key', '=', target.topic_key);
  if (mode === 'change_later') q = q.where('id', '>=', target.id);
  // With protected history, only the messages the user received count and move.
  if (!(await readsStreamHistory(trx, user, stream)))
    q = q.where('id', 'in', receivedMessageIds(trx, user.id));
  return q.orderBy('id').execute();
}

/** Moving to another stream: subscribers there gain the messages, others who lose access lose them. */
async function moveAudience(
  trx: Database,
  realm: Realm,
  dest: Stream,
  ids: number[],
  events: Delivery[],
) {
  const subs = new Set(
    (
      await trx
        .selectFrom('subscriptions')
        .select('user_id')
        .where('stream_id', '=', dest.id)
        .where('active', '=', 1)
        .execute()
    ).map((r) => r.user_id),
  );
  const rows = await trx
    .selectFrom('user_messages')
    .select(['user_id', 'message_id'])
    .where('message_id', 'in', ids)
    .execute();
  const users = new Map(
    (
      await trx
        .selectFrom('users')
        .select(['id', 'role'])
        .where('realm_id', '=', realm.id)
        .execute()
    ).map((u) => [u.id, u]),
  );
  const losing = new Set<number>();
  for (const r of rows) {
    const u = users.get(r.user_id);
    const keeps = subs.has(r.user_id) || (!dest.invite_only && u && u.role !== 600);
    if (!keeps) losing.add(r.user_id);
  }
  for (const userId of losing) {
    const theirs = rows.filter((r) => r.user_id === userId).map((r) => r.message_id);
    await trx
      .deleteFrom('user_messages')
      .where('user_id', '=', userId)
      .where('message_id', 'in', theirs)
      .execute();
    events.push({
      realmId: realm.id,
      userIds: [userId],
      event: { type: 'delete_message', message_type: 'stream', message_ids: theirs },
    });
  }
  const have = new Set(rows.map((r) => `${r.user_id}:${r.message_id}`));
  const fresh = [...subs].flatMap((userId) =>
    ids
      .filter((id) => !have.has(`${userId}:${id}`))
      .map((id) => ({ user_id: userId, message_id: id, flags: FLAG_BITS.read })),
  );
  for (let i = 0; i < fresh.length; i += 500)
    await trx
      .insertInto('user_messages')
      .values(fresh.slice(i, i + 500))
      .execute();
}

/**
 * Moves every user's visibility policy for a topic to where the topic went; a policy the user
 * already had at the destination gives way to the moved one. Each user's clients learn of both
 * changes through user_topic events.
 */
async function moveTopicSettings(
  trx: Database,
  realm: Realm,
  from: { streamId: number; topicKey: string; topic: string },
  to: { streamId: number; topic: string },
  when: number,
  events: Delivery[],
) {
  const toKey = to.topic.toLowerCase();
  if (from.streamId === to.streamId && from.topicKey === toKey) return;
  const rows = await trx
    .selectFrom('user_topics')
    .selectAll()
    .where('stream_id', '=', from.streamId)
    .where('topic_key', '=', from.topicKey)
    .execute();
  for (const r of rows) {
    await trx
      .deleteFrom('user_topics')
      .where('user_id', '=', r.user_id)
      .where('stream_id', '=', from.streamId)
      .where('topic_key', '=', from.topicKey)
      .execute();
    await trx
      .deleteFrom('user_topics')
      .where('user_id', '=', r.user_id)
      .where('stream_id', '=', to.streamId)
      .where('topic_key', '=', toKey)
      .execute();
    await trx
      .insertInto('user_topics')
      .values({
        user_id: r.user_id,
        stream_id: to.streamId,
        topic: to.topic,
        topic_key: toKey,
        visibility_policy: r.visibility_policy,
        last_updated: when,
      })
      .execute();
    events.push(
      await mutedTopicsEvent(trx, realm.id, r.user_id),
      {
        realmId: realm.id,
        userIds: [r.user_id],
        event: {
          type: 'user_topic',
          stream_id: from.streamId,
          topic_name: r.topic,
          last_updated: when,
          visibility_policy: 0,
        },
      },
      {
        realmId: realm.id,
        userIds: [r.user_id],
        event: {
          type: 'user_topic',
          stream_id: to.streamId,
          topic_name: to.topic,
          last_updated: when,
          visibility_policy: r.visibility_policy as TopicVisibilityPolicy,
        },
      },
    );
  }
}
