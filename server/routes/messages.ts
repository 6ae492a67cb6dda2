import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p } from '../http/params.js';
import { badRequest, missingParam } from '../domain/errors.js';
import { checkWidgetContent, WidgetError } from '../domain/widgets.js';
import { addSubmessage } from '../actions/submessages.js';
import { clientName, parseAnchor, parseRecipient } from '../http/message-params.js';
import { sendMessage } from '../actions/send-message.js';
import { getMessages, getSingleMessage } from '../lib/get-messages.js';
import { parseNarrow } from '../lib/narrow.js';
import { updateMessageFlags } from '../actions/flags.js';
import { editMessage } from '../actions/edit-message.js';
import { messageHistory } from '../lib/message-history.js';
import { deleteMessage } from '../actions/delete-message.js';
import { addReaction, readReceipts, removeReaction } from '../actions/reactions.js';
import { matchesNarrow, renderPreview } from '../actions/topics.js';
import {
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  updateFlagsForNarrow,
} from '../actions/mark-read.js';

/*
 * The API documentation's "Messages" section: sending, fetching, editing and deleting messages,
 * their edit history, reactions, read receipts, rendering a preview, matching a narrow, and
 * personal flags. Uploading a file, the section's last part, is in uploads.ts.
 */

/** Send, fetch, fetch one. */
function sendAndFetch(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/messages',
      aliases: { subject: 'topic' },
      params: {
        type: p.oneOf(['stream', 'channel', 'direct', 'private'] as const),
        to: p.string(),
        content: p.string(),
        topic: p.string().optional(),
        queue_id: p.string().optional(),
        local_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
        // A bot's form (upstream's widget_content, not in its API documentation).
        widget_content: p.string().optional(),
      },
    },
    async ({ realm, user, params, userAgent }) => {
      const type = params.type === 'stream' || params.type === 'channel' ? 'stream' : 'direct';
      if (params.queue_id !== undefined && params.local_id === undefined)
        throw missingParam('local_id');
      return sendMessage(ctx, realm, user, {
        recipient: parseRecipient(type, params.to, params.topic),
        content: params.content,
        client: clientName(userAgent),
        queueId: params.queue_id,
        localId: params.local_id,
        widgetContent: parseWidgetContent(params.widget_content),
      });
    },
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages',
      auth: 'optional',
      params: {
        anchor: p.raw().default('newest'),
        num_before: p.int({ min: 0 }).default(0),
        num_after: p.int({ min: 0 }).default(0),
        include_anchor: p.bool().default(true),
        narrow: p.json(check.any).default([]),
        client_gravatar: p.bool().default(true),
        apply_markdown: p.bool().default(true),
        use_first_unread_anchor: p.bool().default(false),
      },
    },
    async ({ realm, user, params }) =>
      getMessages(ctx, realm, user, {
        anchor: params.use_first_unread_anchor ? 'first_unread' : parseAnchor(params.anchor),
        numBefore: params.num_before,
        numAfter: params.num_after,
        includeAnchor: params.include_anchor,
        narrow: parseNarrow(params.narrow),
        applyMarkdown: params.apply_markdown,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/:message_id',
      auth: 'optional',
      pathInts: ['message_id'],
      params: {
        apply_markdown: p.bool().default(true),
        allow_empty_topic_name: p.bool().default(false),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      getSingleMessage(ctx, realm, user, pathInt('message_id'), params.apply_markdown),
  );
}

/** Edit or move, delete, edit history. */
function messageEdits(app: FastifyInstance, { ctx }: RoutesOptions) {
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

const reactionParams = {
  emoji_name: p.string(),
  emoji_code: p.string().optional(),
  reaction_type: p.string().optional(),
};
// Removing needs emoji_name or emoji_code; the action names them both when neither comes.
const removalParams = { ...reactionParams, emoji_name: p.string().optional() };

/** Reactions, read receipts, a rendered preview, which messages match a narrow. */
function messageExtras(app: FastifyInstance, { ctx }: RoutesOptions) {
  for (const method of ['POST', 'DELETE'] as const) {
    route(
      app,
      ctx,
      {
        method,
        path: '/messages/:message_id/reactions',
        pathInts: ['message_id'],
        params: method === 'POST' ? reactionParams : removalParams,
      },
      async ({ realm, user, params, pathInt }) => {
        const req = {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        };
        const act = method === 'POST' ? addReaction : removeReaction;
        return act(ctx, realm, user, pathInt('message_id'), req);
      },
    );
  }
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/:message_id/read_receipts',
      pathInts: ['message_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => readReceipts(ctx, realm, user, pathInt('message_id')),
  );
  route(
    app,
    ctx,
    { method: 'POST', path: '/messages/render', params: { content: p.string() } },
    async ({ realm, user, params }) => renderPreview(ctx, realm, user, params.content),
  );
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/matches_narrow',
      params: { msg_ids: p.idList(), narrow: p.json(check.any) },
    },
    async ({ realm, user, params }) =>
      matchesNarrow(ctx, realm, user, params.msg_ids, parseNarrow(params.narrow)),
  );
}

/** Personal flags: by message ids, by narrow, and the "mark as read" shortcuts. */
/** Widgets: a vote, an option, a task or a tick on a poll, a to-do list or a bot's form. */
function widgets(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/submessage',
      params: { message_id: p.id(), msg_type: p.string(), content: p.string() },
    },
    async ({ realm, user, params }) =>
      addSubmessage(ctx, realm, user, {
        messageId: params.message_id,
        msgType: params.msg_type,
        content: params.content,
      }),
  );
}

function messageFlags(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/messages/flags',
      params: { messages: p.idList(), op: p.string(), flag: p.string() },
    },
    async ({ realm, user, params }) => updateMessageFlags(ctx, realm, user, params),
  );
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/messages/flags/narrow',
      params: {
        anchor: p.string(),
        include_anchor: p.bool().default(true),
        num_before: p.int({ min: 0 }),
        num_after: p.int({ min: 0 }),
        narrow: p.json(check.any).default([]),
        op: p.string(),
        flag: p.string(),
      },
    },
    async ({ realm, user, params }) =>
      updateFlagsForNarrow(ctx, realm, user, {
        anchor: parseAnchor(params.anchor),
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: parseNarrow(params.narrow),
        op: params.op,
        flag: params.flag,
      }),
  );
  route(
    app,
    ctx,
    { method: 'POST', path: '/mark_all_as_read', params: {} },
    async ({ realm, user }) => markAllAsRead(ctx, realm, user),
  );
  route(
    app,
    ctx,
    { method: 'POST', path: '/mark_stream_as_read', params: { stream_id: p.id() } },
    async ({ realm, user, params }) => markStreamAsRead(ctx, realm, user, params.stream_id),
  );
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/mark_topic_as_read',
      params: { stream_id: p.id(), topic_name: p.string() },
    },
    async ({ realm, user, params }) =>
      markTopicAsRead(ctx, realm, user, params.stream_id, params.topic_name),
  );
}

export async function messageRoutes(app: FastifyInstance, opts: RoutesOptions) {
  sendAndFetch(app, opts);
  widgets(app, opts);
  messageEdits(app, opts);
  messageExtras(app, opts);
  messageFlags(app, opts);
}

/** upstream check_message's widget_content: JSON, then a form it knows ("Widgets: …" otherwise). */
function parseWidgetContent(text: string | undefined) {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Widgets: API programmer sent invalid JSON content');
  }
  try {
    return checkWidgetContent(value);
  } catch (error) {
    if (error instanceof WidgetError) throw badRequest(`Widgets: ${error.message}`);
    throw error;
  }
}
