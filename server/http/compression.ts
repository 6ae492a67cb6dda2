import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * API answers from this size on are compressed when the client accepts it (brotli, else gzip):
 * `POST /register` or a page of messages shrink several times over. Smaller ones, such as the
 * single event most long-polls return, are not worth the time, which a message delivered to a
 * thousand waiting long-polls would pay a thousand times.
 */
export const COMPRESS_THRESHOLD = 8 * 1024;

/**
 * How hard to compress. `usual`: brotli at quality 4 and gzip at zlib's default level, for
 * answers of up to a few hundred kilobytes. `fast`: brotli at quality 1 and gzip at level 1, for
 * answers that grow with the organization (`POST /register` carries every person: several MB
 * at ten thousand people). Measured on such a 5.2 MB answer: gzip 6 takes ~90 ms for 401 KB and
 * gzip 1 ~15 ms for 453 KB; brotli 4 ~35 ms for 424 KB and brotli 1 ~18 ms for 436 KB. Level 1
 * is also what nginx uses unless told otherwise, as in front of the reference server.
 */
export type CompressionEffort = 'usual' | 'fast';

export function compressOptions(effort: CompressionEffort) {
  return {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    // JSON answers only: the web client's files come compressed from the build (http/static.ts),
    // and uploaded files are sent as stored.
    customTypes: /^application\/json(?:;|$)/,
    brotliOptions: {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 1 : 4 },
    },
    zlibOptions: { level: effort === 'fast' ? 1 : zlib.constants.Z_DEFAULT_COMPRESSION },
  } satisfies FastifyCompressOptions;
}
