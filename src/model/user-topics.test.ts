import { describe, expect, it } from 'vitest';
import type { TopicVisibilityPolicy, UserTopicEvent } from '../api/model';
import { eg } from '../test/eg';
import { subscriptionsFromSnapshot } from './subscriptions';
import {
  isConversationMuted,
  reduceUserTopics,
  topicVisibility,
  TOPIC_VISIBILITY,
  userTopicsFromSnapshot,
} from './user-topics';

const general = eg.generalStream.stream_id;

const policy = (
  topic_name: string,
  visibility_policy: TopicVisibilityPolicy,
  stream_id = general,
) =>
  ({
    id: 1,
    type: 'user_topic',
    stream_id,
    topic_name,
    visibility_policy,
    last_updated: 100,
  }) satisfies UserTopicEvent;

const initial = () =>
  userTopicsFromSnapshot(
    eg.registerResponse({
      user_topics: [
        { stream_id: general, topic_name: 'Lunch', visibility_policy: 1, last_updated: 50 },
      ],
    }),
  );

describe('user topics', () => {
  it('looks topics up case-insensitively, as the server compares them', () => {
    const state = initial();
    expect(topicVisibility(state, general, 'lunch')).toBe(TOPIC_VISIBILITY.MUTED);
    expect(topicVisibility(state, general, 'dinner')).toBe(TOPIC_VISIBILITY.NONE);
  });

  it('replaces a policy, keeping the spelling the server last sent', () => {
    const state = reduceUserTopics(initial(), policy('LUNCH', 3));
    expect(topicVisibility(state, general, 'Lunch')).toBe(TOPIC_VISIBILITY.FOLLOWED);
    expect(Object.values(state.byStream[general])).toEqual([
      { stream_id: general, topic_name: 'LUNCH', visibility_policy: 3, last_updated: 100 },
    ]);
  });

  it('forgets a topic whose policy goes back to none, and the stream when it was the last', () => {
    const state = reduceUserTopics(initial(), policy('lunch', 0));
    expect(state.byStream).toEqual({});
  });

  it('returns the same state for repeated or empty changes', () => {
    const followed = reduceUserTopics(initial(), policy('dinner', 3));
    expect(reduceUserTopics(followed, policy('dinner', 3))).toBe(followed);
    expect(reduceUserTopics(followed, policy('breakfast', 0))).toBe(followed);
  });

  describe('isConversationMuted', () => {
    const mutedStream = eg.subscription({ stream_id: 6, name: 'noise', is_muted: true });
    const subscriptions = subscriptionsFromSnapshot(
      eg.registerResponse({ subscriptions: [eg.generalStream, mutedStream] }),
    );
    const topics = [policy('quiet', 1), policy('wanted', 2, 6), policy('loved', 3, 6)].reduce(
      reduceUserTopics,
      userTopicsFromSnapshot(eg.registerResponse()),
    );
    const muted = (streamId: number, topic: string) =>
      isConversationMuted(topics, subscriptions, streamId, topic);

    it('mutes muted topics in unmuted streams', () => {
      expect(muted(general, 'quiet')).toBe(true);
      expect(muted(general, 'anything else')).toBe(false);
    });

    it('mutes a muted stream, except its unmuted and followed topics', () => {
      expect(muted(6, 'anything')).toBe(true);
      expect(muted(6, 'Wanted')).toBe(false);
      expect(muted(6, 'loved')).toBe(false);
    });
  });
});
