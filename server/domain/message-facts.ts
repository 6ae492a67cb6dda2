import { FLAG_BITS } from './flags.js';

/**
 * A message as an event queue sees it when it delivers one, and the narrow tests it passes: pure,
 * so that the queues (events/) filter by narrow without knowing how a narrow is read
 * (lib/narrow.ts builds the tests).
 */

/** What an event queue knows of a message it delivers, with the reader's flags at delivery. */
export interface MessageFacts {
  id: number;
  type: 'stream' | 'private';
  streamId: number | null;
  topic: string;
  senderId: number;
  /** a direct message's participants, the reader included */
  dmUserIds: number[];
  renderedContent: string;
  reactionCount: number;
  flags: number;
}

/** The facts of a message event's record (domain/serialize.ts messageRecord) and flag names. */
export function messageFacts(record: Record<string, unknown>, flagNames: string[]): MessageFacts {
  const isStream = record.type === 'stream';
  let flags = 0;
  for (const name of flagNames) flags |= FLAG_BITS[name as keyof typeof FLAG_BITS] ?? 0;
  return {
    id: record.id as number,
    type: isStream ? 'stream' : 'private',
    streamId: isStream ? (record.stream_id as number) : null,
    topic: isStream ? String(record.subject) : '',
    senderId: record.sender_id as number,
    dmUserIds: isStream ? [] : (record.display_recipient as { id: number }[]).map((u) => u.id),
    renderedContent: String(record.rendered_content ?? ''),
    reactionCount: Array.isArray(record.reactions) ? record.reactions.length : 0,
    flags,
  };
}

/** A test of one term on a message being delivered. */
export type MessageTest = (m: MessageFacts) => boolean;

/** A queue's narrow: one test per term, all of which a delivered message must pass. */
export type QueueNarrow = MessageTest[];

export const queueNarrowMatches = (narrow: QueueNarrow, message: MessageFacts) =>
  narrow.every((test) => test(message));
