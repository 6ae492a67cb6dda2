/**
 * The `match_content` and `match_subject` of search results: the rendered message and the
 * escaped topic with every occurrence of a search word wrapped in `<span class="highlight">`, as
 * upstream returns them. Only text between tags is touched, never markup or character entities.
 */

const HIGHLIGHT_OPEN = '<span class="highlight">';
const HIGHLIGHT_CLOSE = '</span>';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** A matcher for any of the words, longest first so that overlapping words mark the longer one. */
function wordPattern(words: readonly string[]): RegExp | null {
  const unique = [...new Set(words.map((w) => w.trim()).filter(Boolean))];
  if (unique.length === 0) return null;
  unique.sort((a, b) => b.length - a.length);
  return new RegExp(unique.map(escapeRegExp).join('|'), 'gi');
}

function markText(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match) => `${HIGHLIGHT_OPEN}${match}${HIGHLIGHT_CLOSE}`);
}

/**
 * Highlights words in HTML text. Words are matched against the escaped text, so a word holding
 * `&` or `<` is not found: the same trade-off as comparing with what the reader sees rendered.
 */
export function highlightHtml(html: string, words: readonly string[]): string {
  const pattern = wordPattern(words);
  if (!pattern) return html;
  // Tags and entities pass through untouched; only the text between them is marked.
  return html
    .split(/(<[^>]*>|&[#\w]+;)/)
    .map((part, index) => (index % 2 === 1 ? part : markText(part, pattern)))
    .join('');
}

/** A topic as HTML with its matches highlighted. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return highlightHtml(escapeHtml(topic), words);
}

/** The match fields of one message found by a search. */
export function searchMatch(
  row: { rendered_content: string; topic: string },
  words: readonly string[],
): { match_content: string; match_subject: string } {
  return {
    match_content: highlightHtml(row.rendered_content, words),
    match_subject: highlightTopic(row.topic, words),
  };
}
