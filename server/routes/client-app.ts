import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { clientRoutePaths } from '../http/client-routes.js';
import { sendRefusal, type FileError } from '../http/static.js';
import { NOT_BUILT_PAGE } from '../pages/client.js';

const HASHED_FILE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The built web client, as a plugin (its own scope, so that `reply.sendFile` here sends the
 * compressed copies; uploads have their own). @fastify/static answers with an ETag and
 * Last-Modified, 304 to a conditional request, 206 to a range, and the brotli or gzip copy the
 * build wrote beside a file (vite.config.ts) to a browser that accepts it, with
 * `Vary: Accept-Encoding`. Hashed files under /assets/ never change, so browsers keep them for a
 * year without asking again; index.html, which names the current ones, is revalidated at every
 * load. The app's own routes (http/client-routes.ts) get index.html; any other path falls through
 * to the not-found handler, and so does a missing file under /assets/: an old page asking for a
 * file a newer build replaced must not be given a page it would run as a script and keep for a
 * year.
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
