import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import { isAdmin, isModeratorOrAbove } from '../domain/roles.js';
import type { RenderResult } from '../markdown/types.js';
import { activeSubscriberIds, isInGroup } from './access.js';
import { isFullMember } from './admin-checks.js';
import { realmSettings } from './realm.js';

/**
 * Who may notify many people at once: wildcard mentions follow the organization's
 * `wildcard_mention_policy` in channels (or topics) above a size, and a group mention follows the
 * group's `can_mention_group`. Silent mentions notify nobody and are never refused.
 */

/** Channels and topics up to this many people take wildcard mentions from anyone (upstream's threshold). */
export const WILDCARD_MENTION_THRESHOLD = 15;

/** `wildcard_mention_policy`: 1 everyone, 2 members, 3 full members, 5 administrators, 6 nobody, 7 moderators. */
export function mayUseWildcardMentions(realm: Realm, user: User): boolean {
  switch (realmSettings(realm).wildcard_mention_policy) {
    case 1:
      return true;
    case 2:
      return user.role <= 400;
    case 3:
      return isFullMember(realm, user);
    case 5:
      return isAdmin(user);
    case 7:
      return isModeratorOrAbove(user);
    default:
      return false;
  }
}

export interface MentionPlace {
  stream: Stream;
  topic: string;
  /** active subscribers of the channel, when the caller has them; counted only if a wildcard needs it */
  subscriberCount?: number;
}

async function topicParticipantCount(
  db: Database,
  sender: User,
  place: MentionPlace,
): Promise<number> {
  const rows = await db
    .selectFrom('messages')
    .select('sender_id')
    .distinct()
    .where('stream_id', '=', place.stream.id)
    .where('topic_key', '=', place.topic.toLowerCase())
    .execute();
  return new Set([...rows.map((r) => r.sender_id), sender.id]).size;
}

/** Throws unless `sender` may make the (non-silent) mentions of a message about to be sent. */
export async function checkMentionsAllowed(
  db: Database,
  realm: Realm,
  sender: User,
  md: RenderResult,
  place: MentionPlace | null,
) {
  // Direct messages reach only their participants: wildcards there are always allowed.
  if (place && !mayUseWildcardMentions(realm, sender)) {
    if (
      md.streamWildcard &&
      (place.subscriberCount ?? (await activeSubscriberIds(db, place.stream.id)).length) >
        WILDCARD_MENTION_THRESHOLD
    )
      throw new DomainError(
        'You do not have permission to use channel wildcard mentions in this channel.',
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      );
    if (
      md.topicWildcard &&
      (await topicParticipantCount(db, sender, place)) > WILDCARD_MENTION_THRESHOLD
    )
      throw new DomainError(
        'You do not have permission to use topic wildcard mentions in this topic.',
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      );
  }
  if (!md.mentionedGroupIds.length) return;
  const groups = await db
    .selectFrom('user_groups')
    .select(['id', 'name', 'can_mention_group'])
    .where('realm_id', '=', realm.id)
    .where('id', 'in', md.mentionedGroupIds)
    .execute();
  for (const group of groups) {
    if (group.can_mention_group === null || (await isInGroup(db, sender, group.can_mention_group)))
      continue;
    throw new DomainError(
      `You are not allowed to mention user group '${group.name}'.`,
      'BAD_REQUEST',
    );
  }
}
