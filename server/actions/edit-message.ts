/**
 * PATCH /messages/{id}: the checks and the plan, new content with its mentions, and the
 * update_message event. Moving to another topic or channel is move-messages.ts.
 */
import type { AppContext } from '../context.js';
import { RESOLVED_PREFIX } from '../domain/conversations.js';
import { contentFlagsOf } from '../domain/message-content.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, User } from '../db/schema.js';
import type { DeliveredEvent } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { FLAG_BITS, flagsToList } from '../domain/flags.js';
import { isModeratorOrAbove } from '../domain/roles.js';
import { checkMaySendToStream } from '../lib/send-access.js';
import { checkMentionsAllowed } from '../lib/mention-policy.js';
import { mayEditTopics, mayMoveMessagesBetweenStreams } from '../lib/policies.js';
import { renderMarkdown } from '../markdown/index.js';
import { accessibleMessage } from '../lib/message-access.js';
import { reclaimLinkedUploads } from './upload-claims.js';
import { realmSettings } from '../lib/realm.js';
import { mentionedUserIds } from './user-groups.js';
import { markdownContext } from './markdown-context.js';
import { normalizeContent, normalizeTopic } from '../domain/message-text.js';
import { streamForUser } from '../lib/streams.js';
import {
  isPureResolveChange,
  now,
  type EditInProgress,
  type EditPlan,
  type EditRequest,
} from './edit-plan.js';
import { announceMove, messagesToMove, moveMessages } from './move-messages.js';
import type { UpdateMessageEvent } from '../../src/api/model/index.js';

/** PATCH /messages/{id} */
export async function editMessage(
  ctx: AppContext,
  realm: Realm,
  user: User,
  messageId: number,
  req: EditRequest,
) {
  checkRequestShape(req);
  const row = await accessibleMessage(ctx.db, realm, user, messageId);
  if (!row) throw badRequest('Invalid message(s)');
  const plan = await planEdit(ctx, realm, user, row, req);

  return transact(ctx, async (trx, events) => {
    const oldStream =
      row.stream_id !== null
        ? await trx
            .selectFrom('streams')
            .selectAll()
            .where('id', '=', row.stream_id)
            .executeTakeFirstOrThrow()
        : null;
    const targets = await messagesToMove(trx, user, oldStream, row, req.propagateMode, plan);
    const editTime = now();
    const event: DeliveredEvent<UpdateMessageEvent> = {
      type: 'update_message',
      user_id: user.id,
      edit_timestamp: editTime,
      message_id: row.id,
      message_ids: targets.map((m) => m.id),
      rendering_only: false,
    };
    const edit: EditInProgress = {
      ctx,
      trx,
      events,
      realm,
      user,
      row,
      req,
      plan,
      oldStream,
      targets,
      editTime,
      event,
    };
    const newFlagsFor = req.content !== undefined ? await rewriteContent(edit, req.content) : null;
    if (plan.moving) await moveMessages(edit);
    await announceUpdate(edit, newFlagsFor);
    if (plan.moving && oldStream) await announceMove(edit, oldStream);
    return {};
  });
}

/** The checks that need only the request. */
function checkRequestShape(req: EditRequest) {
  if (req.content !== undefined && req.streamId !== undefined)
    throw badRequest('Cannot change message content while changing channel');
  if (req.content === undefined && req.topic === undefined && req.streamId === undefined)
    throw badRequest('Nothing to change');
  if (
    req.content !== undefined &&
    req.topic === undefined &&
    req.streamId === undefined &&
    req.propagateMode !== 'change_one'
  )
    throw badRequest('Invalid propagate_mode without topic edit');
}

/** The permission checks against the message and the realm, and what the edit will change. */
async function planEdit(
  ctx: AppContext,
  realm: Realm,
  user: User,
  row: Message,
  req: EditRequest,
): Promise<EditPlan> {
  const settings = realmSettings(realm);
  const age = now() - row.date_sent;
  const exempt = isModeratorOrAbove(user);

  if (row.type !== 'stream' && (req.topic !== undefined || req.streamId !== undefined))
    throw badRequest(
      req.streamId !== undefined
        ? 'Direct messages cannot be moved to channels.'
        : 'Direct messages cannot have topics.',
    );
  if (req.content !== undefined) checkMayEditContent(settings, user, row, age);
  const newTopic =
    req.topic !== undefined ? normalizeTopic(req.topic, settings.mandatory_topics) : undefined;
  if (newTopic === RESOLVED_PREFIX.trim() || newTopic === `${RESOLVED_PREFIX}(no topic)`)
    throw badRequest('General chat cannot be marked as resolved');
  const topicChanges = newTopic !== undefined && newTopic !== row.topic;
  // As upstream, the same topic again is no change: without another change there is nothing to do.
  if (!topicChanges && req.content === undefined && req.streamId === undefined)
    throw badRequest('Nothing to change');
  const pureResolve =
    topicChanges && isPureResolveChange(row.topic, newTopic!) && req.streamId === undefined;
  if (topicChanges && !mayEditTopics(realm, user))
    throw badRequest("You don't have permission to edit this message");
  const newStream = await destinationStream(ctx, realm, user, row, req.streamId);

  // A move that changes both channel and topic is held to the stricter of the two limits.
  const limits = [
    newStream ? settings.move_messages_between_streams_limit_seconds : null,
    topicChanges ? settings.move_messages_within_stream_limit_seconds : null,
  ].filter((l): l is number => l !== null);
  const moveLimit = limits.length ? Math.min(...limits) : null;
  const moving = topicChanges || newStream !== null;
  return { newTopic, topicChanges, pureResolve, newStream, moving, moveLimit, exempt, age };
}

