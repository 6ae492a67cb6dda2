import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatePiece, gzipOfPieces } from './deflate-pieces.js';

/** Deterministic bytes: JSON-like text with repeats (to compress) and multi-byte characters. */
function text(seed: number, length: number): Buffer {
  const words = ['"user_id":', '"full_name":"Ærøskøbing ☃"', ',', '{', '}', `${seed}`, 'null', '𝄞'];
  const out: string[] = [];
  let size = 0;
  let x = seed || 1;
  while (size < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const word = words[x % words.length];
    out.push(word);
    size += Buffer.byteLength(word);
  }
  return Buffer.from(out.join(''), 'utf8');
}

describe('gzip of pieces compressed apart', () => {
  it('inflates to the texts laid end to end, with gzip’s own checks of CRC and length passing', async () => {
    const texts = [text(1, 10), Buffer.alloc(0), text(2, 300_000), text(3, 70_000), text(4, 1)];
    // The third text in three pieces cut mid-character: pieces join as bytes, not as text.
    const cuts = [0, 100_001, 200_003, texts[2].length];
    const pieces = await Promise.all(
      texts.map((t, i) =>
        i === 2
          ? Promise.all(cuts.slice(0, -1).map((c, k) => deflatePiece(t.subarray(c, cuts[k + 1]))))
          : deflatePiece(t).then((p) => [p]),
      ),
    );
    const gz = Buffer.concat(gzipOfPieces(texts, pieces));
    // gunzipSync throws on a wrong CRC-32 or length.
    expect(zlib.gunzipSync(gz).equals(Buffer.concat(texts))).toBe(true);
    // Compressed, not stored.
    expect(gz.length).toBeLessThan(Buffer.concat(texts).length / 3);
  });

  it('keeps no back-reference across pieces: each inflates alone', async () => {
    const piece = await deflatePiece(text(5, 50_000));
    const again = await deflatePiece(text(5, 50_000));
    // The same text deflated twice: identical, so a kept piece stands for a new one.
    expect(piece.equals(again)).toBe(true);
    expect(
      zlib
        .inflateRawSync(piece, { finishFlush: zlib.constants.Z_SYNC_FLUSH })
        .equals(text(5, 50_000)),
    ).toBe(true);
  });

  it('is refused by gunzip when a piece is missing or the trailer is wrong', async () => {
    const texts = [text(6, 20_000), text(7, 20_000)];
    const pieces = await Promise.all(texts.map((t) => deflatePiece(t).then((p) => [p])));
    const whole = gzipOfPieces(texts, pieces);
    expect(() => zlib.gunzipSync(Buffer.concat(gzipOfPieces(texts, [pieces[0], []])))).toThrow();
    const corrupt = Buffer.concat(whole);
    corrupt[corrupt.length - 8] ^= 1;
    expect(() => zlib.gunzipSync(corrupt)).toThrow();
  });
});
