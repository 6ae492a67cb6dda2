import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p } from '../http/params.js';
import { deleteQueue, getEvents, registerQueue } from '../register/register.js';

/** The API documentation's "Real-time events" section: event queues and long-polling them. */
export async function realTimeEventRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/register',
      auth: 'optional',
      params: {
        apply_markdown: p.bool().default(false),
        client_gravatar: p.bool().optional(),
        include_subscribers: p.bool().default(false),
        slim_presence: p.bool().default(false),
        event_types: p.stringList().optional(),
        fetch_event_types: p.stringList().optional(),
        all_public_streams: p.bool().default(false),
        narrow: p.json(check.any).default([]),
        client_capabilities: p.json(check.object).default({}),
        queue_lifespan_secs: p.int().optional(),
      },
    },
    async ({ realm, user, params }) => registerQueue(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/events',
      queueAuth: true,
      directAnswer: true,
      params: {
        queue_id: p.string(),
        last_event_id: p.int().optional(),
        dont_block: p.bool().default(false),
      },
    },
    async ({ user, params, gone }) => getEvents(ctx, user, params, gone),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/events', params: { queue_id: p.string() } },
    async ({ user, params }) => deleteQueue(ctx, user, params.queue_id),
  );
}
