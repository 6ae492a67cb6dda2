import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { MAX_BODY_BYTES, registerBodyParsers } from './http/body.js';
import { DomainError } from './domain/errors.js';
import { clientErrorHandler, frameworkErrorHandler } from './http/errors.js';
import { compressOptions } from './http/compression.js';
import { knownRoutes } from './http/route.js';
import { operationsHooks } from './http/operations.js';
import { RequestLog } from './http/request-log.js';
import { clientFiles, notFoundPage, securityHeaders } from './http/static.js';
import { registerRoutes } from './routes/index.js';
import type { Logger } from './logging.js';

export { COMPRESS_THRESHOLD } from './http/compression.js';

/**
 * The HTTP application: API under /api/v1 and the web client at /. Without a logger, Fastify
 * logs nothing (tests, benchmarks) and unexpected errors go to ctx.log.
 */
export async function buildApp(
  ctx: AppContext,
  opts: { logger?: Logger } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger
      ? { loggerInstance: opts.logger as FastifyBaseLogger, logController: new RequestLog() }
      : { logger: false }),
    bodyLimit: MAX_BODY_BYTES,
    // X-Forwarded-For only from the proxies named in the configuration: anyone else could pick
    // the address that per-address limits count.
    trustProxy: ctx.config.trustedProxies.length ? ctx.config.trustedProxies : false,
    return503OnClosing: false,
    forceCloseConnections: true,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  if (opts.logger) ctx.log = app.log;
  await app.register(compress, {
    ...compressOptions(),
    // Request bodies are read as sent, as before; no client of the Zulip API compresses them.
    globalDecompression: false,
  });
  registerBodyParsers(app);
  securityHeaders(app);
  operationsHooks(app, ctx);

  app.setErrorHandler((err: any, request, reply) => {
    if (err instanceof DomainError) {
      // Limits enforced inside actions (password attempts) get the header clients pace themselves by.
      const retryAfter = err.extra['retry-after'];
      if (
        err.code === 'RATE_LIMIT_HIT' &&
        typeof retryAfter === 'number' &&
        !reply.hasHeader('Retry-After')
      )
        reply.header('Retry-After', String(Math.ceil(retryAfter)));
      return reply
        .code(err.httpStatus)
        .send({ result: 'error', msg: err.message, code: err.code, ...err.extra });
    }
    const status: number | undefined = err.statusCode;
    if (status && status >= 400 && status < 500) {
      const msg =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'Request body too large'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type'
            : 'Malformed request';
      return reply.code(status).send({ result: 'error', msg, code: 'BAD_REQUEST' });
    }
    (opts.logger ? request.log : ctx.log).error({ err, req: request }, 'unexpected error');
    return reply
      .code(500)
      .send({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api') {
      const allowed = knownRoutes.filter((r) => r.pattern.test(url)).map((r) => r.method);
      if (allowed.length) {
        reply.header('Allow', [...new Set(allowed)].join(', '));
        return reply
          .code(405)
          .send({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' });
      }
      return reply.code(404).send({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    }
    return notFoundPage(reply);
  });

  registerRoutes(app, ctx);
  await app.register(clientFiles, { clientDir: ctx.config.clientDir });
  return app;
}
