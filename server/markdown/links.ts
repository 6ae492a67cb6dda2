/** Zulip's URL fragment encoding for narrow links: encodeURIComponent, then '.' for '%'. */
export function hashEncode(text: string): string {
  return encodeURIComponent(text).replace(/\./g, '%2E').replace(/%/g, '.');
}

export function streamSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, '-'))}`;
}

export function streamNarrowUrl(id: number, name: string): string {
  return `/#narrow/channel/${streamSlug(id, name)}`;
}

export function topicNarrowUrl(id: number, name: string, topic: string): string {
  return `${streamNarrowUrl(id, name)}/topic/${hashEncode(topic)}`;
}

const SAFE_SCHEMES = /^(https?:|mailto:)/i;

/** Only http(s), mailto and same-site relative links are ever rendered as links. */
export function isSafeUrl(url: string): boolean {
  const trimmed = url.trim();
  if (trimmed.startsWith('/') || trimmed.startsWith('#')) return true;
  return SAFE_SCHEMES.test(trimmed);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
