/** GET /messages/{id}/history: a message's versions, rebuilt from its edit rows. */
import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { htmlDiff } from '../markdown/html-diff.js';
import { accessibleMessage } from './message-access.js';
import { realmSettings } from './realm.js';

export async function messageHistory(ctx: AppContext, realm: Realm, user: User, messageId: number) {
  const row = await accessibleMessage(ctx.db, realm, user, messageId);
  if (!row) throw badRequest('Invalid message(s)');
  if (!realmSettings(realm).allow_edit_history)
    throw badRequest('Message edit history is disabled in this organization');
  const edits = await ctx.db
    .selectFrom('message_edits')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
  // Walk backwards from the current state to rebuild each version.
  let content = row.content;
  let rendered = row.rendered_content;
  let topic = row.topic;
  let streamId = row.stream_id;
  const versions: Record<string, unknown>[] = [];
  for (let i = edits.length - 1; i >= 0; i--) {
    const e = edits[i];
    const v: Record<string, unknown> = {
      user_id: e.user_id,
      timestamp: e.timestamp,
      topic,
      content,
      rendered_content: rendered,
    };
    if (e.prev_content !== null) {
      v.prev_content = e.prev_content;
      v.prev_rendered_content = e.prev_rendered_content;
      v.content_html_diff = htmlDiff(e.prev_rendered_content ?? '', rendered);
      content = e.prev_content;
      rendered = e.prev_rendered_content ?? rendered;
    }
    if (e.prev_topic !== null) {
      v.prev_topic = e.prev_topic;
      topic = e.prev_topic;
    }
    if (e.prev_stream_id !== null) {
      v.prev_stream = e.prev_stream_id;
      v.stream = streamId;
      streamId = e.prev_stream_id;
    }
    versions.unshift(v);
  }
  versions.unshift({
    user_id: row.sender_id,
    timestamp: row.date_sent,
    topic,
    content,
    rendered_content: rendered,
  });
  return { message_history: versions };
}
