import type { Message } from '../api/model';
import { dmParticipants, sameTopic, type Narrow } from './narrow';

const MENTION_FLAGS = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

/** Participants of a DM message, in the canonical form DM narrows use. */
export function dmMessageParticipants(message: Message, ownUserId: number): number[] | null {
  if (message.type !== 'private') return null;
  return dmParticipants(
    message.display_recipient.map((user) => user.id),
    ownUserId,
  );
}

/**
 * Whether a message belongs in a narrow, judged locally. Search narrows answer false: only the
 * server can match full-text search, so live messages are not added to search results.
 */
export function containsMessage(narrow: Narrow, message: Message, ownUserId: number): boolean {
  switch (narrow.kind) {
    case 'feed':
      return true;
    case 'stream':
      return message.type === 'stream' && message.stream_id === narrow.streamId;
    case 'topic':
      return (
        message.type === 'stream' &&
        message.stream_id === narrow.streamId &&
        sameTopic(message.subject, narrow.topic)
      );
    case 'dm': {
      const participants = dmMessageParticipants(message, ownUserId);
      return participants !== null && participants.join(',') === narrow.userIds.join(',');
    }
    case 'starred':
      return message.flags.includes('starred');
    case 'mentions':
      return message.flags.some((flag) => MENTION_FLAGS.includes(flag));
    case 'search':
      return false;
  }
}

export function isMentioned(flags: readonly string[]): boolean {
  return flags.some((flag) => MENTION_FLAGS.includes(flag));
}
