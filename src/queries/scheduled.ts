/**
 * What the user does to scheduled messages; the scheduled_messages events update the list, so
 * nothing here is fetched or cached.
 */
import { useMutation } from '@tanstack/react-query';
import type { ScheduledMessage } from '../api/model';
import { sendMessage } from '../api/routes/messages';
import {
  createScheduledMessage,
  deleteScheduledMessage,
  updateScheduledMessage,
  type ScheduledMessageRecipient,
} from '../api/routes/scheduled-messages';
import { useSessionCore } from '../model/session-core';

export function useScheduleMessage() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (
      options: ScheduledMessageRecipient & {
        content: string;
        scheduled_delivery_timestamp: number;
      },
    ) => createScheduledMessage(connection, options),
  });
}

export function useEditScheduledMessage() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({
      id,
      ...changes
    }: {
      id: number;
      content?: string;
      topic?: string;
      scheduled_delivery_timestamp?: number;
    }) => updateScheduledMessage(connection, id, changes),
  });
}

export function useCancelScheduledMessage() {
  const { connection } = useSessionCore();
  return useMutation({ mutationFn: (id: number) => deleteScheduledMessage(connection, id) });
}

/** Sends a scheduled message at once, then removes it from the schedule. */
export function useSendScheduledNow() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: async (message: ScheduledMessage) => {
      await sendMessage(
        connection,
        message.type === 'stream'
          ? {
              type: 'stream',
              to: message.to as number,
              topic: message.topic ?? '',
              content: message.content,
            }
          : {
              type: 'direct',
              to: Array.isArray(message.to) ? message.to : [message.to],
              content: message.content,
            },
      );
      await deleteScheduledMessage(connection, message.scheduled_message_id);
    },
  });
}
