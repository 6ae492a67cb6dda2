import { describe, expect, it } from 'vitest';
import { eg } from '../test/eg';
import { messagesFromSnapshot, reduceMessages } from './messages';

const self = eg.selfUser.user_id;
const context = { ownUserId: self, now: 0 };

function initial() {
  return messagesFromSnapshot(
    eg.registerResponse({
      starred_messages: [7, 3],
      recent_private_conversations: [
        { max_message_id: 10, user_ids: [2] },
        { max_message_id: 12, user_ids: [] },
      ],
      max_message_id: 12,
    }),
    self,
  );
}

describe('messages state', () => {
  it('reads starred ids and recent DMs, a self DM as the own id', () => {
    const state = initial();
    expect(state.starredIds).toEqual([3, 7]);
    expect(state.recentDms).toEqual([
      { max_message_id: 12, user_ids: [self] },
      { max_message_id: 10, user_ids: [2] },
    ]);
  });

  it('moves a conversation to the top when a DM arrives', () => {
    const message = eg.dmMessage({ id: 20, from: eg.otherUser, to: [eg.selfUser] });
    const state = reduceMessages(initial(), eg.messageEvent(message, []), context);
    expect(state.recentDms[0]).toEqual({ max_message_id: 20, user_ids: [2] });
    expect(state.recentDms).toHaveLength(2);
    expect(state.maxMessageId).toBe(20);
  });

  it('tracks starred flags added and removed', () => {
    const added = reduceMessages(
      initial(),
      {
        id: 1,
        type: 'update_message_flags',
        op: 'add',
        flag: 'starred',
        messages: [5],
        all: false,
      },
      context,
    );
    expect(added.starredIds).toEqual([3, 5, 7]);
    const removed = reduceMessages(
      added,
      {
        id: 2,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'starred',
        messages: [3],
        all: false,
      },
      context,
    );
    expect(removed.starredIds).toEqual([5, 7]);
  });

  it('keeps the same state for read flags and unknown deletions', () => {
    const before = initial();
    expect(
      reduceMessages(
        before,
        { id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: [3], all: false },
        context,
      ),
    ).toBe(before);
    expect(
      reduceMessages(
        before,
        { id: 1, type: 'delete_message', message_ids: [99], message_type: 'stream' },
        context,
      ),
    ).toBe(before);
  });

  it('forgets deleted starred messages', () => {
    const state = reduceMessages(
      initial(),
      { id: 1, type: 'delete_message', message_ids: [7], message_type: 'stream' },
      context,
    );
    expect(state.starredIds).toEqual([3]);
  });
});
