/**
 * Unread counts as the user should see them. Muted conversations keep their unread messages
 * (the inbox still lists them, greyed), but they do not add to the totals: a muted topic never
 * counts, an unmuted or followed topic counts even in a muted stream, and any other topic counts
 * when its stream is not muted. Direct messages always count.
 */
import type { SubscriptionsState } from './subscriptions';
import type { UnreadsState } from './unreads';
import { isConversationMuted, type UserTopicsState } from './user-topics';

export interface UnreadCountInputs {
  unreads: UnreadsState;
  subscriptions: SubscriptionsState;
  userTopics: UserTopicsState;
}

export function isTopicMutedFor(
  state: Pick<UnreadCountInputs, 'subscriptions' | 'userTopics'>,
  streamId: number,
  topic: string,
) {
  return isConversationMuted(state.userTopics, state.subscriptions, streamId, topic);
}

/** Unread messages in the stream's conversations that are not muted. */
export function unmutedStreamUnreadCount(state: UnreadCountInputs, streamId: number): number {
  const topics = state.unreads.streams[streamId];
  if (!topics) return 0;
  let count = 0;
  for (const [topic, ids] of Object.entries(topics))
    if (!isTopicMutedFor(state, streamId, topic)) count += ids.length;
  return count;
}

/** Unread messages in the stream's muted conversations: what the sidebar shows only as a hint. */
export function mutedStreamUnreadCount(state: UnreadCountInputs, streamId: number): number {
  const topics = state.unreads.streams[streamId];
  if (!topics) return 0;
  let count = 0;
  for (const [topic, ids] of Object.entries(topics))
    if (isTopicMutedFor(state, streamId, topic)) count += ids.length;
  return count;
}

/** What the inbox and the browser title count: direct messages and unmuted conversations. */
export function unmutedTotalUnreadCount(state: UnreadCountInputs): number {
  const dms = Object.values(state.unreads.dms).reduce((sum, ids) => sum + ids.length, 0);
  return Object.keys(state.unreads.streams).reduce(
    (sum, streamId) => sum + unmutedStreamUnreadCount(state, Number(streamId)),
    dms,
  );
}
