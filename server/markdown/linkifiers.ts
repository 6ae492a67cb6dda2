import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { isSafeUrl, wellFormed } from './links.js';
import { hasNestedRepetition } from './regex-safety.js';
import { renderEnv, type MarkdownLinkifier } from './types.js';

interface Compiled {
  re: RegExp;
  template: string;
}

const cache = new Map<string, Compiled | null>();

/**
 * Zulip's boundaries around a linkifier match: it starts at the beginning of the text or after
 * whitespace or one of '"(,:< and does not end in the middle of a word.
 */
const BEFORE = `(?<![^\\s'"\\(,:<])`;
const AFTER_UNICODE = '(?![\\p{L}\\p{N}_])';
const AFTER_ASCII = '(?!\\w)';

function tryRegExp(source: string, flags: string): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/**
 * A linkifier's global regex with Zulip's boundaries, cached. Invalid patterns, and patterns that
 * could backtrack exponentially, compile to null and are skipped.
 */
function compile(l: MarkdownLinkifier): Compiled | null {
  const flags = [...new Set((l.flags ?? '').replace(/[^imsuv]/g, ''))].join('');
  const key = `${l.pattern}\u0000${flags}\u0000${l.url_template}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    compiled = null;
    if (typeof l.pattern === 'string' && l.pattern && !hasNestedRepetition(l.pattern)) {
      const unicode = /[uv]/.test(flags);
      // Validate the pattern alone first: wrapping it could make an unbalanced one parse.
      const plain = tryRegExp(l.pattern, flags)
        ? flags
        : !unicode && tryRegExp(l.pattern, flags + 'u')
          ? flags + 'u'
          : null;
      if (plain !== null) {
        const wrapped = (after: string) => `${BEFORE}(?:${l.pattern})${after}`;
        const re =
          tryRegExp(wrapped(AFTER_UNICODE), /[uv]/.test(plain) ? plain + 'g' : plain + 'gu') ??
          tryRegExp(wrapped(AFTER_ASCII), plain + 'g');
        if (re) compiled = { re, template: l.url_template };
      }
    }
    if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
    cache.set(key, compiled);
  }
  return compiled;
}

function pctEncode(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** RFC 6570 encoding: unreserved characters stay; `reserved` also keeps reserved ones and %XX. */
function encodeValue(value: string, reserved: boolean): string {
  const text = wellFormed(value);
  if (!reserved) return encodeURIComponent(text).replace(/[!'()*]/g, pctEncode);
  return encodeURI(text)
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']')
    .replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
}

const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean }> =
  {
    '': { first: '', sep: ',', named: false, reserved: false },
    '+': { first: '', sep: ',', named: false, reserved: true },
    '#': { first: '#', sep: ',', named: false, reserved: true },
    '.': { first: '.', sep: '.', named: false, reserved: false },
    '/': { first: '/', sep: '/', named: false, reserved: false },
    ';': { first: ';', sep: ';', named: true, reserved: false },
    '?': { first: '?', sep: '&', named: true, reserved: false },
    '&': { first: '&', sep: '&', named: true, reserved: false },
  };

/**
 * Expands an RFC 6570 URL template with string values: `{name}` (percent-encoding everything but
 * unreserved characters), `{+name}` (keeping reserved characters), the other level 3 operators,
 * and `{name:3}` prefixes. Undefined variables expand to nothing.
 */
export function expandUrlTemplate(
  template: string,
  values: Record<string, string | undefined>,
): string {
  return template.replace(/\{([+#./;?&]?)([^{}]*)\}/g, (_whole, op: string, body: string) => {
    const o = OPERATORS[op]!;
    const parts: string[] = [];
    for (const spec of body.split(',')) {
      const m = /^([A-Za-z0-9_.%]+)(?::(\d{1,4}))?\*?$/.exec(spec.trim());
      if (!m) continue;
      const name = m[1]!;
      let value = Object.hasOwn(values, name) ? values[name] : undefined;
      if (value === undefined) continue;
      if (m[2]) value = [...value].slice(0, Number(m[2])).join('');
      const encoded = encodeValue(value, o.reserved);
      if (!o.named) parts.push(encoded);
      else parts.push(value === '' && op === ';' ? name : `${name}=${encoded}`);
    }
    return parts.length ? o.first + parts.join(o.sep) : '';
  });
}

interface Match {
  start: number;
  end: number;
  href: string;
}

const MAX_MATCHES = 500;
/** Long texts are matched in whitespace-separated pieces of at most this length, bounding the
 * cost of patterns that backtrack polynomially; words longer than this are not linkified. */
const SEGMENT = 500;

function segments(text: string): [number, number][] {
  if (text.length <= SEGMENT) return [[0, text.length]];
  const out: [number, number][] = [];
  let start = 0;
  while (start < text.length) {
    if (text.length - start <= SEGMENT) {
      out.push([start, text.length]);
      break;
    }
    let cut = start + SEGMENT;
    while (cut > start && !/\s/.test(text[cut]!)) cut--;
    if (cut > start) {
      out.push([start, cut]);
    } else {
      cut = text.slice(start + SEGMENT).search(/\s/);
      if (cut < 0) break;
      cut += start + SEGMENT;
    }
    start = cut + 1;
  }
  return out;
}

function findMatches(text: string, linkifiers: Compiled[]): Match[] {
  const matches: Match[] = [];
  for (const [from, to] of segments(text)) {
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    for (const { re, template } of linkifiers) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while (matches.length < MAX_MATCHES && (m = re.exec(piece)) !== null) {
        if (m[0] === '') {
          re.lastIndex++;
          continue;
        }
        const start = from + m.index;
        const end = start + m[0].length;
        if (matches.some((x) => start < x.end && end > x.start)) continue;
        const href = expandUrlTemplate(template, m.groups ?? {});
        if (isSafeUrl(href)) matches.push({ start, end, href });
      }
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

function linkifyText(state: StateCore, token: Token, linkifiers: Compiled[]): Token[] | null {
  const text = token.content;
  const matches = findMatches(text, linkifiers);
  if (!matches.length) return null;
  const out: Token[] = [];
  const pushText = (content: string) => {
    const t = new state.Token('text', '', 0);
    t.content = content;
    t.level = token.level;
    out.push(t);
  };
  let pos = 0;
  for (const m of matches) {
    if (m.start > pos) pushText(text.slice(pos, m.start));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', m.href]];
    open.markup = 'linkifier';
    out.push(open);
    pushText(text.slice(m.start, m.end));
    out.push(new state.Token('link_close', 'a', -1));
    pos = m.end;
  }
  if (pos < text.length) pushText(text.slice(pos));
  return out;
}

/** Applies the organization's linkifiers to text outside links and code. */
export function linkifierPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_linkifiers', (state) => {
    const env = renderEnv(state.env);
    const list = env?.ctx.linkifiers;
    if (!list?.length) return;
    const compiled = list.map(compile).filter((c): c is Compiled => c !== null);
    if (!compiled.length) return;
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const children: Token[] = [];
      let inLink = 0;
      for (const child of block.children) {
        if (child.type === 'link_open') inLink++;
        else if (child.type === 'link_close') inLink--;
        const replaced =
          child.type === 'text' && inLink === 0 ? linkifyText(state, child, compiled) : null;
        if (replaced) children.push(...replaced);
        else children.push(child);
      }
      block.children = children;
    }
  });
}
