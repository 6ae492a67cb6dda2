/**
 * Every HTML string from the server goes through here before it reaches the DOM. DOMPurify
 * removes anything executable; then links open in a new tab without an opener, emoji spans get
 * their Unicode character from the codepoints in their class name, and mentions of the reader
 * are marked so CSS can highlight them.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { uploadPathOf } from './uploads';

let purifier: DOMPurify | null = null;

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  const instance = createDOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      // Narrow links (streams, topics) stay in the app; everything else opens a new tab.
      const internal = internalPath(node.getAttribute('href') ?? '');
      if (internal) {
        node.setAttribute('href', internal);
        node.setAttribute('data-internal', 'true');
      } else {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
  });
  purifier = instance;
  return instance;
}

/** The in-app path of a narrow link (`/#narrow/...` as servers render them), else null. */
export function internalPath(href: string): string | null {
  const match = /^\/?#(narrow\/.*)$/.exec(href);
  return match ? `/${match[1]}` : null;
}

/** `emoji-1f468-200d-1f469` → "👨‍👩"; null when the class is not a codepoint list. */
export function emojiFromClassName(className: string): string | null {
  const match = /(?:^|\s)emoji-([0-9a-f]+(?:-[0-9a-f]+)*)(?:\s|$)/i.exec(className);
  if (!match) return null;
  const codepoints = match[1].split('-').map((hex) => parseInt(hex, 16));
  if (codepoints.some((cp) => !Number.isFinite(cp) || cp > 0x10ffff)) return null;
  return String.fromCodePoint(...codepoints);
}

function renderEmoji(root: Element) {
  for (const span of root.querySelectorAll('span.emoji')) {
    const character = emojiFromClassName(span.className);
    if (character === null) continue;
    // Keep the name for screen readers and hover: the text becomes the glyph.
    const name = (span.textContent ?? '').replace(/^:|:$/g, '');
    span.textContent = character;
    if (!span.hasAttribute('role')) span.setAttribute('role', 'img');
    if (name && !span.hasAttribute('aria-label')) span.setAttribute('aria-label', name);
    if (name && !span.hasAttribute('title')) span.setAttribute('title', name);
  }
}

/**
 * Images of uploads wait for a temporary URL (see uploads.ts) instead of requesting a path that
 * needs credentials; links to uploads are marked so a click can open them the same way.
 */
function deferUploads(root: Element) {
  for (const image of root.querySelectorAll('img[src]')) {
    const path = uploadPathOf(image.getAttribute('src') ?? '');
    if (!path) continue;
    image.removeAttribute('src');
    image.setAttribute('data-upload-src', path);
    image.setAttribute('alt', image.getAttribute('alt') || 'Uploaded image');
  }
  for (const link of root.querySelectorAll('a[href]')) {
    const path = uploadPathOf(link.getAttribute('href') ?? '');
    if (path) link.setAttribute('data-upload', path);
  }
}

function markOwnMentions(root: Element, ownUserId: number) {
  for (const mention of root.querySelectorAll('.user-mention')) {
    const target = mention.getAttribute('data-user-id');
    if (target === '*' || target === String(ownUserId)) mention.classList.add('user-mention-me');
  }
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** Safe HTML for a message body, for one reader. */
export function sanitizeMessageHtml(html: string, ownUserId: number): string {
  const cacheKey = `${ownUserId}\u0000${html}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;

  const body = getPurifier().sanitize(html, {
    RETURN_DOM: true,
    FORBID_TAGS: ['style', 'form'],
    FORBID_ATTR: ['formaction'],
  }) as HTMLElement;
  renderEmoji(body);
  deferUploads(body);
  markOwnMentions(body, ownUserId);
  const safe = body.innerHTML;

  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, safe);
  return safe;
}

/** Safe HTML for other server-rendered strings (stream descriptions, realm description). */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, { FORBID_TAGS: ['style', 'form'] });
}
