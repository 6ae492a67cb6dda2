import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NOT_FOUND_PAGE } from '../pages/client.js';
import { inRegisteringScope } from './plugin.js';

/**
 * The content codings an Accept-Encoding header allows: named ones with a weight above zero, and
 * `*` for any not named (for the API answers http/route.ts writes itself; files are negotiated by
 * @fastify/static).
 */
export function acceptedEncodings(header: string | undefined): (encoding: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.toLowerCase().split(';');
    const name = token.trim();
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  return (encoding) => {
    const q = weights.get(encoding) ?? weights.get('*');
    return q !== undefined && q > 0;
  };
}

export interface FileError {
  code?: string;
  status?: number;
  headers?: Record<string, string>;
}

/**
 * Answers @fastify/send's refusals, which are no API errors, with their status and headers and no
 * body: a range that starts past the end (416, with the Content-Range that tells the client the
 * length) or a failed precondition (412). False for any other error, left to the app's handler.
 */
export function sendRefusal(err: unknown, reply: FastifyReply): boolean {
  const { status, headers } = (err ?? {}) as FileError;
  if (status !== 416 && status !== 412) return false;
  void reply
    .code(status)
    .headers(headers ?? {})
    .send();
  return true;
}

/**
 * `reply.sendFile` for files the app stores (uploads, custom emoji), in the scope that registers
 * it: no root of its own, each call names the file's folder. @fastify/send's refusals are
 * answered as `sendRefusal` says; any other error goes on to the app's handler.
 */
export const storedFiles = inRegisteringScope('stored-files', async (scope: FastifyInstance) => {
  await scope.register(fastifyStatic, { serve: false });
  scope.setErrorHandler((err, _request, reply) => {
    if (!sendRefusal(err, reply)) throw err;
  });
});

/**
 * What a browser gets for a path that is neither a file of the client nor one of the app's routes:
 * a small page with status 404, so that a monitor, a load balancer or a crawler can tell a
 * mistyped or retired address from a page, and a broken link does not start the whole app (with
 * a session and an event queue) to show its own not-found view. Revalidated, like index.html, so
 * that a route added by the next deploy is not hidden behind a kept 404.
 */
export function notFoundPage(reply: FastifyReply) {
  return reply
    .code(404)
    .header('Cache-Control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(NOT_FOUND_PAGE);
}

/**
 * The app keeps its API key in localStorage, so any script that ran in the page would own the
 * account: scripts come only from our own files (the build has no inline script), and the page
 * talks only to its own origin. Styles may be inline because rendered math (KaTeX) positions its
 * glyphs with style attributes; styles cannot run code. Images may be data: and blob: URLs
 * (generated avatars, previews of files being attached), fonts data: URLs (KaTeX).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** What every answer carries; the policy unless a route set a stricter one of its own. */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': CONTENT_SECURITY_POLICY,
} as const;

export function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      // Routes that serve other people's files set a stricter policy of their own (a sandbox).
      if (name === 'content-security-policy' && reply.hasHeader(name)) continue;
      reply.header(name, value);
    }
    return payload;
  });
}
