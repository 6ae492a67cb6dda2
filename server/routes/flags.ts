import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p } from '../http/params.js';
import { badRequest } from '../domain/errors.js';
import {
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  updateFlagsForNarrow,
} from '../actions/mark-read.js';
import { setTypingStatus } from '../actions/typing.js';
import { parseNarrow } from '../lib/narrow.js';
import { parseAnchor } from './messages.js';

export function flagRoutes(app: FastifyInstance, ctx: AppContext) {
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
    {
      method: 'POST',
      path: '/typing',
      params: {
        op: p.oneOf(['start', 'stop'] as const),
        type: p.string().default('direct'),
        to: p.idList().optional(),
        stream_id: p.id().optional(),
        topic: p.string().optional(),
      },
    },
    async ({ realm, user, params }) => {
      if (params.type !== 'direct' && params.type !== 'stream' && params.type !== 'channel')
        throw badRequest(
          params.type === 'private'
            ? "Invalid type: 'private' is no longer supported; use 'direct'"
            : 'Invalid type',
        );
      return setTypingStatus(ctx, realm, user, {
        op: params.op,
        type: params.type === 'direct' ? 'direct' : 'stream',
        to: params.to,
        streamId: params.stream_id,
        topic: params.topic,
      });
    },
  );
}
