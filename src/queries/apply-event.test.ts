import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Message } from '../api/model';
import { parseEvent } from '../api/parse-event';
import {
  dmNarrow,
  feedNarrow,
  starredNarrow,
  streamNarrow,
  topicNarrow,
  type Narrow,
} from '../narrow';
import { eg } from '../test/eg';
import {
  applyEventsToQueryCache,
  applyEventToMessageList,
  applyEventToTopics,
} from './apply-event';
import { firstPageParam, messageKeys, type MessageListData } from './messages';
import { topicKeys } from './topics';

const self = eg.selfUser.user_id;

function listOf(messages: Message[], foundNewest = true): MessageListData {
  return {
    pages: [{ messages, foundOldest: true, foundNewest, anchor: messages[0]?.id ?? 0 }],
    pageParams: [firstPageParam],
  };
}

const ids = (data: MessageListData) => data.pages.flatMap((p) => p.messages.map((m) => m.id));

describe('applyEventToMessageList', () => {
  const old = eg.streamMessage({ id: 10, stream_id: 5, subject: 'lunch' });

  it('adds and removes reactions once per person and emoji', () => {
    const reaction = (op: 'add' | 'remove', user_id: number) =>
      parseEvent({
        id: 1,
        type: 'reaction',
        op,
        message_id: 10,
        user_id,
        emoji_name: 'tada',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
      });
    const narrow = streamNarrow(5);
    const reactionsOf = (data: MessageListData) =>
      data.pages[0]!.messages[0]!.reactions.map((r) => r.user_id);
    const once = applyEventToMessageList(
      listOf([{ ...old, reactions: [] }]),
      narrow,
      reaction('add', 7),
      self,
    );
    expect(reactionsOf(once)).toEqual([7]);
    const twice = applyEventToMessageList(once, narrow, reaction('add', 7), self);
    expect(twice).toBe(once);
    const other = applyEventToMessageList(twice, narrow, reaction('add', 8), self);
    expect(reactionsOf(other)).toEqual([7, 8]);
    expect(
      reactionsOf(applyEventToMessageList(other, narrow, reaction('remove', 7), self)),
    ).toEqual([8]);
    const elsewhere = parseEvent({
      id: 2,
      type: 'reaction',
      op: 'add',
      message_id: 99,
      user_id: 7,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    });
    expect(applyEventToMessageList(once, narrow, elsewhere, self)).toBe(once);
  });

  it('appends a new message to the lists whose narrow contains it', () => {
    const fresh = eg.streamMessage({ id: 11, stream_id: 5, subject: 'lunch' });
    const event = parseEvent(eg.messageEvent(fresh, []));
    expect(
      ids(applyEventToMessageList(listOf([old]), topicNarrow(5, 'lunch'), event, self)),
    ).toEqual([10, 11]);
    expect(ids(applyEventToMessageList(listOf([old]), feedNarrow, event, self))).toEqual([10, 11]);
    const other = listOf([old]);
    expect(applyEventToMessageList(other, topicNarrow(5, 'dinner'), event, self)).toBe(other);
    expect(applyEventToMessageList(other, dmNarrow([2], self), event, self)).toBe(other);
  });

  it('does not append to a list that has not reached the newest message, nor twice', () => {
    const event = parseEvent(eg.messageEvent(eg.streamMessage({ id: 11, stream_id: 5 }), []));
    const behind = listOf([old], false);
    expect(applyEventToMessageList(behind, streamNarrow(5), event, self)).toBe(behind);
    const once = applyEventToMessageList(listOf([old]), streamNarrow(5), event, self);
    expect(applyEventToMessageList(once, streamNarrow(5), event, self)).toBe(once);
  });

  it('takes the flags from the event, so starred narrows get starred messages', () => {
    const fresh = eg.streamMessage({ id: 12, stream_id: 5 });
    const data = applyEventToMessageList(
      listOf([]),
      starredNarrow,
      parseEvent(eg.messageEvent(fresh, ['starred'])),
      self,
    );
    expect(data.pages[0].messages[0].flags).toEqual(['starred']);
  });

  it('adds and removes flags', () => {
    const read = applyEventToMessageList(
      listOf([old]),
      feedNarrow,
      parseEvent({
        id: 1,
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: [10],
        all: false,
      }),
      self,
    );
    expect(read.pages[0].messages[0].flags).toEqual(['read']);
    const unread = applyEventToMessageList(
      read,
      feedNarrow,
      parseEvent({
        id: 2,
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: [10],
        all: false,
      }),
      self,
    );
    expect(unread.pages[0].messages[0].flags).toEqual([]);
    expect(
      applyEventToMessageList(
        unread,
        feedNarrow,
        parseEvent({
          id: 3,
          type: 'update_message_flags',
          op: 'remove',
          flag: 'read',
          messages: [10],
          all: false,
        }),
        self,
      ),
    ).toBe(unread);
  });

  it('marks everything read on mark-all-as-read', () => {
    const data = applyEventToMessageList(
      listOf([old]),
      feedNarrow,
      parseEvent({
        id: 1,
        type: 'update_message_flags',
        op: 'add',
        flag: 'read',
        messages: [],
        all: true,
      }),
      self,
    );
    expect(data.pages[0].messages[0].flags).toEqual(['read']);
  });

  it('removes deleted messages', () => {
    const data = applyEventToMessageList(
      listOf([old]),
      feedNarrow,
      parseEvent({ id: 1, type: 'delete_message', message_ids: [10], message_type: 'stream' }),
      self,
    );
    expect(ids(data)).toEqual([]);
  });

  it('replaces edited content and drops messages moved out of the narrow', () => {
    const edit = {
      id: 1,
      type: 'update_message',
      user_id: 2,
      message_id: 10,
      message_ids: [10],
      edit_timestamp: 5,
      rendering_only: false,
    };
    const edited = applyEventToMessageList(
      listOf([old]),
      topicNarrow(5, 'lunch'),
      parseEvent({ ...edit, rendered_content: '<p>new</p>' }),
      self,
    );
    expect(edited.pages[0].messages[0]).toMatchObject({
      content: '<p>new</p>',
      last_edit_timestamp: 5,
    });
    const move = parseEvent({ ...edit, stream_id: 5, orig_subject: 'lunch', subject: 'food' });
    expect(ids(applyEventToMessageList(edited, topicNarrow(5, 'lunch'), move, self))).toEqual([]);
    const inStream = applyEventToMessageList(edited, streamNarrow(5), move, self);
    expect(inStream.pages[0].messages[0].subject).toBe('food');
  });

  it('ignores events that do not concern messages', () => {
    const data = listOf([old]);
    expect(
      applyEventToMessageList(data, feedNarrow, parseEvent({ id: 1, type: 'heartbeat' }), self),
    ).toBe(data);
  });
});

