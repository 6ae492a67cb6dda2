/** Bindings for messages and their flags. */
import type { ApiConnection } from '../connection';
import type { Anchor, ApiNarrow, ChangeableFlag, GetMessagesResponse } from '../model';

export interface GetMessagesOptions {
  anchor: Anchor;
  num_before: number;
  num_after: number;
  narrow: ApiNarrow;
  include_anchor?: boolean;
  apply_markdown?: boolean;
  client_gravatar?: boolean;
}

/** GET /messages */
export function getMessages(
  connection: ApiConnection,
  options: GetMessagesOptions,
  signal?: AbortSignal,
) {
  return connection.request<GetMessagesResponse>(
    'GET',
    '/messages',
    { apply_markdown: true, client_gravatar: false, ...options },
    { signal },
  );
}

export type SendMessageOptions = (
  | { type: 'stream'; to: number | string; topic: string }
  | { type: 'direct'; to: number[] | string[] }
) & {
  content: string;
  /** with local_id, makes the message event to this queue carry local_id back (local echo) */
  queue_id?: string;
  local_id?: string;
};

/** POST /messages */
export function sendMessage(connection: ApiConnection, options: SendMessageOptions) {
  return connection.request<{ id: number; automatic_new_visibility_policy?: number }>(
    'POST',
    '/messages',
    options,
  );
}

/** POST /messages/flags */
export function updateMessageFlags(
  connection: ApiConnection,
  options: { messages: number[]; op: 'add' | 'remove'; flag: ChangeableFlag },
) {
  return connection.request<{ messages: number[] }>('POST', '/messages/flags', options);
}

export interface FlagsForNarrowResponse {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
}

/** POST /messages/flags/narrow */
export function updateMessageFlagsForNarrow(
  connection: ApiConnection,
  options: {
    anchor: Anchor;
    num_before: number;
    num_after: number;
    include_anchor?: boolean;
    narrow: ApiNarrow;
    op: 'add' | 'remove';
    flag: ChangeableFlag;
  },
) {
  return connection.request<FlagsForNarrowResponse>('POST', '/messages/flags/narrow', options);
}

/** POST /mark_all_as_read */
export function markAllAsRead(connection: ApiConnection) {
  return connection.request<{ complete?: boolean }>('POST', '/mark_all_as_read');
}

/** POST /mark_stream_as_read */
export function markStreamAsRead(connection: ApiConnection, options: { stream_id: number }) {
  return connection.request<object>('POST', '/mark_stream_as_read', options);
}

/** POST /mark_topic_as_read (deprecated upstream in favour of the narrow endpoint, still served) */
export function markTopicAsRead(
  connection: ApiConnection,
  options: { stream_id: number; topic_name: string },
) {
  return connection.request<object>('POST', '/mark_topic_as_read', options);
}

/** PATCH /messages/{message_id} */
export function updateMessage(
  connection: ApiConnection,
  messageId: number,
  options: {
    content?: string;
    topic?: string;
    stream_id?: number;
    propagate_mode?: 'change_one' | 'change_later' | 'change_all';
    send_notification_to_old_thread?: boolean;
    send_notification_to_new_thread?: boolean;
  },
) {
  return connection.request<object>('PATCH', `/messages/${messageId}`, options);
}

/** DELETE /messages/{message_id} */
export function deleteMessage(connection: ApiConnection, messageId: number) {
  return connection.request<object>('DELETE', `/messages/${messageId}`);
}

export type TypingOptions =
  | { op: 'start' | 'stop'; type: 'direct'; to: number[] }
  | { op: 'start' | 'stop'; type: 'stream'; stream_id: number; topic: string };

/** POST /typing */
export function setTypingStatus(connection: ApiConnection, options: TypingOptions) {
  return connection.request<object>('POST', '/typing', options);
}
