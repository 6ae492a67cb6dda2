/**
 * The user's topic visibility policies (muted, unmuted, followed topics), by stream and topic.
 * Topics compare case-insensitively, as the server compares them.
 */
import type {
  RegisterResponse,
  TopicVisibilityPolicy,
  UserTopic,
  UserTopicEvent,
} from '../api/model';
import type { SubscriptionsState } from './subscriptions';

export const TOPIC_VISIBILITY = { NONE: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export interface UserTopicsState {
  /** stream id → lower-cased topic → the policy as the server last sent it */
  byStream: Readonly<Record<number, Readonly<Record<string, UserTopic>>>>;
}

const topicKey = (topic: string) => topic.toLowerCase();

export function userTopicsFromSnapshot(register: RegisterResponse): UserTopicsState {
  let state: UserTopicsState = { byStream: {} };
  for (const entry of register.user_topics ?? []) state = withPolicy(state, entry);
  return state;
}

export function reduceUserTopics(state: UserTopicsState, event: UserTopicEvent): UserTopicsState {
  const { stream_id, topic_name, last_updated, visibility_policy } = event;
  return withPolicy(state, { stream_id, topic_name, last_updated, visibility_policy });
}

function withPolicy(state: UserTopicsState, entry: UserTopic): UserTopicsState {
  const topics = state.byStream[entry.stream_id] ?? {};
  const key = topicKey(entry.topic_name);
  const existing = topics[key];
  if (entry.visibility_policy === TOPIC_VISIBILITY.NONE) {
    if (!existing) return state;
    const remaining = { ...topics };
    delete remaining[key];
    const byStream = { ...state.byStream, [entry.stream_id]: remaining };
    if (Object.keys(remaining).length === 0) delete byStream[entry.stream_id];
    return { byStream };
  }
  if (
    existing &&
    existing.topic_name === entry.topic_name &&
    existing.visibility_policy === entry.visibility_policy &&
    existing.last_updated === entry.last_updated
  )
    return state;
  return { byStream: { ...state.byStream, [entry.stream_id]: { ...topics, [key]: entry } } };
}

export function topicVisibility(
  state: UserTopicsState,
  streamId: number,
  topic: string,
): TopicVisibilityPolicy {
  return state.byStream[streamId]?.[topicKey(topic)]?.visibility_policy ?? TOPIC_VISIBILITY.NONE;
}

/**
 * Whether a stream conversation is muted for the user: a muted topic always is; an unmuted or
 * followed topic never is, even in a muted stream; any other topic follows its stream.
 */
export function isConversationMuted(
  userTopics: UserTopicsState,
  subscriptions: SubscriptionsState,
  streamId: number,
  topic: string,
): boolean {
  switch (topicVisibility(userTopics, streamId, topic)) {
    case TOPIC_VISIBILITY.MUTED:
      return true;
    case TOPIC_VISIBILITY.UNMUTED:
    case TOPIC_VISIBILITY.FOLLOWED:
      return false;
    default:
      return subscriptions.subscriptions[streamId]?.is_muted ?? false;
  }
}

export const isTopicFollowed = (state: UserTopicsState, streamId: number, topic: string) =>
  topicVisibility(state, streamId, topic) === TOPIC_VISIBILITY.FOLLOWED;
