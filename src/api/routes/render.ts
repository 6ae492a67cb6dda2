/** Binding for rendering Markdown the way the server renders messages (for previews). */
import type { ApiConnection } from '../connection';

/** POST /messages/render */
export function renderMessage(connection: ApiConnection, options: { content: string }) {
  return connection.request<{ rendered: string }>('POST', '/messages/render', { ...options });
}
