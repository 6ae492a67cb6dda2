import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin, isGuest, isModeratorOrAbove } from '../domain/roles.js';
import { isSubscribed } from './access.js';
import { nowSeconds } from './admin-checks.js';
import { realmSettings } from './realm.js';

/**
 * "May this user send to this channel", the one rule (upstream `access_stream_for_send_message`)
 * asked by sending, scheduling and the scheduled send itself, moving messages into a channel, and
 * typing in a channel. Sending and scheduling look the channel up without asking whether the
 * sender may reach it, so that a private channel one is not in is refused here, by name; typing
 * and moves reach the channel first (`streamForUser`), as upstream's `access_stream_by_id`.
 */

/** Stream post policies: 1 everyone, 2 administrators, 3 all but new members, 4 moderators. */
const POST_POLICY = { EVERYONE: 1, ADMINS: 2, RESTRICT_NEW_MEMBERS: 3, MODERATORS: 4 } as const;

/** A member (or guest) whose account is younger than the organization's waiting period. */
function isProvisionalMember(realm: Realm, user: User, now = nowSeconds()): boolean {
  if (isModeratorOrAbove(user)) return false;
  return now - user.date_joined < realmSettings(realm).waiting_period_threshold * 86400;
}

function postPolicyRefusal(realm: Realm, user: User, stream: Stream): string | null {
  switch (stream.stream_post_policy) {
    case POST_POLICY.ADMINS:
      return isAdmin(user) ? null : 'Only organization administrators can send to this channel.';
    case POST_POLICY.MODERATORS:
      return isModeratorOrAbove(user)
        ? null
        : 'Only organization administrators and moderators can send to this channel.';
    case POST_POLICY.RESTRICT_NEW_MEMBERS:
      return isProvisionalMember(realm, user) ? 'New members cannot send to this channel.' : null;
    default:
      return null;
  }
}

async function botOwner(db: Database, bot: User): Promise<User | null> {
  if (!bot.is_bot || bot.bot_owner_id === null) return null;
  return (
    (await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', bot.bot_owner_id)
      .executeTakeFirst()) ?? null
  );
}

/** The channel's posting policy; a bot passes when its owner does. */
export async function checkStreamPostPolicy(
  db: Database,
  realm: Realm,
  sender: User,
  stream: Stream,
) {
  const refusal = postPolicyRefusal(realm, sender, stream);
  if (refusal === null) return;
  const owner = await botOwner(db, sender);
  if (owner && owner.is_active && postPolicyRefusal(realm, owner, stream) === null) return;
  throw badRequest(refusal);
}

/**
 * Throws unless `sender` may post to `stream`: the posting policy, and for a private channel (or
 * a public one, for a guest) a subscription, the sender's own or, for a bot, its owner's. Anyone
 * may post to a web-public channel, guests too.
 */
export async function checkMaySendToStream(
  db: Database,
  realm: Realm,
  sender: User,
  stream: Stream,
  subscribed?: boolean,
) {
  await checkStreamPostPolicy(db, realm, sender, stream);
  if (stream.is_web_public || (!stream.invite_only && !isGuest(sender))) return;
  if (subscribed ?? (await isSubscribed(db, sender.id, stream.id))) return;
  const owner = await botOwner(db, sender);
  if (owner && owner.is_active && (await isSubscribed(db, owner.id, stream.id))) return;
  throw badRequest(`Not authorized to send to channel '${stream.name}'`);
}
