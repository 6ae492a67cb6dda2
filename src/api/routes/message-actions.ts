/** Bindings for acting on one message: its source text and emoji reactions. */
import type { ApiConnection } from '../connection';
import type { Message } from '../model';

/** GET /messages/{message_id}: the message with its Markdown source in `raw_content`. */
export function getSingleMessage(connection: ApiConnection, messageId: number) {
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

/** POST /messages/{message_id}/reactions */
export function addReaction(connection: ApiConnection, messageId: number, reaction: ReactionRef) {
  return connection.request<object>('POST', `/messages/${messageId}/reactions`, { ...reaction });
}

/** DELETE /messages/{message_id}/reactions */
export function removeReaction(
  connection: ApiConnection,
  messageId: number,
  reaction: ReactionRef,
) {
  return connection.request<object>('DELETE', `/messages/${messageId}/reactions`, { ...reaction });
}
