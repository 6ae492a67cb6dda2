/** Where the message being written goes, and who spoke there last (for ordering mentions). */
import type { Message } from '../../api/model';
import type { Narrow } from '../../narrow';

export interface ComposePlace {
  /** the narrow on screen, whose loaded messages tell who spoke recently */
  narrow: Narrow;
  mode: 'stream' | 'direct';
  streamId: number | null;
  topic: string;
  recipients: readonly number[];
}

/** Senders of the latest loaded messages of the conversation being written to, latest first. */
export function recentSenders(messages: readonly Message[], place: ComposePlace): number[] {
  const ids: number[] = [];
  const topic = place.topic.toLowerCase();
  const inConversation = (m: Message) =>
    place.mode === 'stream'
      ? m.type === 'stream' &&
        m.stream_id === place.streamId &&
        (!topic || m.subject.toLowerCase() === topic)
      : m.type === 'private' &&
        // the recipients and, at most, oneself
        m.display_recipient.length <= place.recipients.length + 1 &&
        place.recipients.every((id) => m.display_recipient.some((r) => r.id === id));
  for (let i = messages.length - 1; i >= 0 && ids.length < 50; i--) {
    const m = messages[i];
    if (inConversation(m) && !ids.includes(m.sender_id)) ids.push(m.sender_id);
  }
  return ids;
}
