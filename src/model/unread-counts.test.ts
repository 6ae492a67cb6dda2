import { describe, expect, it } from 'vitest';
import type { MessageFlag, RegisterResponse } from '../api/model';
import { parseEvent } from '../api/parse-event';
import { eg } from '../test/eg';
import { accountStateFromSnapshot, reduceAccountEvents, type AccountState } from './account-state';
import {
  mutedStreamUnreadCount,
  unmutedStreamUnreadCount,
  unmutedTotalUnreadCount,
} from './unread-counts';

const general = eg.generalStream;
const noise = eg.subscription({ stream_id: 6, name: 'noise', is_muted: true, in_home_view: false });

/** general: lunch (2 unread), quiet (muted topic, 1); noise (muted stream): chatter (3), wanted (unmuted, 1); a DM (1). */
function register(overrides: Partial<RegisterResponse> = {}): RegisterResponse {
  return eg.registerResponse({
    subscriptions: [general, noise],
    streams: [general, noise],
    unread_msgs: {
      count: 0,
      pms: [{ other_user_id: 2, unread_message_ids: [20] }],
      streams: [
        { stream_id: 5, topic: 'lunch', unread_message_ids: [1, 2] },
        { stream_id: 5, topic: 'quiet', unread_message_ids: [3] },
        { stream_id: 6, topic: 'chatter', unread_message_ids: [4, 5, 6] },
        { stream_id: 6, topic: 'wanted', unread_message_ids: [7] },
      ],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
    user_topics: [
      { stream_id: 5, topic_name: 'Quiet', visibility_policy: 1, last_updated: 1 },
      { stream_id: 6, topic_name: 'wanted', visibility_policy: 2, last_updated: 1 },
    ],
    ...overrides,
  });
}

describe('unread counts with muting', () => {
  const state = accountStateFromSnapshot(register());

  it('leaves muted topics out of a stream count', () => {
    expect(unmutedStreamUnreadCount(state, 5)).toBe(2);
    expect(mutedStreamUnreadCount(state, 5)).toBe(1);
  });

  it('counts only unmuted and followed topics of a muted stream', () => {
    expect(unmutedStreamUnreadCount(state, 6)).toBe(1);
    expect(mutedStreamUnreadCount(state, 6)).toBe(3);
  });

  it('totals direct messages and unmuted conversations', () => {
    expect(unmutedTotalUnreadCount(state)).toBe(1 + 2 + 1);
  });

  it('follows muting as it changes', () => {
    const next = reduceAccountEvents(
      state,
      [
        parseEvent({
          id: 1,
          type: 'subscription',
          op: 'update',
          stream_id: 6,
          property: 'is_muted',
          value: false,
        }),
        parseEvent({
          id: 2,
          type: 'user_topic',
          stream_id: 5,
          topic_name: 'quiet',
          last_updated: 2,
          visibility_policy: 0,
        }),
      ],
      0,
    );
    expect(unmutedTotalUnreadCount(next)).toBe(1 + 3 + 4);
  });
});

describe('unread mentions with muting', () => {
  const stateWithMessage = (topic: string, flags: MessageFlag[]): AccountState => {
    const message = eg.streamMessage({ id: 50, stream_id: 5, subject: topic });
    return reduceAccountEvents(
      accountStateFromSnapshot(register()),
      [parseEvent(eg.messageEvent(message, flags))],
      0,
    );
  };

  it('does not count a wildcard mention in a muted topic, as the server does not', () => {
    const state = stateWithMessage('quiet', ['wildcard_mentioned']);
    expect(state.unreads.streams[5].quiet).toEqual([3, 50]);
    expect(state.unreads.mentions).toEqual([]);
  });

  it('counts a wildcard mention in an unmuted topic, and a personal mention anywhere', () => {
    expect(stateWithMessage('lunch', ['stream_wildcard_mentioned']).unreads.mentions).toEqual([50]);
    expect(stateWithMessage('quiet', ['mentioned']).unreads.mentions).toEqual([50]);
  });

  it('applies the same rule when an edit adds a wildcard mention', () => {
    const edit = (messageId: number) =>
      parseEvent({
        id: 9,
        type: 'update_message',
        user_id: 2,
        message_id: messageId,
        edit_timestamp: 1,
        rendering_only: false,
        flags: ['wildcard_mentioned'],
      });
    const state = accountStateFromSnapshot(register());
    expect(reduceAccountEvents(state, [edit(3)], 0).unreads.mentions).toEqual([]);
    expect(reduceAccountEvents(state, [edit(1)], 0).unreads.mentions).toEqual([1]);
  });
});
