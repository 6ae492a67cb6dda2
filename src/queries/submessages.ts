/**
 * Acting on a message's widget: each vote, task or title is one submessage. Nothing is written
 * into the caches early: the server's `submessage` event updates every copy of the message, this
 * one included, in the order the server gave the events (a strike shown early and then applied
 * again would turn the task back over). Widgets may show their own pending change meanwhile.
 */
import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { sendSubmessage } from '../api/routes/messages';
import { useSessionCore } from '../model/session-core';

export function useSendWidgetEvent(messageId: number) {
  const { connection } = useSessionCore();
  const mutation = useMutation({
    mutationFn: (event: Readonly<Record<string, unknown>>) =>
      sendSubmessage(connection, {
        message_id: messageId,
        msg_type: 'widget',
        content: JSON.stringify(event),
      }),
  });
  const { mutateAsync } = mutation;
  /**
   * Sends one event; true once the server took it. Each send settles on its own, where
   * `mutate`'s callbacks would run only for the latest of several sends in flight.
   */
  const send = useCallback(
    (event: Readonly<Record<string, unknown>>) =>
      mutateAsync(event).then(
        () => true,
        () => false,
      ),
    [mutateAsync],
  );
  return { send, error: mutation.error, isPending: mutation.isPending };
}
