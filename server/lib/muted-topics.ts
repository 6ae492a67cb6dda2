import type { Database } from '../db/index.js';
import { VISIBILITY } from '../domain/conversations.js';
import type { Delivery } from '../events/types.js';

/**
 * The legacy form of a person's muted topics, for clients older than `user_topic` (zulip-terminal
 * among them): `[channel name, topic, last_updated]` for each topic they muted, oldest first.
 */
export async function mutedTopicsList(db: Database, userId: number) {
  const rows = await db
    .selectFrom('user_topics')
    .innerJoin('streams', 'streams.id', 'user_topics.stream_id')
    .select(['streams.name', 'user_topics.topic', 'user_topics.last_updated'])
    .where('user_topics.user_id', '=', userId)
    .where('user_topics.visibility_policy', '=', VISIBILITY.MUTED)
    .orderBy('user_topics.last_updated')
    .orderBy('user_topics.topic')
    .execute();
  return rows.map((r) => [r.name, r.topic, r.last_updated] as [string, string, number]);
}

/**
 * The `muted_topics` event the reference sends before a `user_topic` event: the whole list
 * again. Queues that asked for `user_topic` never get it (EventQueue.wantsType).
 */
export async function mutedTopicsEvent(
  db: Database,
  realmId: number,
  userId: number,
): Promise<Delivery> {
  return {
    realmId,
    userIds: [userId],
    event: { type: 'muted_topics', muted_topics: await mutedTopicsList(db, userId) },
  };
}
