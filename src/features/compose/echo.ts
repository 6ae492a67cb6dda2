/** Local echoes: outbox entries drawn as messages until the server's copy arrives. */
import type { Message, Stream, User } from '../../api/model';
import type { OutboxMessage } from '../../model/outbox';
import { containsMessage, type Narrow } from '../../narrow';
import { escapeHtml } from '../../components/escape-html';
import type { FeedMessage } from '../message-list/build-rows';

/** Plain paragraphs: the server renders Markdown, the echo only has to be recognisable. */
function echoHtml(content: string): string {
  return content
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function echoToMessage(
  entry: OutboxMessage,
  index: number,
  ownUser: User | undefined,
  usersById: Readonly<Record<number, User>>,
  streams: Readonly<Record<number, Stream>>,
): Message {
  const base = {
    id: -(index + 1),
    sender_id: ownUser?.user_id ?? 0,
    sender_full_name: ownUser?.full_name ?? '',
    sender_email: ownUser?.email ?? '',
    avatar_url: ownUser?.avatar_url ?? null,
    recipient_id: 0,
    timestamp: entry.timestamp,
    content: echoHtml(entry.content),
    content_type: 'text/html' as const,
    flags: ['read' as const],
    reactions: [],
    submessages: [],
    // The server's rule: the echo of "/me waves" reads as the message will.
    is_me_message: /^\/me( |$)/.test(entry.content),
  };
  if (entry.destination.type === 'stream') {
    const { streamId, topic } = entry.destination;
    return {
      ...base,
      type: 'stream',
      stream_id: streamId,
      display_recipient: streams[streamId]?.name ?? '',
      subject: topic,
    };
  }
  const ids = [...new Set([...entry.destination.userIds, base.sender_id])];
  return {
    ...base,
    type: 'private',
    subject: '',
    display_recipient: ids.map((id) => ({
      id,
      email: usersById[id]?.email ?? '',
      full_name: usersById[id]?.full_name ?? '',
    })),
  };
}

/** The outbox entries that belong in a narrow, as feed items. */
export function echoesIn(
  narrow: Narrow,
  outbox: readonly OutboxMessage[],
  ownUserId: number,
  usersById: Readonly<Record<number, User>>,
  streams: Readonly<Record<number, Stream>>,
): FeedMessage[] {
  return outbox
    .map((entry, index) => ({
      message: echoToMessage(entry, index, usersById[ownUserId], usersById, streams),
      echo: entry,
    }))
    .filter(
      ({ message }) =>
        narrow.kind !== 'starred' &&
        narrow.kind !== 'mentions' &&
        containsMessage(narrow, message, ownUserId),
    );
}
