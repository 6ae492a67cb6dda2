import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VisitorSink } from '../events/visitor-streams.js';
import { SECURITY_HEADERS } from './static.js';

/**
 * Server-Sent Events (text/event-stream): what a browser's EventSource, or a fetch reading its
 * body, takes as a stream of messages. Each batch of events is one message whose data is a JSON
 * array, as GET /events answers `events`.
 */

/** Whether the request asks for an event stream rather than a JSON answer. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(String(request.headers.accept ?? ''));
}

/**
 * Takes the reply over and opens the stream: the headers go out at once, with those Fastify's
 * hooks would have added (rate limits, security), and nothing is compressed or buffered on the
 * way: `X-Accel-Buffering` tells nginx, `no-transform` any other proxy. `onGone` is called once
 * when the client goes away or the stream is ended.
 */
export function openEventStream(reply: FastifyReply, onGone: () => void): VisitorSink {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    ...SECURITY_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  // Nagle's algorithm would hold a small message back for the next one.
  raw.socket?.setNoDelay(true);
  raw.flushHeaders();
  let gone = false;
  const finish = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  raw.once('close', finish);
  const write = (json: string) => {
    if (!raw.writableEnded && !raw.destroyed) raw.write(`data: ${json}\n\n`);
  };
  return {
    send: write,
    end(json) {
      if (json !== undefined) write(json);
      if (!raw.writableEnded) raw.end();
      finish();
    },
    get backlog() {
      return raw.writableLength;
    },
  };
}
