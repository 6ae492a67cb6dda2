/**
 * Every HTML string from the server goes through here before it reaches the DOM. DOMPurify
 * removes anything executable; then links open in a new tab without an opener, emoji spans get
 * their Unicode character from the codepoints in their class name, mentions of the reader (or of
 * a group they are in) are marked so CSS can highlight them, global times show in the reader's
 * time zone, spoilers get their disclosure button and image previews their name.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { currentLocale, i18n } from '../../i18n';
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
    // Code blocks and tables scroll sideways when too wide: a keyboard reaches them to scroll.
    if (node.tagName === 'PRE' || node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
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

/**
 * Emoji spans as the reader's emoji set wants them. The `text` set shows the `:name:` the server
 * wrote; every other set (google, google-blob, twitter) shows the Unicode character, drawn by the
 * system's emoji font (Parley ships no emoji images).
 */
function renderEmoji(root: Element, emojiset: string) {
  for (const span of root.querySelectorAll('span.emoji')) {
    const character = emojiFromClassName(span.className);
    if (character === null) continue;
    // Keep the name for screen readers and hover: the text becomes the glyph.
    const name = (span.textContent ?? '').replace(/^:|:$/g, '');
    if (emojiset === 'text') span.classList.add('emoji-text');
    else span.textContent = character;
    if (!span.hasAttribute('role')) span.setAttribute('role', 'img');
    if (name && !span.hasAttribute('aria-label')) span.setAttribute('aria-label', name);
    if (name && !span.hasAttribute('title')) span.setAttribute('title', name);
  }
}

/**
 * Servers write KaTeX's markup with the class names of KaTeX 0.16 (`base`, `strut`, `sizing`...);
 * the stylesheet bundled here is KaTeX 0.19's, which prefixes them (`katex-base`). Inside each
 * formula the prefixed name is added beside the plain one, so formulas from any server are laid
 * out by the stylesheet we ship.
 */
const KATEX_RENAMED = new Set(
  'accent base fix hdashline hline inner newline overlay overline root rule sizing smash sout stretchy strut tag thinbox underline vbox'.split(
    ' ',
  ),
);

function katexClassNames(root: Element) {
  for (const formula of root.querySelectorAll('.katex')) {
    for (const element of formula.querySelectorAll('[class]')) {
      for (const name of [...element.classList])
        if (KATEX_RENAMED.has(name)) element.classList.add(`katex-${name}`);
    }
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
    image.setAttribute(
      'alt',
      image.getAttribute('alt') || i18n.t('messages:content.uploadedImage'),
    );
  }
  for (const link of root.querySelectorAll('a[href]')) {
    const path = uploadPathOf(link.getAttribute('href') ?? '');
    if (path) link.setAttribute('data-upload', path);
  }
}

/**
 * Mentions that concern the reader, highlighted as the reference app does: of them, of everyone
 * (channel and topic wildcards), or of a group they are in through any subgroup. Silent mentions
 * notify nobody, so they are not highlighted.
 */
function markOwnMentions(root: Element, ownUserId: number, groupIds: readonly number[]) {
  const groups = new Set(groupIds.map(String));
  for (const mention of root.querySelectorAll(
    '.user-mention, .topic-mention, .user-group-mention',
  )) {
    if (mention.classList.contains('silent')) continue;
    const user = mention.getAttribute('data-user-id');
    const group = mention.getAttribute('data-user-group-id');
    const mine = mention.classList.contains('topic-mention')
      ? true
      : mention.classList.contains('user-group-mention')
        ? group !== null && groups.has(group)
        : user === '*' || user === String(ownUserId);
    if (mine) mention.classList.add('user-mention-me');
  }
}

/** `<time datetime>` (global times) in the reader's zone and clock; the typed text in the title. */
function localizeTimes(root: Element, twentyFourHour: boolean) {
  for (const time of root.querySelectorAll('time[datetime]')) {
    const instant = new Date(time.getAttribute('datetime') ?? '');
    if (Number.isNaN(instant.getTime())) continue;
    const typed = (time.textContent ?? '').trim();
    time.textContent = instant.toLocaleString(currentLocale(), {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: !twentyFourHour,
    });
    const full = instant.toLocaleString(currentLocale(), {
      dateStyle: 'full',
      timeStyle: 'long',
      hour12: !twentyFourHour,
    });
    time.setAttribute(
      'title',
      `${full}. This time is in your time zone.${typed ? ` Original text: ${typed}` : ''}`,
    );
    time.classList.add('rendered-time');
  }
}

