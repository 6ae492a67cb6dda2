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
 * How hard to compress: brotli at quality 1 and gzip at level 1 (nginx's default, as in front of
 * the reference server). Measured on a page of 101 messages (55 KB): gzip 6 takes 0.46 ms for
 * 5.1 KB and gzip 1 0.11 ms for 6.0 KB; brotli 4 0.33 ms for 5.3 KB and brotli 1 0.08 ms for
 * 5.9 KB. On a `POST /register` of 5.2 MB (ten thousand people): gzip 6 ~90 ms for 401 KB, gzip 1
 * ~15 ms for 453 KB; brotli 4 ~35 ms for 424 KB, brotli 1 ~18 ms for 436 KB. A tenth more bytes
 * for a quarter of the time, at every answer.
 */
export function compressOptions() {
  return {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    // JSON answers only: the web client's files come compressed from the build (http/static.ts),
    // and uploaded files are sent as stored.
    customTypes: /^application\/json(?:;|$)/,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  } satisfies FastifyCompressOptions;
}
