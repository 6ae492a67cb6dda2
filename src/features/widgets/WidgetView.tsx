/** A message's widget, drawn in place of its content as the reference web app draws it. */
import { useMemo } from 'react';
import type { Message } from '../../api/model';
import { useUsersById } from '../../model/hooks';
import { messageWidget, type MessageWidget } from './message-widget';
import { PollWidget } from './PollWidget';
import { TodoWidget } from './TodoWidget';
import { ZformWidget } from './ZformWidget';

/** The message's widget folded from its submessages; null for an ordinary message. */
export function useMessageWidget(message: Message, ownUserId: number): MessageWidget | null {
  return useMemo(() => messageWidget(message, ownUserId), [message, ownUserId]);
}

export function WidgetView({
  message,
  widget,
  ownUserId,
  readOnly,
}: {
  message: Message;
  widget: MessageWidget;
  ownUserId: number;
  /** a visitor without an account sees the widget but cannot act on it */
  readOnly: boolean;
}) {
  const users = useUsersById();
  const isAuthor = message.sender_id === ownUserId;
  switch (widget.type) {
    case 'poll':
      return (
        <PollWidget
          messageId={message.id}
          poll={widget.poll}
          ownUserId={ownUserId}
          isAuthor={isAuthor}
          users={users}
          readOnly={readOnly}
        />
      );
    case 'todo':
      return (
        <TodoWidget
          messageId={message.id}
          todo={widget.todo}
          isAuthor={isAuthor}
          readOnly={readOnly}
        />
      );
    case 'zform':
      return (
        <ZformWidget
          message={message}
          form={widget.form}
          ownUserId={ownUserId}
          users={users}
          readOnly={readOnly}
        />
      );
  }
}
