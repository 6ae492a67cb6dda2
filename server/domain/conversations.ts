/**
 * Plain facts about conversations that the narrow interpreter, the event queues and the actions
 * all use; kept here, with no imports, so that reading them pulls in no action module.
 */

/** What a resolved topic's name starts with (upstream's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_PREFIX = '✔ ';

/** A user's policy for one topic (`user_topic` visibility_policy). */
export const VISIBILITY = { NONE: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** The participants of a direct-message conversation, from its stored key. */
export function dmIds(dmKey: string | null): number[] {
  if (!dmKey) return [];
  return dmKey.split(',').map(Number);
}

/** The stored key of a direct-message conversation: its participants' ids, sorted. */
export function dmKeyOf(userIds: number[]): string {
  return [...new Set(userIds)].sort((a, b) => a - b).join(',');
}
