/**
 * The linkifier preview: applies a pattern (written in the server's syntax, RE2's: named groups
 * `(?P<name>...)`, flags such as `(?i)`) and an RFC 6570 URL template to a sample text, the way
 * messages will be linked. The server stays the judge of what it accepts; this shows the admin
 * what a pair does before saving it, and why it is wrong when it is. Patterns run in re2js, the
 * server's engine, never in the browser's RegExp: one that backtracks (`(a+)+$`) would freeze the
 * tab at every keystroke, and RegExp reads some patterns differently. The engine is loaded on
 * first use (`loadLinkifierEngine`), so that it weighs nothing until an administrator opens this.
 */
import type { RE2JS } from 're2js';

/** The engine's entry point: `RE2JS` of the re2js package. */
export type LinkifierEngine = typeof RE2JS;

export const loadLinkifierEngine = (): Promise<LinkifierEngine> =>
  import('re2js').then((m) => m.RE2JS);

/** As on the server (server/markdown/linkifiers.ts): larger programs are refused there. */
const MAX_PATTERN_LENGTH = 1000;
const MAX_PROGRAM = 1000;

/**
 * The reference server's boundaries around a match: the start of the text, whitespace or one of
 * '"(,:< before it, and the end of the text or a character that is neither letter nor digit after
 * it. The link covers the middle group.
 */
const withBoundaries = (pattern: string) => `(?:^|[\\s'"(,:<])(${pattern})(?:$|[^\\pL\\pN])`;

export type PreviewProblem =
  | { kind: 'emptyPattern' }
  | { kind: 'badPattern'; detail: string }
  | { kind: 'badTemplate' }
  | { kind: 'unknownVariable'; name: string }
  | { kind: 'unusedGroup'; name: string };

export interface PreviewLink {
  /** the matched text */
  text: string;
  url: string;
}

export type Preview = { ok: true; links: PreviewLink[] } | { ok: false; problem: PreviewProblem };

interface Compiled {
  re: RE2JS;
  groups: string[];
}

function compile(engine: LinkifierEngine, pattern: string): Compiled | PreviewProblem {
  if (!pattern.trim()) return { kind: 'emptyPattern' };
  const tooLarge = { kind: 'badPattern', detail: 'pattern too large - compile failed' } as const;
  if (pattern.length > MAX_PATTERN_LENGTH) return tooLarge;
  try {
    const alone = engine.compile(pattern);
    if (alone.programSize() > MAX_PROGRAM) return tooLarge;
    return {
      re: engine.compile(withBoundaries(pattern)),
      groups: Object.keys(alone.namedGroups()),
    };
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : '';
    return { kind: 'badPattern', detail };
  }
}

interface Part {
  literal?: string;
  operator?: string;
  names?: string[];
}

/** Splits a template into literal text and `{...}` expressions; null when malformed. */
function parseTemplate(template: string): Part[] | null {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (close >= 0 && (open < 0 || close < open)) return null;
    if (open < 0) {
      parts.push({ literal: template.slice(i) });
      break;
    }
    if (open > i) parts.push({ literal: template.slice(i, open) });
    const end = template.indexOf('}', open);
    if (end < 0) return null;
    let body = template.slice(open + 1, end);
    let operator = '';
    if (body && '+#./;?&'.includes(body[0])) {
      operator = body[0];
      body = body.slice(1);
    }
    const names = body.split(',');
    if (!body || names.some((n) => !/^[A-Za-z0-9_]+$/.test(n))) return null;
    parts.push({ operator, names });
    i = end + 1;
  }
  return parts;
}

/** `{+var}` and `{#var}` keep reserved characters and existing %-escapes (RFC 6570). */
const encodeReserved = (value: string) => encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');

function expand(parts: Part[], values: Record<string, string>): string {
  return parts
    .map((part) => {
      if (part.literal !== undefined) return part.literal;
      const op = part.operator ?? '';
      const names = part.names ?? [];
      const reserved = op === '+' || op === '#';
      const value = (name: string) =>
        reserved ? encodeReserved(values[name] ?? '') : encodeURIComponent(values[name] ?? '');
      if (op === ';' || op === '?' || op === '&')
        return op + names.map((name) => `${name}=${value(name)}`).join(op === ';' ? ';' : '&');
      const separator = op === '.' || op === '/' ? op : ',';
      return (op === '+' ? '' : op) + names.map(value).join(separator);
    })
    .join('');
}

export function previewLinkifier(
  engine: LinkifierEngine,
  pattern: string,
  template: string,
  sample: string,
): Preview {
  const compiled = compile(engine, pattern);
  if (!('re' in compiled)) return { ok: false, problem: compiled };
  const parts = parseTemplate(template);
  if (!parts) return { ok: false, problem: { kind: 'badTemplate' } };
  const variables = parts.flatMap((p) => p.names ?? []);
  const unknown = variables.find((v) => !compiled.groups.includes(v));
  if (unknown) return { ok: false, problem: { kind: 'unknownVariable', name: unknown } };
  const unused = compiled.groups.find((g) => !variables.includes(g));
  if (unused) return { ok: false, problem: { kind: 'unusedGroup', name: unused } };
  const links: PreviewLink[] = [];
  const m = compiled.re.matcher(sample);
  // A search resumes where the last link ended: the character after it may precede the next.
  for (let from = 0; from <= sample.length && m.find(from);) {
    const [start, end] = [m.start(1), m.end(1)];
    from = Math.max(end, m.start(0) + 1);
    if (start === end) continue; // a pattern that matches nothing links nothing
    const values: Record<string, string> = {};
    for (const name of compiled.groups) values[name] = m.group(name) ?? '';
    links.push({ text: sample.slice(start, end), url: expand(parts, values) });
  }
  return { ok: true, links };
}
