import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Message, Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import {
  validatePollData,
  validateTodoData,
  WidgetError,
  widgetTypeOf,
  type SubmessageRecord,
  type WidgetContent,
} from '../domain/widgets.js';
import { activeSubscriberIds } from '../lib/access.js';
import { accessibleMessage, invalidMessage } from '../lib/message-access.js';

/**
 * Submessages (upstream zerver/views/submessage.py and zerver/actions/submessage.py): what
 * widgets attach to a message. The first one of a message must come from its sender (the widget
 * itself); after that anyone who can read the message may add one (a vote, an option, a task, a
 * tick), checked against the widget's rules. Everyone who can read the message hears of it.
 */

/** Inside the send's transaction: the widget a new message carries, as its first submessage. */
export async function insertWidget(
  trx: Database,
  message: Pick<Message, 'id' | 'sender_id'>,
  widget: WidgetContent,
): Promise<SubmessageRecord> {
  const row = {
    message_id: message.id,
    sender_id: message.sender_id,
    msg_type: 'widget',
    content: JSON.stringify(widget),
  };
  const { id } = await trx
    .insertInto('submessages')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(id), ...row };
}

/** POST /submessage */
export async function addSubmessage(
  ctx: AppContext,
  realm: Realm,
  user: User,
  req: { messageId: number; msgType: string; content: string },
) {
  return transact(ctx, async (trx, events) => {
    const message = await accessibleMessage(trx, realm, user, req.messageId);
    if (!message) throw invalidMessage();
    const isAuthor = message.sender_id === user.id;
    // upstream verify_submessage_sender: the sender attaches the first one.
    if (!isAuthor) {
      const senders = await trx
        .selectFrom('submessages')
        .select('id')
        .where('message_id', '=', message.id)
        .where('sender_id', '=', message.sender_id)
        .limit(1)
        .executeTakeFirst();
      if (!senders) throw badRequest('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = JSON.parse(req.content);
    } catch {
      throw badRequest('Invalid json for submessage');
    }
    const first = await trx
      .selectFrom('submessages')
      .select('content')
      .where('message_id', '=', message.id)
      .where('msg_type', '=', 'widget')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    const widgetType = widgetTypeOf(first?.content);
    try {
      if (widgetType === 'poll') validatePollData(data, isAuthor);
      if (widgetType === 'todo') validateTodoData(data, isAuthor);
    } catch (error) {
      if (error instanceof WidgetError) throw badRequest(error.message);
      throw error;
    }
    const { id } = await trx
      .insertInto('submessages')
      .values({
        message_id: message.id,
        sender_id: user.id,
        msg_type: req.msgType,
        content: req.content,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    events.push(
      await submessageDelivery(trx, realm, message, {
        id: Number(id),
        message_id: message.id,
        sender_id: user.id,
        msg_type: req.msgType,
        content: req.content,
      }),
    );
    return {};
  });
}

/**
 * The event, to those who received the message and, in a channel whose history its subscribers
 * read, to its present subscribers too: everyone who can read the message sees the vote live.
 */
async function submessageDelivery(
  trx: Database,
  realm: Realm,
  message: Message,
  sub: SubmessageRecord,
): Promise<Delivery> {
  const audience = new Set(
    (
      await trx
        .selectFrom('user_messages')
        .select('user_id')
        .where('message_id', '=', message.id)
        .execute()
    ).map((r) => r.user_id),
  );
  if (message.stream_id !== null) {
    const stream = await trx
      .selectFrom('streams')
      .select(['history_public_to_subscribers', 'deactivated'])
      .where('id', '=', message.stream_id)
      .executeTakeFirst();
    if (stream?.history_public_to_subscribers && !stream.deactivated)
      for (const id of await activeSubscriberIds(trx, message.stream_id)) audience.add(id);
  }
  return {
    realmId: realm.id,
    userIds: [...audience],
    event: {
      type: 'submessage',
      msg_type: sub.msg_type,
      message_id: sub.message_id,
      submessage_id: sub.id,
      sender_id: sub.sender_id,
      content: sub.content,
    },
  };
}
