import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Message } from '../api/model';
import { parseEvent } from '../api/parse-event';
import { feedNarrow, streamNarrow, topicNarrow } from '../narrow';
import { eg } from '../test/eg';
import { applyEventsToQueryCache, applyEventToMessageList } from './apply-event';
import { firstPageParam, messageKeys, type MessageListData } from './messages';

const self = eg.selfUser.user_id;
const narrow = streamNarrow(5);

function listOf(messages: Message[]): MessageListData {
  return {
    pages: [{ messages, foundOldest: true, foundNewest: true, anchor: messages[0]?.id ?? 0 }],
    pageParams: [firstPageParam],
  };
}

function submessageEvent(submessageId: number, messageId = 10, content = '{"type":"vote"}') {
  return parseEvent({
    id: submessageId,
    type: 'submessage',
    msg_type: 'widget',
    message_id: messageId,
    submessage_id: submessageId,
    sender_id: 7,
    content,
  });
}

const submessageIds = (data: MessageListData, index = 0) =>
  data.pages[0]!.messages[index]!.submessages.map((s) => s.id);

describe('the submessage event', () => {
  it('is parsed as itself when whole, as unexpected otherwise', () => {
    expect(submessageEvent(3).type).toBe('submessage');
    const base = { id: 1, type: 'submessage', msg_type: 'widget', message_id: 10, sender_id: 7 };
    expect(parseEvent({ ...base, content: '{}' }).type).toBe('unexpected');
    expect(parseEvent({ ...base, submessage_id: 3, content: { type: 'vote' } }).type).toBe(
      'unexpected',
    );
  });

  it('adds the submessage to its message, in id order, once', () => {
    const widget = { id: 1, message_id: 10, sender_id: 2, msg_type: 'widget', content: '{}' };
    const other = eg.streamMessage({ id: 11, stream_id: 5 });
    const data = listOf([eg.streamMessage({ id: 10, stream_id: 5, submessages: [widget] }), other]);
    const added = applyEventToMessageList(data, narrow, submessageEvent(5), self);
    expect(submessageIds(added)).toEqual([1, 5]);
    expect(added.pages[0]!.messages[0]!.submessages[1]).toEqual({
      id: 5,
      message_id: 10,
      sender_id: 7,
      msg_type: 'widget',
      content: '{"type":"vote"}',
    });
    expect(added.pages[0]!.messages[1]).toBe(other);
    expect(applyEventToMessageList(added, narrow, submessageEvent(5), self)).toBe(added);
    const late = applyEventToMessageList(added, narrow, submessageEvent(3), self);
    expect(submessageIds(late)).toEqual([1, 3, 5]);
    expect(applyEventToMessageList(late, narrow, submessageEvent(6, 99), self)).toBe(late);
  });

  it('reaches every cached list that holds the message', () => {
    const queryClient = new QueryClient();
    const message = eg.streamMessage({ id: 10, stream_id: 5, subject: 'lunch' });
    const lists = [messageKeys.list(topicNarrow(5, 'lunch')), messageKeys.list(feedNarrow)];
    for (const key of lists) queryClient.setQueryData(key, listOf([message]));
    applyEventsToQueryCache(queryClient, [submessageEvent(4)], self);
    for (const key of lists)
      expect(submessageIds(queryClient.getQueryData<MessageListData>(key)!)).toEqual([4]);
  });
});
