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

/** Precompressed copies the build writes beside each file (vite.config.ts), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The content codings an Accept-Encoding header allows: named ones with a weight above zero, and
 * `*` for any not named. The weights only exclude: the server prefers brotli, then gzip.
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

/**
 * Serves the built web client; unknown paths get index.html so client-side routes work. Hashed
 * files under /assets/ never change, so browsers keep them for a year without asking again;
 * index.html (which names the current ones) is checked at every load. Where the build left a
 * brotli or gzip copy, a browser that accepts it gets that copy.
 */
export function sendClientFile(clientDir: string, urlPath: string, reply: FastifyReply) {
  const decoded = safeDecode(urlPath.split('?')[0]);
  const resolved = path.resolve(clientDir, '.' + decoded);
  const inside = resolved.startsWith(clientDir + path.sep);
  const found = inside && isFile(resolved);
  const asset = decoded.startsWith('/assets/');
  if (asset && !found) {
    // An old page asking for a file a newer build replaced: index.html in its place would be run
    // as a script or style and then kept for a year.
    reply.code(404).header('Cache-Control', 'no-cache').type('text/plain; charset=utf-8');
    return reply.send('Not Found');
  }
  const file = found ? resolved : path.join(clientDir, 'index.html');
  if (!isFile(file)) {
    reply.code(503).type('text/html; charset=utf-8');
    return reply.send(
      '<!doctype html><title>Parley</title><p>The web client has not been built. Run <code>npm run build</code> (npm start does it for you).</p>',
    );
  }
  reply.header('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.type(TYPES[path.extname(file)] ?? 'application/octet-stream');
  const variants = PRECOMPRESSED.filter((v) => isFile(file + v.suffix));
  let sent = file;
  if (variants.length) {
    // Caches must keep the copies apart: the answer depends on the request's Accept-Encoding.
    reply.header('Vary', 'Accept-Encoding');
    const accepts = acceptedEncodings(reply.request.headers['accept-encoding']);
    const chosen = variants.find((v) => accepts(v.encoding));
    if (chosen) {
      sent = file + chosen.suffix;
      reply.header('Content-Encoding', chosen.encoding);
    }
  }
  reply.header('Content-Length', String(fs.statSync(sent).size));
  return reply.send(fs.createReadStream(sent));
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
