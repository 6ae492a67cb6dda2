import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { clientRoutePaths } from './client-routes.js';
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

const HASHED_FILE_CACHE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE =
  '<!doctype html><title>Parley</title><p>The web client has not been built. Run <code>npm run build</code> (npm start does it for you).</p>';

/**
 * The built web client, as a plugin (its own scope, so that `reply.sendFile` here sends the
 * compressed copies; uploads have their own). @fastify/static answers with an ETag and
 * Last-Modified, 304 to a conditional request, 206 to a range, and the brotli or gzip copy the
 * build wrote beside a file (vite.config.ts) to a browser that accepts it, with
 * `Vary: Accept-Encoding`. Hashed files under /assets/ never change, so browsers keep them for a
 * year without asking again; index.html, which names the current ones, is revalidated at every
 * load. The app's own routes (client-routes.ts) get index.html; any other path falls through to
 * the not-found handler, and so does a missing file under /assets/: an old page asking for a file
 * a newer build replaced must not be given a page it would run as a script and keep for a year.
 */
export async function clientFiles(app: FastifyInstance, opts: { clientDir: string }) {
  const root = path.resolve(opts.clientDir);
  const hashed = path.join(root, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root,
    // The routes are ours, below, to keep @fastify/compress off them: the copies are compressed
    // already, and the bytes a range counts are those of the file as it is stored.
    serve: false,
    preCompressed: true,
    cacheControl: false,
    // A dotfile is no part of a build; whatever put one there, it is not for the world.
    dotfiles: 'ignore',
    setHeaders(reply, file) {
      reply.header('Cache-Control', file.startsWith(hashed) ? HASHED_FILE_CACHE : 'no-cache');
    },
  });
  // A path that is not in its plainest form (`//x`, `/a/../b`) is refused by @fastify/static;
  // it names no file, so it is answered as any unknown path (the API's with its envelope).
  app.setErrorHandler((err: FileError, _request, reply) => {
    if (err.code === 'FST_STATIC_FORBIDDEN_PATH') return reply.callNotFound();
    if (!sendRefusal(err, reply)) throw err;
  });
  // RFC 9239 made the type that send's table still gives scripts obsolete.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/javascript'))
      reply.header('Content-Type', 'text/javascript; charset=utf-8');
    return payload;
  });

  app.get('/*', { compress: false }, async (request, reply) =>
    reply.sendFile((request.params as { '*': string })['*']),
  );
  const index = path.join(root, 'index.html');
  for (const url of clientRoutePaths())
    app.get(url, { compress: false }, async (_request, reply) => {
      const built = await fs.promises.stat(index).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!built)
        return reply
          .code(503)
          .header('Cache-Control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(NOT_BUILT_PAGE);
      return reply.sendFile('index.html');
    });
}

interface FileError {
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

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<meta name="color-scheme" content="light dark">' +
  '<title>Page not found · Parley</title>' +
  '<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f5f8;color:#1f2329}' +
  'main{max-width:26rem;padding:2rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .5rem}p{margin:0 0 1.5rem;color:#5b6270}' +
  'a{display:inline-block;padding:.5rem 1.25rem;border-radius:6px;background:#3a6fd8;color:#fff;text-decoration:none;font-weight:600}' +
  'a:focus-visible{outline:3px solid #9bb8f0;outline-offset:2px}' +
  '@media (prefers-color-scheme:dark){body{background:#17191d;color:#e6e8eb}p{color:#a3a9b4}}</style>' +
  '<main><h1>Page not found</h1><p>There is nothing at this address.</p><a href="/">Open Parley</a></main>';

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
