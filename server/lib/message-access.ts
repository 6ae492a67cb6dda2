import type { Database } from '../db/index.js';
import type { Message, Realm, Stream, User } from '../db/schema.js';
import { FLAG_BITS } from '../domain/flags.js';
import { badRequest } from '../domain/errors.js';
import { isSubscribed, mayAccessPublicStreams } from './access.js';
import { realmSettings } from './realm.js';

/** Flags of a message read from a channel's history that the user never received. */
export const HISTORICAL_FLAGS = FLAG_BITS.historical | FLAG_BITS.read;

export const invalidMessage = () => badRequest('Invalid message(s)');

/**
 * May `user` (null: a spectator) read this message? The one rule (upstream `has_message_access`)
 * that every single-message path asks: fetch, edit, move, delete, reactions, read receipts, edit
 * history, flags, uploads.
 * - a direct message: only those who received it;
 * - a web-public channel: everyone, spectators too while spectator access is on;
 * - a public channel: everyone who may read public channels (not guests), else subscribers;
 * - a private channel: current subscribers, and with protected history only those of them who
 *   received the message. Having received it once is not enough after leaving the channel.
 */
export function mayReadMessage(
  realm: Realm,
  user: User | null,
  message: Pick<Message, 'stream_id'>,
  stream: Stream | null,
  facts: { received: boolean; subscribed: boolean },
): boolean {
  if (message.stream_id === null || stream === null) return user !== null && facts.received;
  // An archived channel's messages stay with the people who had them.
  if (stream.deactivated) return user !== null && facts.received;
  if (stream.is_web_public && (user !== null || realmSettings(realm).enable_spectator_access))
    return true;
  if (user === null) return false;
  if (!stream.invite_only && mayAccessPublicStreams(user)) return true;
  if (!stream.history_public_to_subscribers) return facts.received && facts.subscribed;
  return facts.subscribed;
}

type Row = Message & { flags: number };

/** A message the user may read, with their flags, or null (unknown and forbidden look alike). */
export async function accessibleMessage(
  db: Database,
  realm: Realm,
  user: User | null,
  id: number,
): Promise<Row | null> {
  const message = await db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', id)
    .where('realm_id', '=', realm.id)
    .executeTakeFirst();
  if (!message) return null;
  const um = user
    ? await db
        .selectFrom('user_messages')
        .select('flags')
        .where('user_id', '=', user.id)
        .where('message_id', '=', id)
        .executeTakeFirst()
    : undefined;
  const stream =
    message.stream_id === null
      ? null
      : ((await db
          .selectFrom('streams')
          .selectAll()
          .where('id', '=', message.stream_id)
          .executeTakeFirst()) ?? null);
  const subscribed =
    user !== null && stream !== null && (await isSubscribed(db, user.id, stream.id));
  if (!mayReadMessage(realm, user, message, stream, { received: !!um, subscribed })) return null;
  return { ...message, flags: um ? um.flags : HISTORICAL_FLAGS };
}
