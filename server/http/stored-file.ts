import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredFile } from '../domain/file-store.js';

/**
 * A stored file that is not on disk (the database store), sent as @fastify/send sends one that is
 * (http/static.ts `storedFiles`), so that clients see no difference whichever store holds it:
 * Accept-Ranges, Last-Modified and a weak ETag of the size and time; If-Match and
 * If-Unmodified-Since (412), If-None-Match and If-Modified-Since (304), one byte range (206; an
 * unsatisfiable one 416 with the length, several the whole file), If-Range, and HEAD. The caller
 * sets the type, the caching and the security headers; only the bytes asked for are read.
 */
export function sendStoredFile(request: FastifyRequest, reply: FastifyReply, file: StoredFile) {
  const validators = {
    etag: `W/"${file.size.toString(16)}-${file.modified.getTime().toString(16)}"`,
    lastModified: file.modified.toUTCString(),
  };
  reply
    .header('Accept-Ranges', 'bytes')
    .header('Last-Modified', validators.lastModified)
    .header('ETag', validators.etag);
  const headers = request.headers;
  if (preconditionFailed(headers, validators)) return reply.code(412).send();
  if (notModified(headers, validators)) {
    reply.removeHeader('Content-Type');
    return reply.code(304).send();
  }
  let [start, end] = [0, file.size - 1];
  const asked = headers.range;
  if (asked && /^ *bytes=/.test(asked) && rangeFresh(headers, validators)) {
    const ranges = byteRanges(file.size, asked);
    if (ranges.length === 0)
      return reply.code(416).header('Content-Range', `bytes */${file.size}`).send();
    if (ranges.length === 1) {
      [start, end] = ranges[0]!;
      reply.code(206).header('Content-Range', `bytes ${start}-${end}/${file.size}`);
    }
  }
  reply.header('Content-Length', String(Math.max(0, end - start + 1)));
  // HEAD: the length of what GET would send, and no bytes read (an empty stream keeps the length).
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(file.open(start, end));
}

interface Validators {
  etag: string;
  lastModified: string;
}

/** The entity tags a header lists, `*` included, without the spaces between them. */
const tagsOf = (header: string) =>
  header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** A weak comparison, as RFC 9110 asks for If-None-Match (and send uses for If-Match too). */
const sameTag = (tag: string, etag: string) => tag === etag || `W/${tag}` === etag;

function preconditionFailed(headers: IncomingHttpHeaders, v: Validators): boolean {
  const ifMatch = headers['if-match'];
  if (ifMatch && ifMatch !== '*' && !tagsOf(ifMatch).some((t) => sameTag(t, v.etag))) return true;
  const since = Date.parse(headers['if-unmodified-since'] ?? '');
  return !Number.isNaN(since) && Date.parse(v.lastModified) > since;
}

/** Whether the client's copy is current; an end-to-end reload (no-cache) always gets the bytes. */
function notModified(headers: IncomingHttpHeaders, v: Validators): boolean {
  if (headers['cache-control']?.includes('no-cache')) return false;
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined)
    return ifNoneMatch === '*' || tagsOf(ifNoneMatch).some((t) => sameTag(t, v.etag));
  const since = Date.parse(headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Date.parse(v.lastModified) <= since;
}

/** Whether a range still applies: If-Range names this file's tag, or a time not before it changed. */
function rangeFresh(headers: IncomingHttpHeaders, v: Validators): boolean {
  const ifRange = headers['if-range'];
  if (ifRange === undefined) return true;
  if (typeof ifRange !== 'string') return false;
  if (ifRange.includes('"')) return ifRange.includes(v.etag);
  const at = Date.parse(ifRange);
  return !Number.isNaN(at) && Date.parse(v.lastModified) <= at;
}

/**
 * The satisfiable ranges of a `bytes=` header, as [first, last] byte: `a-b`, `a-` and the
 * suffix `-n`, the last byte capped at the file's end. Overlapping and adjacent ones are merged,
 * so that two that make one contiguous range are answered as that one.
 */
export function byteRanges(size: number, header: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const spec of header.slice(header.indexOf('=') + 1).split(',')) {
    const m = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(spec);
    if (!m || (m[1] === '' && m[2] === '')) continue;
    const [start, end] =
      m[1] === ''
        ? [size - Number(m[2]), size - 1]
        : [Number(m[1]), m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)];
    if (start >= 0 && start <= end) ranges.push([start, end]);
  }
  if (ranges.length < 2) return ranges;
  const merged: [number, number][] = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
