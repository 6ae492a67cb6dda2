import { describe, expect, it } from 'vitest';
import { eg } from '../../test/eg';
import {
  filterConversations,
  groupConversations,
  type Conversation,
  type RecentFilterContext,
} from './recent-filter';

const ME = 5;
const messages = [
  eg.streamMessage({
    id: 1,
    stream_id: 1,
    display_recipient: 'general',
    subject: 'lunch',
    sender_id: ME,
  }),
  eg.streamMessage({
    id: 2,
    stream_id: 1,
    display_recipient: 'general',
    subject: 'lunch',
    sender_id: 7,
  }),
  eg.streamMessage({
    id: 3,
    stream_id: 2,
    display_recipient: 'design',
    subject: 'logo',
    sender_id: 8,
  }),
  eg.streamMessage({
    id: 4,
    stream_id: 1,
    display_recipient: 'general',
    subject: 'quiet',
    sender_id: 8,
  }),
];
const names: Record<number, string> = { [ME]: 'King Hamlet', 7: 'Iago', 8: 'Othello' };
const context: RecentFilterContext = {
  ownUserId: ME,
  name: (c: Conversation) =>
    c.latest.type === 'stream' ? `${c.latest.display_recipient} ${c.latest.subject}` : '',
  senderName: (id) => names[id] ?? '',
  unreadCount: (c) => (c.latest.subject === 'logo' ? 2 : 0),
  isMuted: (c) => c.latest.subject === 'quiet',
};
const topics = (list: Conversation[]) => list.map((c) => c.latest.subject);
const none = { text: '', unreadOnly: false, includeMuted: false, participated: false };

describe('recent conversations', () => {
  const conversations = groupConversations(messages);

  it('groups messages by conversation, newest first, senders most recent first', () => {
    expect(topics(conversations)).toEqual(['quiet', 'logo', 'lunch']);
    expect(conversations.find((c) => c.latest.subject === 'lunch')?.senders).toEqual([7, ME]);
  });

  it('hides muted conversations unless included', () => {
    expect(topics(filterConversations(conversations, none, context))).toEqual(['logo', 'lunch']);
    expect(
      topics(filterConversations(conversations, { ...none, includeMuted: true }, context)),
    ).toEqual(['quiet', 'logo', 'lunch']);
  });

  it('keeps unread, participated, or matching conversations', () => {
    expect(
      topics(filterConversations(conversations, { ...none, unreadOnly: true }, context)),
    ).toEqual(['logo']);
    expect(
      topics(filterConversations(conversations, { ...none, participated: true }, context)),
    ).toEqual(['lunch']);
    expect(topics(filterConversations(conversations, { ...none, text: 'iago' }, context))).toEqual([
      'lunch',
    ]);
    expect(
      topics(filterConversations(conversations, { ...none, text: 'des LO' }, context)),
    ).toEqual(['logo']);
  });
});
