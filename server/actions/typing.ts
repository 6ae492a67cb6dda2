import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest, missingParam } from '../domain/errors.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { activeSubscriberIds } from '../lib/access.js';
import { streamForUser } from '../lib/streams.js';
import { checkMaySendToStream } from '../lib/send-access.js';
import type { DeliveredEvent } from '../events/types.js';
import type { TypingEvent } from '../../src/api/model/index.js';

export interface TypingRequest {
  op: 'start' | 'stop';
  type: 'direct' | 'stream';
  to?: number[];
  streamId?: number;
  topic?: string;
}

/** POST /typing: typing events to the conversation's other participants, nothing stored. */
export async function setTypingStatus(
  ctx: AppContext,
  realm: Realm,
  sender: User,
  req: TypingRequest,
) {
  const senderRef = { user_id: sender.id, email: sender.email };
  let userIds: number[];
  let event: DeliveredEvent<TypingEvent>;
  if (req.type === 'stream') {
    let streamId = req.streamId;
    if (streamId === undefined && req.to) {
      if (req.to.length !== 1) throw badRequest('Cannot send to multiple channels');
      streamId = req.to[0];
    }
    if (streamId === undefined) throw missingParam('stream_id');
    if (req.topic === undefined) throw missingParam('topic');
    const { stream, subscribed } = await streamForUser(ctx.db, realm, sender, { id: streamId });
    // Typing in a channel needs what sending there needs: no administrator exception.
    await checkMaySendToStream(ctx.db, realm, sender, stream, subscribed);
    userIds = await activeSubscriberIds(ctx.db, stream.id);
    event = {
      type: 'typing',
      op: req.op,
      message_type: 'stream',
      sender: senderRef,
      stream_id: stream.id,
      topic: req.topic,
    };
  } else {
    if (!req.to || req.to.length === 0) throw missingParam('to');
    const users = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('id', 'in', req.to)
      .where('is_active', '=', 1)
      .execute();
    if (users.length !== new Set(req.to).size) throw badRequest('Invalid user ID');
    const participants = [sender, ...users.filter((u) => u.id !== sender.id)];
    userIds = participants.map((u) => u.id);
    event = {
      type: 'typing',
      op: req.op,
      message_type: 'direct',
      sender: senderRef,
      recipients: participants.map((u) => ({ user_id: u.id, email: u.email })),
    };
  }
  const receivers = await ctx.db
    .selectFrom('users')
    .select(['id', 'settings'])
    .where('id', 'in', userIds.length ? userIds : [-1])
    .execute();
  const wanting = receivers
    .filter((u) => parseSettings(USER_SETTING_DEFAULTS, u.settings).receives_typing_notifications)
    .map((u) => u.id);
  if (wanting.length)
    await ctx.queues.bus.publish([{ realmId: realm.id, userIds: wanting, event }]);
  return {};
}
