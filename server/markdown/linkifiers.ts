import type { MarkdownIt } from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import type { RenderEnv } from './mentions.js';
import { isSafeUrl } from './links.js';

interface Compiled {
  re: RegExp;
  template: string;
}

const cache = new Map<string, Compiled | null>();

function compile(pattern: string, template: string): Compiled | null {
  const key = `${pattern}\u0000${template}`;
  if (!cache.has(key)) {
    try {
      cache.set(key, { re: new RegExp(pattern, 'gu'), template });
    } catch {
      cache.set(key, null); // an invalid pattern is skipped, never fatal
    }
    if (cache.size > 1000) cache.delete(cache.keys().next().value!);
  }
  return cache.get(key) ?? null;
}

/** RFC 6570 level 1 and 2 expansion: {name} encodes reserved characters, {+name} keeps them. */
export function expandTemplate(template: string, groups: Record<string, string | undefined>): string {
  return template.replace(/\{(\+?)([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, plus: string, name: string) => {
    const value = groups[name] ?? '';
    return plus ? encodeURI(value) : encodeURIComponent(value);
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
      const href = expandTemplate(template, m.groups ?? {});
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
      .map((l) => compile(l.pattern, l.url_template))
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