describe('applyEventToTopics', () => {
  it('moves a topic with a new message to the top, or adds it', () => {
    const topics = [
      { name: 'dinner', maxId: 20 },
      { name: 'lunch', maxId: 10 },
    ];
    const bump = parseEvent(
      eg.messageEvent(eg.streamMessage({ id: 30, stream_id: 5, subject: 'Lunch' }), []),
    );
    expect(applyEventToTopics(topics, 5, bump)).toEqual([
      { name: 'lunch', maxId: 30 },
      { name: 'dinner', maxId: 20 },
    ]);
    expect(applyEventToTopics(topics, 6, bump)).toBe(topics);
    const fresh = parseEvent(
      eg.messageEvent(eg.streamMessage({ id: 31, stream_id: 5, subject: 'new' }), []),
    );
    expect(applyEventToTopics(topics, 5, fresh)[0]).toEqual({ name: 'new', maxId: 31 });
  });
});

describe('applyEventToTopics on moves', () => {
  const topics = [
    { name: 'dinner', maxId: 20 },
    { name: 'lunch', maxId: 10 },
  ];
  const move = (extra: Record<string, unknown>) =>
    parseEvent({
      id: 1,
      type: 'update_message',
      user_id: 9,
      message_id: 10,
      message_ids: [8, 10],
      edit_timestamp: 1,
      rendering_only: false,
      stream_id: 5,
      orig_subject: 'lunch',
      propagate_mode: 'change_all',
      ...extra,
    });

  it('renames a whole topic in place, keeping the order by newest message', () => {
    expect(applyEventToTopics(topics, 5, move({ subject: '✔ lunch' }))).toEqual([
      { name: 'dinner', maxId: 20 },
      { name: '✔ lunch', maxId: 10 },
    ]);
  });

  it('merges into an existing topic and takes the newer of the two', () => {
    expect(applyEventToTopics(topics, 5, move({ subject: 'Dinner' }))).toEqual([
      { name: 'Dinner', maxId: 20 },
    ]);
  });

  it('leaves the old channel and joins the new one when the channel changes', () => {
    const moved = move({ new_stream_id: 6 });
    expect(applyEventToTopics(topics, 5, moved)).toEqual([{ name: 'dinner', maxId: 20 }]);
    expect(applyEventToTopics([{ name: 'x', maxId: 3 }], 6, moved)).toEqual([
      { name: 'lunch', maxId: 10 },
      { name: 'x', maxId: 3 },
    ]);
    expect(applyEventToTopics(topics, 7, moved)).toBe(topics);
  });

  it('waits for the refetch after a partial move', () => {
    expect(
      applyEventToTopics(topics, 5, move({ subject: 'food', propagate_mode: 'change_later' })),
    ).toBe(topics);
  });
});

describe('applyEventsToQueryCache', () => {
  it('updates every loaded list and topic list, leaving others alone', () => {
    const client = new QueryClient();
    const narrows: Narrow[] = [streamNarrow(5), dmNarrow([2], self)];
    for (const narrow of narrows) client.setQueryData(messageKeys.list(narrow), listOf([]));
    client.setQueryData(topicKeys.stream(5), []);
    const dmList = client.getQueryData(messageKeys.list(narrows[1]));
    applyEventsToQueryCache(
      client,
      [parseEvent(eg.messageEvent(eg.streamMessage({ id: 40, stream_id: 5, subject: 't' }), []))],
      self,
    );
    expect(ids(client.getQueryData<MessageListData>(messageKeys.list(narrows[0]))!)).toEqual([40]);
    expect(client.getQueryData(messageKeys.list(narrows[1]))).toBe(dmList);
    expect(client.getQueryData(topicKeys.stream(5))).toEqual([{ name: 't', maxId: 40 }]);
  });
});
