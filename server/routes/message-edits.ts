import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { editMessage, messageHistory } from '../actions/edit-message.js';
import { deleteMessage } from '../actions/delete-message.js';

export function messageEditRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/messages/:message_id',
      pathInts: ['message_id'],
      aliases: { subject: 'topic' },
      params: {
        content: p.string().optional(),
        topic: p.string().optional(),
        stream_id: p.int().optional(),
        propagate_mode: p
          .oneOf(['change_one', 'change_later', 'change_all'] as const)
          .default('change_one'),
        send_notification_to_old_thread: p.bool().default(false),
        send_notification_to_new_thread: p.bool().default(true),
        prev_content_sha256: p.string().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      editMessage(ctx, realm, user, pathInt('message_id'), {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        notifyOld: params.send_notification_to_old_thread,
        notifyNew: params.send_notification_to_new_thread,
      }),
  );
  route(
    app,
    ctx,
    { method: 'DELETE', path: '/messages/:message_id', pathInts: ['message_id'], params: {} },
    async ({ realm, user, pathInt }) => deleteMessage(ctx, realm, user, pathInt('message_id')),
  );
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/:message_id/history',
      pathInts: ['message_id'],
      params: { allow_empty_topic_name: p.bool().default(false) },
    },
    async ({ realm, user, pathInt }) => messageHistory(ctx, realm, user, pathInt('message_id')),
  );
}