/**
 * Spoilers start closed: the header gets a disclosure button (clicks on it are handled by
 * spoilers.ts), and the content a wrapper that lets it open with an animation.
 */
function prepareSpoilers(root: Element) {
  const doc = root.ownerDocument;
  for (const block of root.querySelectorAll('div.spoiler-block')) {
    const header = block.querySelector(':scope > .spoiler-header');
    const content = block.querySelector(':scope > .spoiler-content');
    if (!header || !content) continue;
    const label = (header.textContent ?? '').trim();
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'spoiler-toggle';
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute(
      'aria-label',
      label
        ? i18n.t('messages:content.spoilerLabel', { label })
        : i18n.t('messages:content.spoiler'),
    );
    const arrow = doc.createElement('span');
    arrow.className = 'spoiler-arrow';
    arrow.setAttribute('aria-hidden', 'true');
    button.append(arrow);
    header.prepend(button);
    if (!label) {
      const placeholder = doc.createElement('span');
      placeholder.className = 'spoiler-placeholder';
      placeholder.textContent = i18n.t('messages:content.spoiler');
      placeholder.setAttribute('aria-hidden', 'true');
      header.append(placeholder);
    }
    const inner = doc.createElement('div');
    inner.className = 'spoiler-inner';
    inner.append(...content.childNodes);
    content.append(inner);
    content.setAttribute('aria-hidden', 'true');
  }
}

/** Code blocks get a button that copies their text (handled by content-clicks.ts). */
function addCopyButtons(root: Element) {
  for (const block of root.querySelectorAll('div.codehilite')) {
    const button = root.ownerDocument.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.textContent = i18n.t('messages:content.copy');
    button.setAttribute('aria-label', i18n.t('messages:content.copyCode'));
    block.prepend(button);
  }
}

/** Image previews open the image viewer: their links say so, their images have a name. */
function labelImagePreviews(root: Element) {
  for (const link of root.querySelectorAll('.message_inline_image > a')) {
    const image = link.querySelector('img');
    if (!image) continue; // a video preview: it plays in place
    const href = link.getAttribute('href') ?? '';
    const name =
      link.getAttribute('title') ||
      decodeURIComponentSafe(href.split(/[?#]/, 1)[0]!.split('/').pop() ?? '') ||
      i18n.t('messages:content.image');
    image.setAttribute('alt', name);
    link.setAttribute('aria-label', i18n.t('messages:content.viewImage', { name }));
    link.setAttribute('data-image-preview', 'true');
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface Reader {
  /** the groups the reader is in, through subgroups too */
  groupIds?: readonly number[];
  /** the reader's clock (twenty_four_hour_time) */
  twentyFourHour?: boolean;
  /** the reader's emoji set (emojiset): `text` shows emoji as `:name:` */
  emojiset?: string;
}

/**
 * KaTeX wraps its MathML in `<semantics>` with the TeX source in an `<annotation>` (text only),
 * which DOMPurify leaves out by default; `annotation-xml`, which can hold HTML, stays out.
 */
const KATEX_MATHML_TAGS = ['semantics', 'annotation'];
const KATEX_MATHML_ATTRS = ['encoding'];

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** Safe HTML for a message body, for one reader. */
export function sanitizeMessageHtml(html: string, ownUserId: number, reader: Reader = {}): string {
  const groupIds = reader.groupIds ?? [];
  const twentyFourHour = reader.twentyFourHour ?? false;
  const emojiset = reader.emojiset ?? 'google';
  const cacheKey = `${currentLocale()}\u0000${ownUserId}\u0000${groupIds.join(',')}\u0000${twentyFourHour}\u0000${emojiset}\u0000${html}`;
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;

  const body = getPurifier().sanitize(html, {
    RETURN_DOM: true,
    FORBID_TAGS: ['style', 'form'],
    FORBID_ATTR: ['formaction'],
    ADD_TAGS: KATEX_MATHML_TAGS,
    ADD_ATTR: KATEX_MATHML_ATTRS,
  }) as HTMLElement;
  renderEmoji(body, emojiset);
  katexClassNames(body);
  deferUploads(body);
  markOwnMentions(body, ownUserId, groupIds);
  localizeTimes(body, twentyFourHour);
  prepareSpoilers(body);
  addCopyButtons(body);
  labelImagePreviews(body);
  const safe = body.innerHTML;

  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, safe);
  return safe;
}

/** Safe HTML for other server-rendered strings (stream descriptions, realm description). */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    FORBID_TAGS: ['style', 'form'],
    ADD_TAGS: KATEX_MATHML_TAGS,
    ADD_ATTR: KATEX_MATHML_ATTRS,
  });
}