function checkMayEditContent(
  settings: ReturnType<typeof realmSettings>,
  user: User,
  row: Message,
  age: number,
) {
  if (!settings.allow_message_editing)
    throw badRequest('Your organization has turned off message editing');
  if (row.sender_id !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = settings.message_content_edit_limit_seconds;
  if (limit !== null && age > limit)
    throw badRequest('The time limit for editing this message has passed');
}

/** The channel a move goes to, once the user may move there; null when the channel stays. */
async function destinationStream(
  ctx: AppContext,
  realm: Realm,
  user: User,
  row: Message,
  streamId: number | undefined,
) {
  if (streamId === undefined || streamId === row.stream_id) return null;
  if (!mayMoveMessagesBetweenStreams(realm, user))
    throw badRequest("You don't have permission to move this message");
  const found = await streamForUser(ctx.db, realm, user, { id: streamId });
  // Moving into a channel is posting there: its posting policy applies as to a send.
  await checkMaySendToStream(ctx.db, realm, user, found.stream, found.subscribed);
  return found.stream;
}

/**
 * Renders and stores the new content with its history row, and returns each holder's flags as the
 * new mentions leave them.
 */
async function rewriteContent(edit: EditInProgress, rawContent: string) {
  const { ctx, trx, realm, user, row, oldStream, editTime, event } = edit;
  // Emptying a message is how clients delete its text (zulip-mobile's only "Delete"): the
  // reference keeps the message with "(deleted)" as its content.
  const content = normalizeContent(rawContent.trim() === '' ? '(deleted)' : rawContent);
  const md = renderMarkdown(content, await markdownContext(trx, realm, user, content));
  // An edit may not add the mentions a send could not make.
  await checkMentionsAllowed(
    trx,
    realm,
    user,
    md,
    oldStream ? { stream: oldStream, topic: row.topic } : null,
  );
  await trx
    .insertInto('message_edits')
    .values({
      message_id: row.id,
      user_id: user.id,
      timestamp: editTime,
      prev_content: row.content,
      prev_rendered_content: row.rendered_content,
      prev_topic: null,
      prev_stream_id: null,
      topic: null,
      stream_id: null,
    })
    .execute();
  await trx
    .updateTable('messages')
    .set({
      content,
      rendered_content: md.html,
      content_flags: contentFlagsOf(md.html),
      last_edit_time: editTime,
    })
    .where('id', '=', row.id)
    .execute();
  await reclaimLinkedUploads(ctx, trx, realm, user, row.id, md.html);
  const newFlagsFor = await recomputeMentions(
    trx,
    row.id,
    await mentionedUserIds(trx, realm.id, md),
    md.streamWildcard,
    md.topicWildcard,
  );
  event.orig_content = row.content;
  event.orig_rendered_content = row.rendered_content;
  event.content = content;
  event.rendered_content = md.html;
  event.is_me_message = /^\/me( |$)/.test(content);
  return newFlagsFor;
}

/** The update_message event, to everyone who holds one of the messages, with their own flags. */
async function announceUpdate(edit: EditInProgress, newFlagsFor: Map<number, number> | null) {
  const { trx, events, realm, row, targets, event } = edit;
  const holders = await trx
    .selectFrom('user_messages')
    .select(['user_id', 'flags'])
    .where('message_id', '=', row.id)
    .execute();
  const audience = await trx
    .selectFrom('user_messages')
    .select('user_id')
    .distinct()
    .where(
      'message_id',
      'in',
      targets.map((m) => m.id),
    )
    .execute();
  const perUser: Record<number, Record<string, unknown>> = {};
  const flagsByUser = new Map(
    holders.map((h) => [h.user_id, newFlagsFor?.get(h.user_id) ?? h.flags]),
  );
  for (const a of audience)
    perUser[a.user_id] = { flags: flagsToList(flagsByUser.get(a.user_id) ?? 0) };
  events.push({
    realmId: realm.id,
    userIds: audience.map((a) => a.user_id),
    event,
    perUser,
  });
}

async function recomputeMentions(
  trx: Database,
  messageId: number,
  mentioned: number[],
  streamWildcard: boolean,
  topicWildcard: boolean,
) {
  const rows = await trx
    .selectFrom('user_messages')
    .select(['user_id', 'flags'])
    .where('message_id', '=', messageId)
    .execute();
  const out = new Map<number, number>();
  const mentionBits =
    FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  for (const r of rows) {
    let flags = r.flags & ~mentionBits;
    if (mentioned.includes(r.user_id)) flags |= FLAG_BITS.mentioned;
    if (streamWildcard) flags |= FLAG_BITS.stream_wildcard_mentioned;
    if (topicWildcard) flags |= FLAG_BITS.topic_wildcard_mentioned;
    out.set(r.user_id, flags);
    if (flags !== r.flags)
      await trx
        .updateTable('user_messages')
        .set({ flags })
        .where('user_id', '=', r.user_id)
        .where('message_id', '=', messageId)
        .execute();
  }
  return out;
}
