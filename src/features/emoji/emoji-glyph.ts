/**
 * The Unicode text of a code ('1f44d' → 👍); text-style symbols get the emoji presentation
 * selector. Apart from emoji-data.ts, so that a status emoji in the first view brings no more.
 */
export function emojiGlyph(code: string): string {
  const points = code.split('-').map((hex) => parseInt(hex, 16));
  if (points.some((cp) => !Number.isFinite(cp) || cp > 0x10ffff)) return '';
  const text = String.fromCodePoint(...points);
  return points.length === 1 && points[0] < 0x1f000 ? `${text}\uFE0F` : text;
}
