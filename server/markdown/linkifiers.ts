import type { MarkdownIt } from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import type { RenderEnv } from './mentions.js';
import { isSafeUrl } from './links.js';

interface Compiled {
  re: RegExp;
  template: string;
}

const cache = new Map<string, Compiled | null>();

function compile(pattern: string, flags: string, template: string): Compiled | null {
  const key = `${pattern}\u0000${flags}\u0000${template}`;
  if (!cache.has(key)) {
    let compiled: Compiled | null = null;
    for (const extra of ['g', 'gu']) {
      try {
        compiled = { re: new RegExp(pattern, flags + extra), template };
        break;
      } catch {
        // an invalid pattern is skipped, never fatal
      }
    }
    cache.set(key, compiled);
    if (cache.size > 1000) cache.delete(cache.keys().next().value!);
  }
  return cache.get(key) ?? null;
}

/** RFC 6570 expansion (levels 1 to 3 and prefixes) of a linkifier's URL template. */
export function expandUrlTemplate(template: string, values: Record<string, string>): string {
  const encode = (s: string, reserved: boolean) =>
    reserved ? encodeURI(s).replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_whole, op: string, body: string) => {
    const parts = body.split(',').map((spec) => {
      const [, name, prefix] = /^([^:*]+)(?::(\d+))?\*?$/.exec(spec) ?? [];
      let value = values[name];
      if (value === undefined) return null;
      if (prefix) value = value.slice(0, Number(prefix));
      const text = encode(value, op === '+' || op === '#');
      if (op === ';') return value === '' ? name : `${name}=${text}`;
      if (op === '?' || op === '&') return `${name}=${text}`;
      return text;
    }).filter((x): x is string => x !== null);
    if (!parts.length) return '';
    const first = { '': '', '+': '', '#': '#', '.': '.', '/': '/', ';': ';', '?': '?', '&': '&' }[op] ?? '';
    const sep = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/', ';': ';', '?': '&', '&': '&' }[op] ?? ',';
    return first + parts.join(sep);
  });
}


function linkifyText(state: StateCore, text: string, linkifiers: Compiled[]): Token[] | null {
  type Match = { start: number; end: number; href: string };
  const matches: Match[] = [];
  for (const { re, template } of linkifiers) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      if (m[0] === '') break;
      const start = m.index!;
      const end = start + m[0].length;
      if (matches.some((x) => start < x.end && end > x.start)) continue;
      const href = expandUrlTemplate(template, (m.groups ?? {}) as Record<string, string>);
      if (isSafeUrl(href)) matches.push({ start, end, href });
    }
  }
  if (!matches.length) return null;
  matches.sort((a, b) => a.start - b.start);
  const out: Token[] = [];
  let pos = 0;
  const text_ = (content: string) => {
    const t = new state.Token('text', '', 0);
    t.content = content;
    out.push(t);
  };
  for (const m of matches) {
    if (m.start > pos) text_(text.slice(pos, m.start));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', m.href]];
    out.push(open);
    text_(text.slice(m.start, m.end));
    out.push(new state.Token('link_close', 'a', -1));
    pos = m.end;
  }
  if (pos < text.length) text_(text.slice(pos));
  return out;
}

/** Applies the organization's linkifiers to plain text outside links and code. */
export function linkifierPlugin(md: MarkdownIt) {
  md.core.ruler.push('zulip_linkifiers', (state) => {
    const env = state.env as unknown as RenderEnv;
    const compiled = (env?.ctx?.linkifiers ?? [])
      .map((l) => compile(l.pattern, l.flags ?? '', l.url_template))
      .filter((c): c is Compiled => c !== null);
    if (!compiled.length) return;
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const children: Token[] = [];
      let linkDepth = 0;
      for (const child of block.children) {
        if (child.type === 'link_open') linkDepth++;
        if (child.type === 'link_close') linkDepth--;
        const replaced = child.type === 'text' && linkDepth === 0 ? linkifyText(state, child.content, compiled) : null;
        if (replaced) children.push(...replaced);
        else children.push(child);
      }
      block.children = children;
    }
  });
}
