import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Gzip answers assembled from pieces compressed apart, so that a large part kept between
 * requests (the people of an organization at /register) is compressed once rather than for every
 * answer.
 *
 * A piece is raw deflate (RFC 1951) that ends with a sync flush: on a byte boundary, in no final
 * block, with no back-reference into anything before it, since each piece has a compressor of its
 * own. Pieces laid end to end are therefore one valid deflate stream of their texts laid end to
 * end; one final empty block closes it, and the gzip wrapper (RFC 1952) adds the CRC-32 and the
 * length of the whole text, which zlib.crc32 reads at about 7 GB/s.
 */

/** The compression level of pieces: gzip level 1, as for every answer (http/compression.ts). */
const LEVEL = 1;

const deflateRaw = promisify(zlib.deflateRaw);

/** One piece: `bytes` as raw deflate ending on a byte boundary. Runs in the thread pool. */
export function deflatePiece(bytes: Buffer): Promise<Buffer> {
  return deflateRaw(bytes, { level: LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

/** gzip's header: deflate, no name or comment, no time, operating system unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final block with nothing in it (fixed Huffman codes, the end-of-block code only). */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A gzip member of `texts` laid end to end, from their pieces: `pieces[i]` is the deflate of
 * `texts[i]` made by deflatePiece (several pieces each, or one).
 */
export function gzipOfPieces(texts: Buffer[], pieces: Buffer[][]): Buffer[] {
  let crc = 0;
  let length = 0;
  for (const text of texts) {
    // Skipped when empty: Node 20's crc32 answers 0 for an empty buffer once that buffer has
    // been through an asynchronous deflate, instead of the value it was given.
    if (!text.length) continue;
    crc = zlib.crc32(text, crc);
    length += text.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE: the length modulo 2^32
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return [HEADER, ...pieces.flat(), LAST_BLOCK, trailer];
}
