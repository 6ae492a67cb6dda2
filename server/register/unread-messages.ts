import type { AppContext } from '../context.js';
import type { User } from '../db/schema.js';
import { topicsOf } from '../db/unread-conversations.js';
import { dmIds } from '../domain/conversations.js';
import { unreadGroups, type UnreadGroup } from './unread-cache.js';

export const MAX_UNREAD_MESSAGES = 50000;

/** Leaves out the oldest of the messages (the one past the limit), wherever it stands. */
function dropOldest(groups: UnreadGroup[]): UnreadGroup[] {
  let oldest = -1;
  for (let i = 0; i < groups.length; i++)
    if (oldest < 0 || groups[i].ids[0] < groups[oldest].ids[0]) oldest = i;
  if (oldest < 0) return groups;
  const group = groups[oldest];
  const id = group.ids.shift();
  group.topic = undefined; // its oldest message is another one now
  group.mentioned = group.mentioned.filter((m) => m !== id);
  group.wildcard = group.wildcard.filter((m) => m !== id);
  return group.ids.length ? groups : groups.filter((g) => g !== group);
}

/**
 * Whether a topic is muted for the person: its own visibility policy (muted, or unmuted and
 * followed), else its channel's muting. Muted unread messages are not counted.
 */
async function topicMuting(ctx: AppContext, user: User) {
  const mutedStreams = new Set(
    (
      await ctx.db
        .selectFrom('subscriptions')
        .select('stream_id')
        .where('user_id', '=', user.id)
        .where('is_muted', '=', 1)
        .execute()
    ).map((r) => r.stream_id),
  );
  const topicPolicies = await ctx.db
    .selectFrom('user_topics')
    .select(['stream_id', 'topic_key', 'visibility_policy'])
    .where('user_id', '=', user.id)
    .execute();
  const policy = new Map(
    topicPolicies.map((t) => [`${t.stream_id}\u0000${t.topic_key}`, t.visibility_policy]),
  );
  return (streamId: number, topicKey: string) => {
    const p = policy.get(`${streamId}\u0000${topicKey}`);
    if (p === 1) return true;
    if (p === 2 || p === 3) return false;
    return mutedStreams.has(streamId);
  };
}

/**
 * The unread summary, over the newest 50000 (`limit`) unread messages: their conversations come
 * grouped from the database (unreadConversations), each topic is read from its oldest message
 * among them, and conversations are listed in the order of their oldest unread message.
 */
export async function unreadMessages(
  ctx: AppContext,
  user: User,
  limit = MAX_UNREAD_MESSAGES,
  source: 'memory' | 'database' = 'memory',
) {
  // One more than the limit tells whether older unread messages are left out.
  let groups = await unreadGroups(ctx, user.id, limit + 1, source);
  const total = groups.reduce((n, g) => n + g.ids.length, 0);
  const oldMissing = total > limit;
  if (oldMissing) groups = dropOldest(groups);
  groups.sort((a, b) => a.ids[0] - b.ids[0]);
  // Each topic as its oldest unread message names it; the copy in memory knows most of them.
  const topics = await topicsOf(
    ctx.db,
    groups.filter((g) => g.streamId !== null && g.topic === undefined).map((g) => g.ids[0]),
  );
  const isMuted = await topicMuting(ctx, user);
  const pms = new Map<number, number[]>();
  const streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] = [];
  const huddles: { user_ids_string: string; unread_message_ids: number[] }[] = [];
  const mentions: number[] = [];
  let count = 0;
  for (const g of groups) {
    mentions.push(...g.mentioned);
    if (g.streamId !== null) {
      const muted = isMuted(g.streamId, g.topicKey);
      if (!muted) {
        count += g.ids.length;
        mentions.push(...g.wildcard);
      }
      streams.push({
        stream_id: g.streamId,
        topic: g.topic ?? topics.get(g.ids[0]) ?? '',
        unread_message_ids: g.ids,
      });
      continue;
    }
    count += g.ids.length;
    mentions.push(...g.wildcard);
    const members = dmIds(g.dmKey);
    if (members.length > 2) {
      huddles.push({ user_ids_string: g.dmKey ?? '', unread_message_ids: g.ids });
      continue;
    }
    const other = members.find((id) => id !== user.id) ?? user.id;
    // One list per other person, whatever the key their messages were stored under.
    const existing = pms.get(other);
    if (existing)
      pms.set(
        other,
        [...existing, ...g.ids].sort((a, b) => a - b),
      );
    else pms.set(other, g.ids);
  }
  return {
    count,
    pms: [...pms].map(([other, ids]) => ({
      other_user_id: other,
      sender_id: other,
      unread_message_ids: ids,
    })),
    streams,
    huddles,
    mentions: [...new Set(mentions)].sort((a, b) => a - b),
    old_unreads_missing: oldMissing,
  };
}
