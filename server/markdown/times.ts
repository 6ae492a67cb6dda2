import type { MarkdownIt, StateInline } from 'markdown-it';
import { matchHere, pushHtml } from './inline.js';
import { escapeHtml } from './links.js';

const GLOBAL_TIME = /<time:([^<>\n]{1,100})>/y;

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant a global time names, in milliseconds: ISO 8601 dates and times (without a zone
 * they are UTC, as upstream) or a Unix timestamp in seconds. Null when it names none.
 */
export function parseGlobalTime(text: string): number | null {
  const trimmed = text.trim();
  if (/^\d{1,12}(?:\.\d{1,6})?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const m = ISO_TIME.exec(trimmed);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m;
  const fields = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = fields;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return null;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(ms).getUTCDate() !== day) return null; // 31 February
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
    if (offset > 18 * 60) return null;
    ms -= sign * offset * 60_000;
  }
  return ms;
}

/** `2024-05-01T13:00:00Z`, the form upstream puts in `datetime`. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `<time:2024-05-01T15:00+02:00>`, a moment every reader sees in their own time zone: rendered as
 * upstream, `<time datetime="2024-05-01T13:00:00Z">` around the text as typed, which clients
 * replace with the local time; text that names no time becomes a `timestamp-error` span.
 */
function globalTimeRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const m = matchHere(state, GLOBAL_TIME);
  if (!m) return false;
  if (!silent) {
    const ms = parseGlobalTime(m[1]!);
    const valid = ms !== null && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
    pushHtml(
      state,
      valid
        ? `<time datetime="${isoSeconds(ms)}">${escapeHtml(m[1]!)}</time>`
        : `<span class="timestamp-error">Invalid time format: ${escapeHtml(m[1]!)}</span>`,
    );
  }
  state.pos += m[0].length;
  return true;
}

export function globalTimesPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('autolink', 'zulip_global_time', globalTimeRule);
}
