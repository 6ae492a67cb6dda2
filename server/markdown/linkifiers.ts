import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { RE2JS, RE2JSException } from 're2js';
import { checkBudget } from './budget.js';
import { isSafeUrl, wellFormed } from './links.js';
import { renderEnv, type MarkdownLinkifier, type RenderEnv } from './types.js';

/**
 * Linkifier patterns are written by administrators in RE2's syntax and run by re2js, a port of
 * RE2: matching takes time linear in the text whatever the pattern, so no pattern can make a
 * message slow to render (JavaScript's RegExp backtracks, and `#(?P<id>[0-9]*[0-9]*z)`-like
 * patterns took seconds per message). The same engine judges what the server accepts.
 */

/**
 * Linear in the text, but the cost per character grows with the compiled program: a pattern
 * bigger than this (`(?:a?){1000}a{1000}`, for one, takes a visible fraction of a second on a
 * long message) is refused like one RE2 cannot compile at all. Real linkifiers take a few dozen.
 */
export const MAX_LINKIFIER_PROGRAM = 1000;
/** Longer patterns are not compiled at all (compiling is linear in the pattern, but 25 MB...). */
export const MAX_LINKIFIER_PATTERN_LENGTH = 1000;

/** The pattern compiled on its own, and its named groups; or why RE2 refuses it. */
export function parseLinkifierPattern(
  pattern: string,
): { ok: true; re: RE2JS; groups: string[] } | { ok: false; error: string } {
  const tooLarge = { ok: false, error: 'pattern too large - compile failed' } as const;
  if (pattern.length > MAX_LINKIFIER_PATTERN_LENGTH) return tooLarge;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    return { ok: false, error: err.message.replace(/^error parsing regexp: /, '') };
  }
  if (re.programSize() > MAX_LINKIFIER_PROGRAM) return tooLarge;
  return { ok: true, re, groups: Object.keys(re.namedGroups()) };
}

interface Compiled {
  /** the pattern inside Zulip's boundaries; group 1 is what gets linked */
  re: RE2JS;
  groups: string[];
  template: string;
}

const cache = new Map<string, Compiled | null>();

/**
 * Zulip's boundaries around a linkifier match (`prepare_linkifier_pattern`): it starts at the
 * beginning of the text or after whitespace or one of '"(,:< and is followed by the end of the
 * text or a character that is neither a letter nor a digit. Both are matched, not looked around
 * (RE2 has no lookaround); the link covers the middle group only.
 */
const withBoundaries = (pattern: string) => `(?:^|[\\s'"(,:<])(${pattern})(?:$|[^\\pL\\pN])`;

/** The linkifier with Zulip's boundaries; null for a pattern the server would refuse. */
function prepare(l: MarkdownLinkifier): Compiled | null {
  if (typeof l.pattern !== 'string' || !l.pattern) return null;
  // The pattern alone first: wrapped in a group, an unbalanced one could parse.
  const alone = parseLinkifierPattern(l.pattern);
  if (!alone.ok) return null;
  try {
    // The boundaries add a few instructions to a program already within the limit.
    const re = RE2JS.compile(withBoundaries(l.pattern));
    return { re, groups: alone.groups, template: l.url_template };
  } catch (err) {
    if (err instanceof RE2JSException) return null;
    throw err;
  }
}

/** A linkifier prepared once and cached by pattern and template. */
function compile(l: MarkdownLinkifier): Compiled | null {
  const key = `${l.pattern}\u0000${l.url_template}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    compiled = prepare(l);
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

/**
 * Every linkifier's matches in the text, earlier linkifiers winning overlaps. Each linkifier
 * scans the text once (a search resumes where the previous link ended, since the boundary
 * character after a link may be the one before the next).
 */
function findMatches(text: string, linkifiers: Compiled[], env: RenderEnv | null): Match[] {
  const matches: Match[] = [];
  for (const { re, groups, template } of linkifiers) {
    checkBudget(env);
    // Most texts match no linkifier: the engine's boolean test (a DFA, often a literal search)
    // says so at a tenth of the cost of a search that tracks groups.
    if (!re.test(text)) continue;
    const m = re.matcher(text);
    let from = 0;
    while (matches.length < MAX_MATCHES && from <= text.length && m.find(from)) {
      const start = m.start(1);
      const end = m.end(1);
      from = Math.max(end, m.start(0) + 1);
      if (end === start) continue;
      if (matches.some((x) => start < x.end && end > x.start)) continue;
      const values: Record<string, string | undefined> = {};
      for (const name of groups) values[name] = m.group(name) ?? undefined;
      const href = expandUrlTemplate(template, values);
      if (isSafeUrl(href)) matches.push({ start, end, href });
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

function linkifyText(state: StateCore, token: Token, linkifiers: Compiled[]): Token[] | null {
  const text = token.content;
  const matches = findMatches(text, linkifiers, renderEnv(state.env));
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
