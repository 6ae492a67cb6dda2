/**
 * Recent conversations: the newest messages grouped by conversation, and the reference app's
 * filters over them: a text filter (channel, topic and people's names), unread only, include
 * muted (off: muted channels and topics are hidden), and participated (conversations the user
 * wrote in).
 */
import type { Message } from '../../api/model';
import { conversationKey } from '../message-list/build-rows';
import { matchesFilter } from '../inbox/inbox-rows';

export interface Conversation {
  key: string;
  latest: Message;
  /** senders, most recent first */
  senders: number[];
}

export function groupConversations(messages: readonly Message[]): Conversation[] {
  const byKey = new Map<string, Conversation>();
  // Newest first, so each conversation's senders come most recent first.
  const newestFirst = [...messages].sort((a, b) => b.id - a.id);
  for (const message of newestFirst) {
    const key = conversationKey(message);
    const existing = byKey.get(key);
    if (!existing) byKey.set(key, { key, latest: message, senders: [message.sender_id] });
    else if (!existing.senders.includes(message.sender_id))
      existing.senders.push(message.sender_id);
  }
  return [...byKey.values()];
}

export interface RecentFilters {
  text: string;
  unreadOnly: boolean;
  includeMuted: boolean;
  participated: boolean;
}

export interface RecentFilterContext {
  ownUserId: number;
  /** "general lunch" or "Iago, Othello": what the text filter searches, besides senders */
  name(conversation: Conversation): string;
  senderName(userId: number): string;
  unreadCount(conversation: Conversation): number;
  /** a muted channel or topic, or a one-on-one conversation with a muted user */
  isMuted(conversation: Conversation): boolean;
}

export function filterConversations(
  conversations: readonly Conversation[],
  filters: RecentFilters,
  context: RecentFilterContext,
): Conversation[] {
  return conversations.filter((conversation) => {
    if (!filters.includeMuted && context.isMuted(conversation)) return false;
    if (filters.unreadOnly && context.unreadCount(conversation) === 0) return false;
    if (filters.participated && !conversation.senders.includes(context.ownUserId)) return false;
    if (!filters.text.trim()) return true;
    const people = conversation.senders.map(context.senderName).join(' ');
    return matchesFilter(`${context.name(conversation)} ${people}`, filters.text);
  });
}
