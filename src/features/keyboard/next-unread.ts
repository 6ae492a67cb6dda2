/**
 * Where "next unread topic" (n) and "next unread direct message" (p) go, in the reference app's
 * order: channels as the left sidebar lists them, each channel's unread topics newest first,
 * starting after the conversation on screen and wrapping around; muted topics are skipped.
 */
import type { UnreadsState } from '../../model/unreads';

export interface TopicPlace {
  streamId: number;
  topic: string;
}

/** A channel's unread topics, the most recently active (highest unread id) first. */
export function unreadTopicsByRecency(unreads: UnreadsState, streamId: number): string[] {
  const topics = unreads.streams[streamId] ?? {};
  return Object.entries(topics)
    .filter(([, ids]) => ids.length > 0)
    .sort(([, a], [, b]) => b[b.length - 1]! - a[a.length - 1]!)
    .map(([topic]) => topic);
}

export function nextUnreadTopic(
  unreads: UnreadsState,
  /** subscribed channels in sidebar order */
  streamIds: readonly number[],
  isMuted: (streamId: number, topic: string) => boolean,
  current: { streamId: number; topic: string | null } | null,
): TopicPlace | null {
  const same = (a: string, b: string | null) => b !== null && a.toLowerCase() === b.toLowerCase();
  const candidates = (streamId: number) =>
    unreadTopicsByRecency(unreads, streamId).filter((topic) => !isMuted(streamId, topic));

  const start = current ? streamIds.indexOf(current.streamId) : -1;
  if (current && start !== -1) {
    // The rest of the channel on screen first: topics after the current one, or all of them.
    const topics = candidates(current.streamId);
    const at = topics.findIndex((topic) => same(topic, current.topic));
    const after = at === -1 ? topics.filter((t) => !same(t, current.topic)) : topics.slice(at + 1);
    if (after.length > 0) return { streamId: current.streamId, topic: after[0]! };
  }
  for (let step = 1; step <= streamIds.length; step += 1) {
    const streamId = streamIds[(Math.max(start, -1) + step + streamIds.length) % streamIds.length]!;
    const topics = candidates(streamId).filter(
      (topic) => !(current && streamId === current.streamId && same(topic, current.topic)),
    );
    if (topics.length > 0) return { streamId, topic: topics[0]! };
  }
  return null;
}

/**
 * The next direct-message conversation with unread messages after `currentKey` (a participant
 * list joined by commas), most recent conversations first; null when there is none.
 */
export function nextUnreadDm(
  unreads: UnreadsState,
  /** conversation keys, most recent first */
  recentKeys: readonly string[],
  currentKey: string | null,
  hidden: (key: string) => boolean = () => false,
): string | null {
  const unreadKeys = Object.keys(unreads.dms).filter(
    (key) => (unreads.dms[key]?.length ?? 0) > 0 && !hidden(key),
  );
  if (unreadKeys.length === 0) return null;
  const order = [
    ...recentKeys.filter((key) => unreadKeys.includes(key)),
    ...unreadKeys.filter((key) => !recentKeys.includes(key)),
  ];
  const at = currentKey === null ? -1 : order.indexOf(currentKey);
  for (let step = 1; step <= order.length; step += 1) {
    const key = order[(at + step) % order.length]!;
    if (key !== currentKey) return key;
  }
  return null;
}

/** The channel before (-1) or after (+1) `current` in sidebar order, wrapping around. */
export function cycleChannel(
  streamIds: readonly number[],
  current: number | null,
  direction: 1 | -1,
): number | null {
  if (streamIds.length === 0) return null;
  const at = current === null ? -1 : streamIds.indexOf(current);
  if (at === -1) return direction === 1 ? streamIds[0]! : streamIds[streamIds.length - 1]!;
  return streamIds[(at + direction + streamIds.length) % streamIds.length]!;
}
