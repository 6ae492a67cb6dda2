/** A message's first line: who sent it and when, and what a `/me` message says they do. */
import { useMemo } from 'react';
import type { Message } from '../../api/model';
import { useOwnUserGroupIds, useUserSetting } from '../../model/hooks';
import { PersonTrigger } from '../people/PersonTrigger';
import { onMessageContentClick } from './content-clicks';
import { splitMeMessage } from './me-message';
import { MessageTime } from './MessageTime';
import { sanitizeMessageHtml } from './sanitize';

/**
 * The message's content as safe HTML. A `/me` message's first line becomes `actionHtml`, shown
 * beside the sender's name (in a run of their messages too, as the reference shows it), and
 * `html` holds the rest; other messages have no action line, nor has a `/me` message while
 * hidden, edited or collapsed (its content shows as it is then).
 */
export function useMessageHtml(
  {
    message,
    ownUserId,
    twentyFourHour,
    editing,
  }: { message: Message; ownUserId: number; twentyFourHour: boolean; editing: boolean },
  hidden: boolean,
): { html: string; actionHtml: string | null } {
  const reader = {
    groupIds: useOwnUserGroupIds(),
    twentyFourHour,
    emojiset: useUserSetting('emojiset'),
  };
  const { is_me_message: isMe, content } = message;
  const parts = useMemo(() => (isMe ? splitMeMessage(content) : null), [isMe, content]);
  const me = hidden || editing || message.flags.includes('collapsed') ? null : parts;
  return {
    html: sanitizeMessageHtml(me ? me.rest : content, ownUserId, reader),
    actionHtml: me ? sanitizeMessageHtml(me.action, ownUserId, reader) : null,
  };
}

/** The sender's name and the time; for a `/me` message, its action between them. */
export function MessageHeader({
  message,
  senderName,
  actionHtml,
  time,
  permalink,
}: {
  message: Message;
  senderName: string;
  actionHtml: string | null;
  time: string;
  permalink: string | null;
}) {
  return (
    <div className="message-header">
      <PersonTrigger userId={message.sender_id} className="message-sender">
        {senderName}
      </PersonTrigger>
      {actionHtml !== null && (
        <span
          className="message-me-action rendered-markdown"
          dangerouslySetInnerHTML={{ __html: actionHtml }}
          onClick={(event) => onMessageContentClick(event, message.id)}
        />
      )}
      <MessageTime timestamp={message.timestamp} time={time} permalink={permalink} />
    </div>
  );
}
