/** Where a message from the compose box goes: prefilled from the narrow, checked before sending. */
import type { Subscription } from '../../api/model';
import { i18n } from '../../i18n';
import type { OutboxDestination } from '../../model/outbox';
import { dmParticipants, type Narrow } from '../../narrow';
import type { TypingTarget } from './use-typing-notifier';

export type ComposeMode = 'stream' | 'direct';

export interface ComposeInitial {
  mode: ComposeMode;
  streamId: number | null;
  topic: string;
  recipients: number[];
}

export function initialFor(narrow: Narrow, ownUserId: number): ComposeInitial {
  switch (narrow.kind) {
    case 'stream':
      return { mode: 'stream', streamId: narrow.streamId, topic: '', recipients: [] };
    case 'topic':
      return { mode: 'stream', streamId: narrow.streamId, topic: narrow.topic, recipients: [] };
    case 'dm': {
      const others = narrow.userIds.filter((id) => id !== ownUserId);
      // A self DM keeps the own id: it is the only recipient.
      return {
        mode: 'direct',
        streamId: null,
        topic: '',
        recipients: others.length ? others : narrow.userIds,
      };
    }
    default:
      return { mode: 'stream', streamId: null, topic: '', recipients: [] };
  }
}

export interface ComposeFields {
  mode: ComposeMode;
  /** the subscription whose name the channel field holds, if any */
  stream: Subscription | null;
  streamName: string;
  topic: string;
  recipients: number[];
  mandatoryTopics: boolean;
}

/** The destination, or what the user must fix first. */
export function resolveDestination(fields: ComposeFields): OutboxDestination | string {
  const { mode, stream, streamName, topic, recipients, mandatoryTopics } = fields;
  if (mode === 'direct') {
    return recipients.length
      ? { type: 'direct', userIds: dmParticipants(recipients) }
      : i18n.t('compose:chooseRecipients');
  }
  if (!stream) {
    const typed = streamName.trim();
    return typed
      ? i18n.t('compose:notSubscribed', { name: typed })
      : i18n.t('compose:chooseChannel');
  }
  if (mandatoryTopics && !topic.trim()) return i18n.t('compose:topicRequired');
  return { type: 'stream', streamId: stream.stream_id, topic: topic.trim() };
}

export function typingTargetFor(
  mode: ComposeMode,
  stream: Subscription | null,
  topic: string,
  recipients: number[],
): TypingTarget {
  if (mode === 'direct') return recipients.length ? { type: 'direct', to: recipients } : null;
  return stream && topic.trim()
    ? { type: 'stream', stream_id: stream.stream_id, topic: topic.trim() }
    : null;
}

export function placeholderFor(
  mode: ComposeMode,
  streamName: string | undefined,
  topic: string,
  names: string,
): string {
  if (mode === 'direct')
    return names ? i18n.t('compose:messageTo', { names }) : i18n.t('compose:writeDirect');
  if (!streamName) return i18n.t('compose:writeMessage');
  return topic.trim()
    ? i18n.t('compose:messageTopic', { channel: streamName, topic: topic.trim() })
    : i18n.t('compose:messageChannel', { channel: streamName });
}
