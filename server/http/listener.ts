import http from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { FastifyServerFactory } from 'fastify';

/**
 * One port, two protocols: HTTP/1.1 as before, and cleartext HTTP/2 with prior knowledge (h2c,
 * RFC 9113 §3.3), which is what a load balancer speaks to the processes behind it (HAProxy's
 * `proto h2`, deploy/haproxy/parley.cfg). Over HTTP/2 a balancer carries every client's requests
 * on a few connections, so a process holds a long-poll as a stream rather than as a socket of its
 * own: thousands of waiting clients no longer need thousands of descriptors in the process (its
 * open-file limit capped it before), nor a socket's buffers each.
 *
 * Browsers and other clients that come straight to the process still speak HTTP/1.1 to it; an
 * HTTP/2 connection is told apart by its first bytes, the preface "PRI * HTTP/2.0", which is no
 * HTTP/1 request line.
 */

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n');

/** How long a new connection may stay silent before its first bytes (Node's headers timeout). */
const FIRST_BYTES_MS = 60_000;

export interface ListenerLimits {
  /** how long a long-poll waits at most; an HTTP/2 session idle for twice that is closed */
  longPollSeconds: number;
}

/** What Fastify passes the factory: its options, with its defaults filled in. */
interface FactoryOptions {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
}

/** The HTTP/2 settings a process announces: streams enough for every waiting client. */
export const HTTP2_SETTINGS: http2.Settings = {
  // A balancer's connection carries thousands of long-polls; 100 (a common default of proxies)
  // would make it open a connection per hundred clients.
  maxConcurrentStreams: 100_000,
  // Answers are small and many at once (one per parked poll when a message goes out): a window
  // of 1 MiB per stream rather than 64 KiB lets the first bytes of each go out without waiting.
  initialWindowSize: 1 << 20,
};

/** Whether the first bytes of a connection are HTTP/2's preface (as far as they go). */
export function startsHttp2(chunk: Buffer): boolean {
  const n = Math.min(chunk.length, PREFACE.length);
  return n >= 3 && chunk.subarray(0, n).equals(PREFACE.subarray(0, n));
}

/**
 * Fastify's `serverFactory`: an HTTP/1.1 server, set up as Fastify sets up its own, whose
 * connections go to an HTTP/2 server instead when they open with the preface. Both call the same
 * handler; Fastify sees the HTTP/2 requests through Node's compatibility API. Closing the server
 * (Fastify's close, with `forceCloseConnections`) ends the HTTP/2 sessions too.
 */
export function oneListener(limits: ListenerLimits): FastifyServerFactory {
  return (handler, options: FactoryOptions) => {
    const h1 = http.createServer(options.http ?? {}, handler);
    h1.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    h1.requestTimeout = options.requestTimeout ?? 0;
    h1.setTimeout(options.connectionTimeout ?? 0);
    const h2 = http2.createServer(
      // Each session holds a stream per waiting client: its memory bound (10 MB by default)
      // would refuse streams at a few thousand.
      { settings: HTTP2_SETTINGS, maxSessionMemory: 512 },
      handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
    );
    const sessions = new Set<http2.ServerHttp2Session>();
    h2.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
      session.setTimeout(limits.longPollSeconds * 2_000 + 10_000, () => session.close());
      // A balancer's session carries many clients: a larger window for the whole connection
      // too, so that one slow reader does not hold the others' answers back.
      session.once('connect', () => session.setLocalWindowSize(64 << 20));
    });
    const [h1Connection] = h1.listeners('connection') as ((socket: Socket) => void)[];
    if (!h1Connection) throw new Error("Node's HTTP server has no connection listener");
    h1.removeAllListeners('connection');
    h1.on('connection', (socket: Socket) => route(socket, (s) => h1Connection.call(h1, s), h2));
    Object.assign(h1, {
      // Called by Fastify's close (lib/server.js) when the server has it.
      closeHttp2Sessions() {
        for (const session of sessions) {
          session.close();
          setTimeout(() => session.destroy(), 2_000).unref();
        }
      },
    });
    return h1;
  };
}

/** Reads a connection's first bytes, puts them back, and hands it to the server they name. */
function route(socket: Socket, toHttp1: (socket: Socket) => void, h2: http2.Http2Server) {
  // Until a server has it, nobody else listens for its errors (a reset would end the process).
  const ignore = () => socket.destroy();
  socket.on('error', ignore);
  socket.setTimeout(FIRST_BYTES_MS);
  socket.once('timeout', ignore);
  socket.once('data', (chunk: Buffer) => {
    socket.pause();
    socket.unshift(chunk);
    // The server that takes it sets its own timeouts (Node's HTTP/1 server its keep-alive one,
    // which must not find this listener still there).
    socket.setTimeout(0);
    socket.removeListener('timeout', ignore);
    socket.removeListener('error', ignore);
    if (startsHttp2(chunk)) {
      // Node's HTTP/1 server turns Nagle's algorithm off for its connections (its `noDelay`),
      // the HTTP/2 server does not: an answer's last frame would wait for the balancer's delayed
      // acknowledgement, 200 ms a request.
      socket.setNoDelay(true);
      // The session reads what is buffered on the socket as its first bytes, then reads the
      // socket itself (Node's Http2Session: "Socket already has some buffered data").
      h2.emit('connection', socket);
      return;
    }
    toHttp1(socket);
    socket.resume();
  });
}
