/** Bindings behind a message's actions menu: its edit history and who has read it. */
import type { ApiConnection } from '../connection';
import type { MessageHistoryResponse, ReadReceiptsResponse } from '../model/message-history';

/** GET /messages/{message_id}/history */
export function getMessageHistory(
  connection: ApiConnection,
  messageId: number,
  signal?: AbortSignal,
) {
  return connection.request<MessageHistoryResponse>(
    'GET',
    `/messages/${messageId}/history`,
    { allow_empty_topic_name: true },
    { signal },
  );
}

/** GET /messages/{message_id}/read_receipts */
export function getReadReceipts(
  connection: ApiConnection,
  messageId: number,
  signal?: AbortSignal,
) {
  return connection.request<ReadReceiptsResponse>(
    'GET',
    `/messages/${messageId}/read_receipts`,
    {},
    { signal },
  );
}
