/** A server-side draft. `id` is set only when the server returns drafts. */
export interface Draft {
  id?: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}
