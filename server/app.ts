import compress from '@fastify/compress';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { MAX_BODY_BYTES, registerBodyParsers } from './http/body.js';
import {
  apiErrorHandler,
  clientErrorHandler,
  frameworkErrorHandler,
  notFoundHandler,
} from './http/errors.js';
import { compressOptions } from './http/compression.js';
import { operationsHooks } from './http/operations.js';
import { inRegisteringScope } from './http/plugin.js';
import { RequestLog } from './http/request-log.js';
import { securityHeaders } from './http/static.js';
import { clientFiles } from './routes/client-app.js';
import { registerRoutes } from './routes/index.js';
import type { Logger } from './logging.js';
import { oneListener } from './http/listener.js';

export { COMPRESS_THRESHOLD } from './http/compression.js';

export interface AppOptions {
  ctx: AppContext;
  /** where Fastify logs requests; the same logger the instance was created with (serverOptions) */
  logger?: Logger;
}

/**
 * What the Fastify instance that serves the app is created with: what a plugin cannot set.
 * Without a logger, Fastify logs nothing (tests, benchmarks) and unexpected errors go to ctx.log.
 */
export function serverOptions(config: Config, logger?: Logger): FastifyServerOptions {
  return {
    ...(logger
      ? { loggerInstance: logger as FastifyBaseLogger, logController: new RequestLog() }
      : { logger: false }),
    bodyLimit: MAX_BODY_BYTES,
    // `/api/v1//user_uploads/...` (the Python bindings' call_endpoint with a leading slash, as the
    // Matrix bridge makes it) is the same path: the reference's nginx merges the slashes too. Only
    // under /api/: a page address such as `//inbox` stays unknown.
    rewriteUrl: (request) => mergeApiSlashes(request.url ?? '/'),
    // X-Forwarded-For only from the proxies named in the configuration: anyone else could pick
    // the address that per-address limits count.
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    return503OnClosing: false,
    forceCloseConnections: true,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // HTTP/1.1, and HTTP/2 from a load balancer, on the one port (http/listener.ts).
    serverFactory: oneListener({ longPollSeconds: config.longPollSeconds }),
  };
}

/** The path of an API request with runs of slashes merged; any other URL as it came. */
export function mergeApiSlashes(url: string): string {
  if (!url.startsWith('/api/')) return url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('//')) return url;
  return path.replace(/\/{2,}/g, '/') + (query === -1 ? '' : url.slice(query));
}

/**
 * The HTTP application, as a plugin: API under /api/v1 and the web client at /. It runs in the
 * scope of the instance that registers it, the root (server.ts), because what it sets there
 * must reach every route and the not-found handler: compression, body parsers, security headers,
 * the operations hooks (metrics, 503 while starting), the error envelope.
 */
export const parleyApp = inRegisteringScope(
  'parley',
  async (root: FastifyInstance, { ctx, logger }: AppOptions) => {
    if (logger) ctx.log = root.log;
    await root.register(compress, {
      ...compressOptions(),
      // Request bodies are read as sent, as before; no client of the Zulip API compresses them.
      globalDecompression: false,
    });
    registerBodyParsers(root);
    securityHeaders(root);
    operationsHooks(root, ctx);
    root.setErrorHandler(apiErrorHandler(ctx, !!logger));
    root.setNotFoundHandler(notFoundHandler);

    registerRoutes(root, ctx);
    await root.register(clientFiles, { clientDir: ctx.config.clientDir });
  },
);
