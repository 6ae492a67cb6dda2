const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text as the reference does in message text: `&`, `<` and `>` only (quotes are harmless
 * outside attributes, and upstream leaves them as typed).
 */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => HTML_ESCAPES[c]!);
}

/** Escapes text for use in HTML content and in double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces unpaired surrogates (which make encodeURIComponent throw) with U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Zulip's "hash_util" encoding for narrow URLs: encodeURIComponent, then '.' becomes '.2E'
 * and every '%' becomes '.'.
 */
export function hashEncode(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/\./g, '%2E').replace(/%/g, '.');
}

/** `5-design-team` for stream 5 named "design team". */
export function streamSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, '-'))}`;
}

export function streamNarrowUrl(id: number, name: string): string {
  return `/#narrow/channel/${streamSlug(id, name)}`;
}

export function topicNarrowUrl(id: number, name: string, topic: string): string {
  return `${streamNarrowUrl(id, name)}/topic/${hashEncode(topic)}`;
}

/**
 * The schemes the reference links: http(s), ftp, and the HTML standard's safelisted schemes
 * (tel:, sms:, mailto:, xmpp:...), which hand the address to another application and run nothing
 * in the page. Not file: (the reference only links it on request).
 */
const SAFE_SCHEME =
  /^(?:https?|ftp|bitcoin|geo|im|irc|ircs|magnet|mailto|matrix|mms|news|nntp|openpgp4fpr|sip|sms|smsto|ssh|tel|urn|webcal|wtai|xmpp):/i;

/**
 * Only links with the schemes above and same-site relative links (starting with '/' or '#')
 * become links. Protocol-relative URLs ('//host', and '/\host' which browsers treat alike) are
 * refused.
 */
export function isSafeUrl(url: string): boolean {
  const u = url.trim();
  if (u.startsWith('#')) return true;
  if (u.startsWith('/')) return !/^\/[/\\]/.test(u);
  return SAFE_SCHEME.test(u);
}
