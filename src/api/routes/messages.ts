/**
 * Bindings for the API documentation's "Messages" section: messages, their flags, reactions,
 * history and read receipts, Markdown rendering, and uploaded files.
 */
import type { ApiConnection, UploadOptions } from '../connection';
import type { Anchor, ApiNarrow, ChangeableFlag, GetMessagesResponse, Message } from '../model';
import type { MessageHistoryResponse, ReadReceiptsResponse } from '../model/message-history';

export type SendMessageOptions = (
  | { type: 'stream'; to: number | string; topic: string }
  | { type: 'direct'; to: number[] | string[] }
) & {
  content: string;
  /** with local_id, makes the message event to this queue carry local_id back (local echo) */
  queue_id?: string;
  local_id?: string;
};

/** POST /messages: https://zulip.com/api/send-message */
export function sendMessage(connection: ApiConnection, options: SendMessageOptions) {
  return connection.request<{ id: number; automatic_new_visibility_policy?: number }>(
    'POST',
    '/messages',
    options,
  );
}

/**
 * POST /user_uploads: https://zulip.com/api/upload-file
 * The file's server path (`/user_uploads/...`) comes back in `url` (and `uri`).
 */
export function uploadFile(
  connection: ApiConnection,
  file: Blob,
  filename: string,
  options: UploadOptions = {},
) {
  return connection.upload<{ url: string; uri?: string; filename?: string }>(
    '/user_uploads',
    file,
    filename,
    options,
  );
}

/**
 * GET /user_uploads/{realm_id_str}/{filename}: https://zulip.com/api/get-file-temporary-url
 * A short-lived URL that needs no credentials, for <img> and for opening a file in a new tab.
 */
export function getFileTemporaryUrl(connection: ApiConnection, uploadPath: string) {
  return connection.request<{ url: string }>('GET', uploadPath);
}

/** PATCH /messages/{message_id}: https://zulip.com/api/update-message */
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

/** DELETE /messages/{message_id}: https://zulip.com/api/delete-message */
export function deleteMessage(connection: ApiConnection, messageId: number) {
  return connection.request<object>('DELETE', `/messages/${messageId}`);
}

export interface GetMessagesOptions {
  anchor: Anchor;
  num_before: number;
  num_after: number;
  narrow: ApiNarrow;
  include_anchor?: boolean;
  apply_markdown?: boolean;
  client_gravatar?: boolean;
}

/** GET /messages: https://zulip.com/api/get-messages */
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

/**
 * GET /messages/{message_id}: https://zulip.com/api/get-message
 * Asked without Markdown, so that `raw_content` holds the message's source.
 */
export function getMessage(connection: ApiConnection, messageId: number) {
  return connection.request<{ raw_content: string; message: Message }>(
    'GET',
    `/messages/${messageId}`,
    { apply_markdown: false },
  );
}

export interface ReactionRef {
  emoji_name: string;
  emoji_code?: string;
  reaction_type?: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
}

/** POST /messages/{message_id}/reactions: https://zulip.com/api/add-reaction */
export function addReaction(connection: ApiConnection, messageId: number, reaction: ReactionRef) {
  return connection.request<object>('POST', `/messages/${messageId}/reactions`, { ...reaction });
}

/** DELETE /messages/{message_id}/reactions: https://zulip.com/api/remove-reaction */
export function removeReaction(
  connection: ApiConnection,
  messageId: number,
  reaction: ReactionRef,
) {
  return connection.request<object>('DELETE', `/messages/${messageId}/reactions`, { ...reaction });
}

/**
 * POST /submessage (no documentation page): one event for a message's widget (a vote, a new
 * task...), `content` being the event as JSON; everyone who can read the message gets it back
 * as a `submessage` event.
 */
export function sendSubmessage(
  connection: ApiConnection,
  options: { message_id: number; msg_type: 'widget'; content: string },
) {
  return connection.request<object>('POST', '/submessage', options);
}

/** POST /messages/render: https://zulip.com/api/render-message */
export function renderMessage(connection: ApiConnection, options: { content: string }) {
  return connection.request<{ rendered: string }>('POST', '/messages/render', { ...options });
}

/** GET /messages/{message_id}/history: https://zulip.com/api/get-message-history */
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

/** GET /messages/{message_id}/read_receipts: https://zulip.com/api/get-read-receipts */
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

/** POST /messages/flags: https://zulip.com/api/update-message-flags */
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

/** POST /messages/flags/narrow: https://zulip.com/api/update-message-flags-for-narrow */
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

/** POST /mark_all_as_read: https://zulip.com/api/mark-all-as-read */
export function markAllAsRead(connection: ApiConnection) {
  return connection.request<{ complete?: boolean }>('POST', '/mark_all_as_read');
}

/** POST /mark_stream_as_read: https://zulip.com/api/mark-stream-as-read */
export function markStreamAsRead(connection: ApiConnection, options: { stream_id: number }) {
  return connection.request<object>('POST', '/mark_stream_as_read', options);
}

/**
 * POST /mark_topic_as_read: https://zulip.com/api/mark-topic-as-read
 * Deprecated upstream in favour of the narrow endpoint, still served.
 */
export function markTopicAsRead(
  connection: ApiConnection,
  options: { stream_id: number; topic_name: string },
) {
  return connection.request<object>('POST', '/mark_topic_as_read', options);
}
