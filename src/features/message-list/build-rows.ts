/**
 * Turns a run of messages into the rows the feed draws: date separators, recipient bars when the
 * conversation changes, and messages that show their sender only when it changes.
 */
import type { Message } from '../../api/model';
import type { OutboxMessage } from '../../model/outbox';
import { dayKey } from './format';

export interface FeedMessage {
  message: Message;
  /** set for local echoes: the outbox entry behind the message */
  echo?: OutboxMessage;
}

export type FeedRow =
  | { kind: 'date'; key: string; timestamp: number }
  | { kind: 'recipient'; key: string; message: Message }
  | { kind: 'message'; key: string; message: Message; showSender: boolean; echo?: OutboxMessage };

export function conversationKey(message: Message): string {
  if (message.type === 'stream')
    return `stream:${message.stream_id}:${message.subject.toLowerCase()}`;
  return `dm:${message.display_recipient
    .map((u) => u.id)
    .sort((a, b) => a - b)
    .join(',')}`;
}

export function buildRows(items: readonly FeedMessage[]): FeedRow[] {
  const rows: FeedRow[] = [];
  let previous: Message | null = null;
  for (const { message, echo } of items) {
    const key = echo ? `echo:${echo.localId}` : String(message.id);
    const newDay = previous === null || dayKey(previous.timestamp) !== dayKey(message.timestamp);
    const newConversation =
      newDay || previous === null || conversationKey(previous) !== conversationKey(message);
    if (newDay) rows.push({ kind: 'date', key: `date:${key}`, timestamp: message.timestamp });
    if (newConversation) rows.push({ kind: 'recipient', key: `recipient:${key}`, message });
    const showSender = newConversation || previous?.sender_id !== message.sender_id;
    rows.push({ kind: 'message', key, message, showSender, echo });
    previous = message;
  }
  return rows;
}
