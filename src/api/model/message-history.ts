/** Wire types of a message's edit history and read receipts. */

/** One version of a message: its state right after an edit (the first entry: as sent). */
export interface MessageSnapshot {
  /** who made this version */
  user_id: number | null;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  /** only when the content changed: the previous version and an HTML diff to it */
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  /** only when the topic changed */
  prev_topic?: string;
  /** only when the channel changed: the channel ids before and after */
  prev_stream?: number;
  stream?: number;
}

export interface MessageHistoryResponse {
  message_history: MessageSnapshot[];
}

export interface ReadReceiptsResponse {
  user_ids: number[];
}
