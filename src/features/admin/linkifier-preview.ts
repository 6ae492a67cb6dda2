/**
 * The linkifier preview: applies a pattern (written in the server's syntax, with Python-style
 * named groups `(?P<name>...)` and an optional leading `(?i)`) and an RFC 6570 URL template to a
 * sample text, the way messages will be linked. The server stays the judge of what it accepts;
 * this shows the admin what a pair does before saving it, and why it is wrong when it is.
 */

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
  regexp: RegExp;
  groups: string[];
}

function compile(pattern: string): Compiled | PreviewProblem {
  if (!pattern.trim()) return { kind: 'emptyPattern' };
  let source = pattern;
  let flags = 'g';
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    flags += [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  const groups: string[] = [];
  source = source.replace(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g, (_whole, name: string) => {
    groups.push(name);
    return `(?<${name}>`;
  });
  try {
    return { regexp: new RegExp(source, flags), groups };
  } catch (err) {
    const detail =
      err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : '';
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

export function previewLinkifier(pattern: string, template: string, sample: string): Preview {
  const compiled = compile(pattern);
  if (!('regexp' in compiled)) return { ok: false, problem: compiled };
  const parts = parseTemplate(template);
  if (!parts) return { ok: false, problem: { kind: 'badTemplate' } };
  const variables = parts.flatMap((p) => p.names ?? []);
  const unknown = variables.find((v) => !compiled.groups.includes(v));
  if (unknown) return { ok: false, problem: { kind: 'unknownVariable', name: unknown } };
  const unused = compiled.groups.find((g) => !variables.includes(g));
  if (unused) return { ok: false, problem: { kind: 'unusedGroup', name: unused } };
  const links: PreviewLink[] = [];
  for (const match of sample.matchAll(compiled.regexp)) {
    if (!match[0]) continue; // a pattern that matches nothing links nothing
    links.push({ text: match[0], url: expand(parts, match.groups ?? {}) });
  }
  return { ok: true, links };
}
