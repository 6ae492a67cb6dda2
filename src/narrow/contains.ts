import type { Message } from '../api/model';
import { dmParticipants, sameTopic, type Narrow, type NarrowTerm } from './narrow';

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
    case 'filter':
      return narrow.terms.every((term) => termMatches(term, message, ownUserId) === true);
  }
}

/** Upstream's RESOLVED_TOPIC_PREFIX. */
const RESOLVED_PREFIX = '✔ ';

/**
 * Whether one filter term matches, or undefined when only the server can tell (a search, the
 * content a message has, a person named by an email this client does not resolve). A filter with
 * such a term contains no live message: the conservative answer, as for search narrows.
 */
export function termMatches(
  term: NarrowTerm,
  message: Message,
  ownUserId: number,
): boolean | undefined {
  const positive = positiveTermMatches(term, message, ownUserId);
  return positive === undefined ? undefined : positive !== term.negated;
}

function positiveTermMatches(
  { operator, operand }: NarrowTerm,
  message: Message,
  ownUserId: number,
): boolean | undefined {
  const id = /^\d+$/.test(operand) ? Number(operand) : undefined;
  switch (operator) {
    case 'channel':
      return id === undefined ? undefined : message.type === 'stream' && message.stream_id === id;
    case 'topic':
      return message.type === 'stream' && sameTopic(message.subject, operand);
    case 'sender':
      return id === undefined ? undefined : message.sender_id === id;
    case 'dm': {
      if (!/^\d+(,\d+)*$/.test(operand)) return undefined;
      const wanted = dmParticipants(operand.split(',').map(Number), ownUserId).join(',');
      return dmMessageParticipants(message, ownUserId)?.join(',') === wanted;
    }
    case 'dm-including':
      return id === undefined
        ? undefined
        : message.type === 'private' && message.display_recipient.some((u) => u.id === id);
    case 'is':
      return isMatches(operand, message);
    case 'id':
      return id === undefined ? undefined : message.id === id;
    case 'has':
    case 'search':
      return undefined;
  }
}

function isMatches(operand: string, message: Message): boolean | undefined {
  switch (operand) {
    case 'starred':
      return message.flags.includes('starred');
    case 'mentioned':
      return isMentioned(message.flags);
    case 'alerted':
      return message.flags.includes('has_alert_word');
    case 'unread':
      return !message.flags.includes('read');
    case 'dm':
    case 'private':
      return message.type === 'private';
    case 'resolved':
      return message.type === 'stream' && message.subject.startsWith(RESOLVED_PREFIX);
    default:
      return undefined;
  }
}

/**
 * Whether the server alone decides what the narrow holds (searches, content, followed topics):
 * its lists keep what the server returned when messages are edited or moved.
 */
export function judgedByServer(narrow: Narrow): boolean {
  if (narrow.kind === 'search') return true;
  if (narrow.kind !== 'filter') return false;
  const probe = narrow.terms.some((term) => term.operator === 'search' || term.operator === 'has');
  return probe || narrow.terms.some((t) => t.operator === 'is' && t.operand === 'followed');
}

export function isMentioned(flags: readonly string[]): boolean {
  return flags.some((flag) => MENTION_FLAGS.includes(flag));
}
