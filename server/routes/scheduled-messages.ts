import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import { badRequest } from '../domain/errors.js';
import { decodeLoose } from '../lib/admin-checks.js';
import {
  createScheduledMessage,
  deleteScheduledMessage,
  editScheduledMessage,
  getScheduledMessages,
} from '../actions/scheduled-messages.js';
import { clientName } from '../http/message-params.js';

const TYPES = ['direct', 'private', 'stream', 'channel'] as const;
const messageType = (t: (typeof TYPES)[number]) =>
  t === 'stream' || t === 'channel' ? 'stream' : 'private';

/** `to`: a stream id, or a list of user ids (JSON-encoded; a bare id is accepted too). */
function parseTo(raw: string): number | number[] {
  const v = decodeLoose(raw.trim());
  const isId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  if (isId(v)) return v;
  if (Array.isArray(v) && v.every(isId)) return v;
  throw badRequest('Invalid data type for recipients');
}

/** The API documentation's "Scheduled messages" section. */
export async function scheduledMessageRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(app, ctx, { method: 'GET', path: '/scheduled_messages', params: {} }, async ({ user }) =>
    getScheduledMessages(ctx, user),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/scheduled_messages',
      aliases: { subject: 'topic' },
      params: {
        type: p.oneOf(TYPES),
        to: p.string(),
        content: p.string(),
        topic: p.string().optional(),
        scheduled_delivery_timestamp: p.int(),
        read_by_sender: p.bool().optional(),
      },
    },
    async ({ realm, user, params, userAgent }) =>
      createScheduledMessage(
        ctx,
        realm,
        user,
        {
          type: messageType(params.type),
          to: parseTo(params.to),
          topic: params.topic,
          content: params.content,
        },
        {
          deliverAt: params.scheduled_delivery_timestamp,
          client: clientName(userAgent),
          readBySender: params.read_by_sender,
        },
      ),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/scheduled_messages/:scheduled_message_id',
      pathInts: ['scheduled_message_id'],
      aliases: { subject: 'topic' },
      params: {
        type: p.oneOf(TYPES).optional(),
        to: p.string().optional(),
        content: p.string().optional(),
        topic: p.string().optional(),
        scheduled_delivery_timestamp: p.int().optional(),
      },
    },
    async ({ realm, user, params, pathInt, userAgent }) =>
      editScheduledMessage(ctx, realm, user, pathInt('scheduled_message_id'), {
        type: params.type === undefined ? undefined : messageType(params.type),
        to: params.to === undefined ? undefined : parseTo(params.to),
        topic: params.topic,
        content: params.content,
        deliverAt: params.scheduled_delivery_timestamp,
        client: clientName(userAgent),
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/scheduled_messages/:scheduled_message_id',
      pathInts: ['scheduled_message_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) =>
      deleteScheduledMessage(ctx, realm, user, pathInt('scheduled_message_id')),
  );
}
