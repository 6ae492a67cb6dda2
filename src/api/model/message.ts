/** Wire types for messages, as GET /messages and message events carry them. */

export type MessageFlag =
  | 'read'
  | 'starred'
  | 'collapsed'
  | 'mentioned'
  | 'wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'topic_wildcard_mentioned'
  | 'has_alert_word'
  | 'historical';

/** The flags a user may add or remove through POST /messages/flags. */
export type ChangeableFlag = 'read' | 'starred' | 'collapsed';

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  user_id: number;
}

/**
 * Data attached to a message after it was sent: today only widgets (polls, to-do lists, bots'
 * forms). The first `widget` submessage describes the widget, later ones are its events.
 */
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  /** `widget` for every submessage the reference server creates */
  msg_type: string;
  /** a JSON document, as a string */
  content: string;
}

/**
 * One edit or move of a message, as its `edit_history` lists them (newest first). Only the fields
 * of what changed are present: content, topic, channel, or several of them.
 */
export interface EditHistoryEntry {
  /** who made the change; null for a change the server made itself */
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  /** channel ids before and after */
  prev_stream?: number;
  stream?: number;
}

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
}

interface MessageBase {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  /** null when the avatar comes from a generated-avatar service and client_gravatar is on */
  avatar_url: string | null;
  recipient_id: number;
  timestamp: number;
  /** HTML when the request or queue asked for apply_markdown, Markdown otherwise */
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
  /** the topic; always the empty string for direct messages */
  subject: string;
  flags: MessageFlag[];
  reactions: Reaction[];
  /** oldest first */
  submessages: Submessage[];
  /** the content starts with `/me `: shown as "<sender> <rest of the line>" */
  is_me_message: boolean;
  client?: string;
  /** when the message was last edited or moved */
  last_edit_timestamp?: number;
  /**
   * Newest first; only on a message ever edited or moved, and only when the organization lets its
   * members see edit history (realm_allow_edit_history).
   */
  edit_history?: EditHistoryEntry[];
  /** search results only: `content` as HTML with `<span class="highlight">` around the matches */
  match_content?: string;
  /** search results only: the escaped topic with its matches highlighted */
  match_subject?: string;
}

export interface StreamMessage extends MessageBase {
  type: 'stream';
  stream_id: number;
  /** the stream's name */
  display_recipient: string;
}

export interface DirectMessage extends MessageBase {
  type: 'private';
  /** every participant, the sender included */
  display_recipient: DisplayRecipientUser[];
}

export type Message = StreamMessage | DirectMessage;

/** One narrow term as the API takes it: `{operator: 'channel', operand: 5}`. */
export interface ApiNarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

export type ApiNarrow = ApiNarrowTerm[];

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export interface GetMessagesResponse {
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited: boolean;
  messages: Message[];
}
