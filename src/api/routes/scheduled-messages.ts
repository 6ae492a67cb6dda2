/** Bindings for the API documentation's "Scheduled messages" section. */
import type { ApiConnection } from '../connection';
import type { ScheduledMessage } from '../model';

export type ScheduledMessageRecipient =
  { type: 'stream'; to: number; topic: string } | { type: 'direct'; to: number[] };

/** GET /scheduled_messages: https://zulip.com/api/get-scheduled-messages */
export function getScheduledMessages(connection: ApiConnection) {
  return connection.request<{ scheduled_messages: ScheduledMessage[] }>(
    'GET',
    '/scheduled_messages',
  );
}

/** POST /scheduled_messages: https://zulip.com/api/create-scheduled-message */
export function createScheduledMessage(
  connection: ApiConnection,
  options: ScheduledMessageRecipient & { content: string; scheduled_delivery_timestamp: number },
) {
  return connection.request<{ scheduled_message_id: number }>(
    'POST',
    '/scheduled_messages',
    options,
  );
}

/** PATCH /scheduled_messages/{scheduled_message_id}: https://zulip.com/api/update-scheduled-message */
export function updateScheduledMessage(
  connection: ApiConnection,
  scheduledMessageId: number,
  options: { content?: string; topic?: string; scheduled_delivery_timestamp?: number },
) {
  return connection.request<object>('PATCH', `/scheduled_messages/${scheduledMessageId}`, options);
}

/** DELETE /scheduled_messages/{scheduled_message_id}: https://zulip.com/api/delete-scheduled-message */
export function deleteScheduledMessage(connection: ApiConnection, scheduledMessageId: number) {
  return connection.request<object>('DELETE', `/scheduled_messages/${scheduledMessageId}`);
}
