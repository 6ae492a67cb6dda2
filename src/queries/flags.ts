/**
 * What the user does to read state and stars. Each hook is optimistic: the change shows at once
 * through src/model/flag-changes and is rolled back there if the server refuses.
 */
import { useMutation } from '@tanstack/react-query';
import type { Message } from '../api/model';
import {
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  updateMessageFlags,
} from '../api/routes/messages';
import { changeFlag, markAsReadOptimistically } from '../model/flag-changes';
import { useSessionCore } from '../model/session-core';
import { allUnreadIds } from '../model/unreads';
import type { Narrow } from '../narrow';

/** "Mark all as read": every unread message, in one request. */
export function useMarkAllAsRead() {
  const session = useSessionCore();
  return useMutation({
    mutationFn: () => {
      const unreads = session.state.getState().store?.getState().unreads;
      const ids = unreads ? allUnreadIds(unreads) : [];
      return markAsReadOptimistically(session, ids, () => markAllAsRead(session.connection), {
        all: true,
      });
    },
  });
}

/**
 * "Mark as read" for the conversation on screen: `ids` are its unread messages. A topic or a
 * channel is marked by name on the server, so messages not loaded here are marked too.
 */
export function useMarkNarrowAsRead(narrow: Narrow) {
  const session = useSessionCore();
  return useMutation({
    mutationFn: (ids: readonly number[]) =>
      markAsReadOptimistically(session, ids, () => {
        const { connection } = session;
        if (narrow.kind === 'topic')
          return markTopicAsRead(connection, {
            stream_id: narrow.streamId,
            topic_name: narrow.topic,
          });
        if (narrow.kind === 'stream')
          return markStreamAsRead(connection, { stream_id: narrow.streamId });
        return updateMessageFlags(connection, { messages: [...ids], op: 'add', flag: 'read' });
      }),
  });
}

/** Stars or unstars one message, whichever it is not. */
export function useStarMessage() {
  const session = useSessionCore();
  return useMutation({
    mutationFn: (message: Message) =>
      changeFlag(
        session,
        [message],
        message.flags.includes('starred') ? 'remove' : 'add',
        'starred',
      ),
  });
}
