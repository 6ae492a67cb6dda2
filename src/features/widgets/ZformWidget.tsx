/**
 * A bot's form: its heading and one button per choice. Pressing a choice sends the choice's reply
 * as an ordinary message to the same conversation, as the reference web app does
 * (transmit.reply_message): in a channel it mentions the bot, which hears only mentions there.
 */
import { useId } from 'react';
import type { Message, User } from '../../api/model';
import type { OutboxDestination } from '../../model/outbox';
import { sendFromCompose } from '../../model/outbox-sender';
import { useSessionCore } from '../../model/session-core';
import { dmMessageParticipants } from '../../narrow';
import type { Zform, ZformChoice } from './message-widget';

/** `@**Name**`, with the id only when someone else has the same name (the reference's syntax). */
export function mentionSyntax(
  name: string,
  userId: number,
  users: Readonly<Record<number, User>>,
): string {
  const shared = Object.values(users).some((u) => u.full_name === name && u.user_id !== userId);
  return shared ? `@**${name}|${userId}**` : `@**${name}**`;
}

/** Where a choice's reply goes, and what it says. */
export function zformReply(
  message: Message,
  choice: ZformChoice,
  ownUserId: number,
  users: Readonly<Record<number, User>>,
): { destination: OutboxDestination; content: string } {
  if (message.type === 'stream') {
    const sender = users[message.sender_id]?.full_name ?? message.sender_full_name;
    return {
      destination: { type: 'stream', streamId: message.stream_id, topic: message.subject },
      content: `${mentionSyntax(sender, message.sender_id, users)} ${choice.reply}`,
    };
  }
  const userIds = dmMessageParticipants(message, ownUserId) ?? [ownUserId];
  return { destination: { type: 'direct', userIds }, content: choice.reply };
}

interface ZformWidgetProps {
  message: Message;
  form: Zform;
  ownUserId: number;
  users: Readonly<Record<number, User>>;
  readOnly: boolean;
}

export function ZformWidget({ message, form, ownUserId, users, readOnly }: ZformWidgetProps) {
  const session = useSessionCore();
  const headingId = useId();
  const choose = (choice: ZformChoice) => {
    const { destination, content } = zformReply(message, choice, ownUserId, users);
    sendFromCompose(session, destination, content);
  };
  return (
    <div className="widget widget-zform" role="group" aria-labelledby={headingId}>
      <div className="widget-header">
        <span id={headingId} className="widget-title">
          {form.heading}
        </span>
      </div>
      <ul className="zform-choices">
        {form.choices.map((choice, index) => (
          <li key={index} className="zform-choice">
            <button
              type="button"
              className="button button-small"
              aria-describedby={choice.longName ? `${headingId}-${index}` : undefined}
              disabled={readOnly}
              onClick={() => choose(choice)}
            >
              {choice.shortName}
            </button>
            {choice.longName && (
              <span id={`${headingId}-${index}`} className="zform-choice-text">
                {choice.longName}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
