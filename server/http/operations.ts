import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AddressSet, LOOPBACK } from '../addresses.js';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';

/** The routes that answer while the server is starting: probes and metrics. */
export const OPERATIONS_ROUTES = ['/health', '/ready', '/metrics'];
const ALWAYS_SERVED = new Set(OPERATIONS_ROUTES);

/** The label of a request's route: its pattern, or none for the not-found handler. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '(no route)';

/**
 * Every request timed into the metrics by method, route pattern and status class, and, while the
 * server is starting (seeding the demo), refused with 503 but for the probes: nobody logs in to a
 * half-made organization, and no queue registered then receives the seed's messages as events.
 *
 * The time is taken when the response closes, so that answers written straight to the socket
 * (long-polls, which skip Fastify's onResponse) are counted too; a client gone before its
 * answer counts as `aborted`.
 */
export function operationsHooks(app: FastifyInstance, ctx: AppContext) {
  const { metrics, readiness } = ctx;
  app.addHook('onRequest', (request, reply, done) => {
    if (metrics) {
      const started = performance.now();
      const response = reply.raw;
      response.once('close', () =>
        metrics.observeRequest(
          request.method,
          routeOf(request),
          response.writableFinished ? `${Math.floor(response.statusCode / 100)}xx` : 'aborted',
          (performance.now() - started) / 1000,
        ),
      );
    }
    if (readiness && !readiness.serving && !ALWAYS_SERVED.has(routeOf(request))) {
      reply
        .code(503)
        .header('Retry-After', '1')
        .send({ result: 'error', msg: 'The server is starting', code: 'SERVER_NOT_READY' });
      return;
    }
    done();
  });
}

const readers = new WeakMap<Config, { allowed: AddressSet; proxies: AddressSet }>();

/**
 * Who may read GET /metrics: a client on loopback or in PARLEY_METRICS_ALLOW, by its address.
 * The address is the connection's, or, through a proxy of PARLEY_TRUSTED_PROXIES, the client's
 * that proxy forwarded. A request relayed by any other proxy is refused whatever its address: a
 * reverse proxy on the same machine connects from loopback, and would otherwise hand the metrics
 * to anyone on the Internet.
 */
export function mayReadMetrics(ctx: AppContext, request: FastifyRequest): boolean {
  let reader = readers.get(ctx.config);
  if (!reader) {
    reader = {
      allowed: new AddressSet([...LOOPBACK, ...ctx.config.metricsAllow]),
      proxies: new AddressSet(ctx.config.trustedProxies),
    };
    readers.set(ctx.config, reader);
  }
  const { headers } = request;
  const relayed = !!(headers['x-forwarded-for'] || headers.forwarded || headers['x-real-ip']);
  if (!relayed) return reader.allowed.has(request.socket.remoteAddress);
  // Fastify takes the client's address from X-Forwarded-For only, and only from trusted proxies.
  const trusted = reader.proxies.has(request.socket.remoteAddress);
  return trusted && !!headers['x-forwarded-for'] && reader.allowed.has(request.ip);
}
