const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

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

const SAFE_SCHEME = /^(?:https?|mailto):/i;

/**
 * Only http(s), mailto and same-site relative links (starting with '/' or '#') become links.
 * Protocol-relative URLs ('//host', and '/\host' which browsers treat alike) are refused.
 */
export function isSafeUrl(url: string): boolean {
  const u = url.trim();
  if (u.startsWith('#')) return true;
  if (u.startsWith('/')) return !/^\/[/\\]/.test(u);
  return SAFE_SCHEME.test(u);
}
