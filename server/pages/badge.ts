import { escapeHtml } from '../markdown/links.js';

const PALETTE = [
  '#4f8de4',
  '#53a063',
  '#e4523d',
  '#9987e1',
  '#ee7e4a',
  '#2a9d8f',
  '#c2726a',
  '#bd86e5',
];

/** Up to two letters for a name: the first and last words' initials, or a single word's start. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '') || '?';
}

/**
 * A square image with a few letters on a colour the seed picks, drawn for people without an
 * avatar and for organization icons; `radius` rounds its corners.
 */
export function badgeSvg(text: string, seed: number, radius: number) {
  const color = PALETTE[seed % PALETTE.length];
  const safe = escapeHtml(text);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" rx="${radius}" fill="${color}"/><text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="40" font-weight="600" fill="#fff">${safe}</text></svg>`;
}
