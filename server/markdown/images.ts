import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { RAW_HTML } from './inline.js';
import { escapeHtml } from './links.js';
import { renderEnv } from './types.js';

/** The extensions Zulip previews as images. */
const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
/** Past this many distinct links (outside quotes) a message gets no previews at all, as upstream. */
const PREVIEW_LIMIT = 24;

/** A link to an uploaded file whose name says it is an image. */
export function isUploadedImage(href: string): boolean {
  const p = href.split(/[?#]/, 1)[0]!.toLowerCase();
  return p.startsWith('/user_uploads/') && IMAGE_EXTENSIONS.some((ext) => p.endsWith(ext));
}

interface FoundLink {
  href: string;
  /** the link's leading text, as upstream takes it (null when it starts with markup) */
  text: string | null;
  /** the inline token holding it */
  block: number;
  /** directly in a paragraph (or a list item's hidden one), not inside other inline markup */
  direct: boolean;
  quoted: boolean;
}

function findLinks(tokens: Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  let quotes = 0;
  for (const [i, token] of tokens.entries()) {
    if (token.type === 'blockquote_open') quotes++;
    else if (token.type === 'blockquote_close') quotes--;
    if (token.type !== 'inline' || !token.children) continue;
    const inParagraph = tokens[i - 1]?.type === 'paragraph_open';
    let depth = 0;
    const children = token.children;
    for (const [j, child] of children.entries()) {
      if (child.type === 'link_open') {
        let text: string | null = null;
        for (let k = j + 1; children[k]?.type === 'text'; k++)
          text = (text ?? '') + children[k]!.content;
        const href = String(child.attrGet('href') ?? '');
        found.push({
          href,
          text,
          block: i,
          direct: inParagraph && depth === 0,
          quoted: quotes > 0,
        });
      }
      if (child.type !== 'link_open' && child.type !== 'link_close') depth += child.nesting;
    }
  }
  return found;
}

function previewHtml(href: string, title: string | null): string {
  const url = escapeHtml(href);
  const titleAttr = title === null ? '' : ` title="${escapeHtml(title)}"`;
  return `<div class="message_inline_image"><a href="${url}"${titleAttr}><img src="${url}"></a></div>`;
}

/** A paragraph that is nothing but this link, written as its own URL: upstream drops it for the preview. */
function onlyTheLink(inline: Token, link: FoundLink): boolean {
  const c = inline.children ?? [];
  return (
    c.length === 3 &&
    c[0]!.type === 'link_open' &&
    c[1]!.type === 'text' &&
    c[1]!.content === link.href &&
    c[2]!.type === 'link_close'
  );
}

/**
 * Previews of uploaded images, as Zulip renders them: after the paragraph that links the image,
 * `<div class="message_inline_image"><a href=URL title=TEXT><img src=URL></a></div>` (the title
 * only for named links), once per URL; none inside quotes. The markup is built from the link's
 * already validated href and escaped text only.
 */
function inlineImages(state: StateCore): void {
  const env = renderEnv(state.env);
  if ((env?.quoteDepth ?? 0) > 0) return;
  const links = findLinks(state.tokens);
  const previewable = new Set(links.filter((l) => !l.quoted).map((l) => l.href));
  if (!previewable.size || previewable.size > PREVIEW_LIMIT) return;
  const after = new Map<number, string[]>();
  const atEnd: string[] = [];
  const done = new Set<string>();
  for (const link of links) {
    if (link.quoted || done.has(link.href) || !isUploadedImage(link.href)) continue;
    done.add(link.href);
    const urlIsText = link.text === null || link.text === link.href;
    const html = previewHtml(link.href, urlIsText ? null : link.text);
    if (!link.direct) {
      atEnd.push(html);
      continue;
    }
    const inline = state.tokens[link.block]!;
    const close = link.block + 1;
    after.set(close, [...(after.get(close) ?? []), html]);
    if (urlIsText && onlyTheLink(inline, link)) {
      inline.children = [];
      state.tokens[link.block - 1]!.hidden = true;
      state.tokens[close]!.hidden = true;
    }
  }
  const raw = (html: string) => {
    const t = new state.Token(RAW_HTML, '', 0);
    t.content = html;
    t.block = true;
    return t;
  };
  const out: Token[] = [];
  for (const [i, token] of state.tokens.entries()) {
    out.push(token);
    for (const html of after.get(i) ?? []) out.push(raw(html));
  }
  for (const html of atEnd) out.push(raw(html));
  state.tokens = out;
}

export function inlineImagesPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_inline_images', inlineImages);
}
