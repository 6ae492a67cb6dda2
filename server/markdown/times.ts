import type { MarkdownIt, StateInline } from 'markdown-it';
import { matchHere, pushHtml } from './inline.js';
import { escapeHtml } from './links.js';

/** As upstream: up to the first `>` (so `<time:<b>>` names `<b` and leaves a `>`). */
const GLOBAL_TIME = /<time:([^>\n]{0,200}?)>/y;

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
  if (!m) return parseWrittenTime(trimmed);
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

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The zone abbreviations people write, in minutes east of UTC (upstream's common_timezones). */
const ZONES: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ut: 0,
  wet: 0,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  pkt: 300,
  ict: 420,
  wib: 420,
  sgt: 480,
  hkt: 480,
  awst: 480,
  cst: -360,
  jst: 540,
  kst: 540,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
  est: -300,
  edt: -240,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
};

/**
 * Dates as people write them, read the way the reference's parser (dateutil) reads the common
 * forms: `Jun 5th 2017, 10:30PM`, `31 Dec 2017`, `December 31, 2017 5:30 am IST`. A day, a month
 * name and a four-digit year are needed; the time, am/pm and a zone (an abbreviation or an
 * offset) are optional; anything else makes it no time at all.
 */
function parseWrittenTime(text: string): number | null {
  const words = text
    .toLowerCase()
    .match(/[a-z]+|\d+(?::\d+)*(?:st|nd|rd|th)?|[+-]\d{2}:?\d{2}|[^\s\w]/g);
  if (!words) return null;
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let pm: boolean | undefined;
  let offset = 0;
  for (const w of words) {
    const monthIndex = MONTHS.findIndex((name) => w.startsWith(name) && w.length <= 9);
    let m: RegExpExecArray | null;
    if (w === ',' || w === '.') continue;
    if (/^[a-z]+$/.test(w) && monthIndex >= 0 && month === undefined) month = monthIndex + 1;
    else if (w === 'am' || w === 'pm') pm = w === 'pm';
    else if (w in ZONES) offset = ZONES[w]!;
    else if ((m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm)?$/.exec(w))) {
      hour = Number(m[1]);
      minute = Number(m[2]);
      second = Number(m[3] ?? 0);
    } else if ((m = /^([+-])(\d{2}):?(\d{2})$/.exec(w)))
      offset = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    else if ((m = /^(\d{4})$/.exec(w)) && year === undefined) year = Number(m[1]);
    else if ((m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(w)) && day === undefined) day = Number(m[1]);
    else return null;
  }
  const clock = /(\d{1,2}):(\d{2})(?::\d{2})?\s*(am|pm)/i.exec(text);
  if (clock) pm = clock[3]!.toLowerCase() === 'pm';
  if (year === undefined || month === undefined || day === undefined) return null;
  if (pm !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms - offset * 60_000;
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
