/** Bindings for messages scheduled for later delivery. */
import type { ApiConnection } from '../connection';
import type { ScheduledMessage } from '../model';

export type ScheduledMessageRecipient =
  { type: 'stream'; to: number; topic: string } | { type: 'direct'; to: number[] };

/** GET /scheduled_messages */
export function getScheduledMessages(connection: ApiConnection) {
  return connection.request<{ scheduled_messages: ScheduledMessage[] }>(
    'GET',
    '/scheduled_messages',
  );
}

/** POST /scheduled_messages */
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

/** PATCH /scheduled_messages/{scheduled_message_id} */
export function editScheduledMessage(
  connection: ApiConnection,
  scheduledMessageId: number,
  options: { content?: string; topic?: string; scheduled_delivery_timestamp?: number },
) {
  return connection.request<object>('PATCH', `/scheduled_messages/${scheduledMessageId}`, options);
}

/** DELETE /scheduled_messages/{scheduled_message_id} */
export function deleteScheduledMessage(connection: ApiConnection, scheduledMessageId: number) {
  return connection.request<object>('DELETE', `/scheduled_messages/${scheduledMessageId}`);
}
