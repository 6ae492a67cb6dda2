import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p } from '../http/params.js';
import { matchesNarrow, renderPreview, streamTopics } from '../actions/topics.js';
import { parseNarrow } from '../lib/narrow.js';

export function topicRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/me/:stream_id/topics',
      auth: 'optional',
      pathInts: ['stream_id'],
      params: { allow_empty_topic_name: p.bool().default(false) },
    },
    async ({ realm, user, pathInt }) => streamTopics(ctx, realm, user, pathInt('stream_id')),
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
