import type { FastifyInstance, FastifyReply } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { openEventStream, wantsEventStream } from '../http/event-stream.js';
import type { VisitorStreams } from '../events/visitor-streams.js';
import { checkVisitorsMayFollow, tooManyVisitors } from '../lib/web-public-events.js';

/**
 * A Parley extension (`web_public_events`): the web-public channels' events, live, for visitors,
 * who read them without an account and get no event queue. Public by design, like the channels
 * it follows: credentials are neither needed nor looked at, and what flows is decided in
 * lib/web-public-events.ts. Asked for `text/event-stream` (EventSource does), it answers a stream
 * of Server-Sent Events; otherwise it answers at once whether one would open, as JSON.
 */
export async function webPublicEventRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    { method: 'GET', path: '/parley/web_public_events', auth: 'none', params: {} },
    async ({ realm, raw, reply }) => {
      const visitors = ctx.config.webPublicEvents ? ctx.visitors : undefined;
      checkVisitorsMayFollow(!!visitors, realm);
      if (!visitors!.hasRoom) throw tooManyVisitors();
      if (!wantsEventStream(raw)) return { heartbeat_seconds: visitors!.heartbeatSeconds };
      await stream(visitors!, realm.id, reply);
    },
  );
}

/** Streams to this client until it goes away or the stream is ended (the server stopping). */
async function stream(visitors: VisitorStreams, realmId: number, reply: FastifyReply) {
  let gone = false;
  let leave: (() => void) | null = null;
  const sink = openEventStream(reply, () => {
    gone = true;
    leave?.();
  });
  try {
    leave = await visitors.connect(realmId, sink);
  } catch {
    // The organization's channels could not be read: the client tries again later.
    sink.end();
    return;
  }
  if (!leave) sink.end();
  else if (gone) leave();
}
