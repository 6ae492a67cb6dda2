import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves the built web client; unknown paths get index.html so client-side routes work. */
export function sendClientFile(clientDir: string, urlPath: string, reply: FastifyReply) {
  const decoded = safeDecode(urlPath.split('?')[0]);
  const resolved = path.resolve(clientDir, '.' + decoded);
  const inside = resolved.startsWith(clientDir + path.sep);
  let file = inside && isFile(resolved) ? resolved : path.join(clientDir, 'index.html');
  if (!isFile(file)) {
    reply.code(503).type('text/html; charset=utf-8');
    return reply.send(
      '<!doctype html><title>Parley</title><p>The web client has not been built. Run <code>npm run build</code> (npm start does it for you).</p>',
    );
  }
  const ext = path.extname(file);
  const immutable = decoded.startsWith('/assets/');
  reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.type(TYPES[ext] ?? 'application/octet-stream');
  if (file.endsWith('index.html')) file = path.join(clientDir, 'index.html');
  return reply.send(fs.createReadStream(file));
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return '/';
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
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

export function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('X-Frame-Options', 'DENY');
    // Routes that serve other people's files set a stricter policy of their own (a sandbox).
    if (!reply.hasHeader('Content-Security-Policy'))
      reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return payload;
  });
}
