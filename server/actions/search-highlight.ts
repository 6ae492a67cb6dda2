import { foldToken, searchStem } from '../domain/search-text.js';

/**
 * The `match_content` and `match_subject` of search results: the rendered message and the
 * escaped topic with every word the search matched wrapped in `<span class="highlight">`, as
 * upstream returns them. A word matches as the full-text index matched it: by its stem, so that
 * a search for "run" marks "running". Only text between tags is touched, never markup or
 * character entities.
 */

const HIGHLIGHT_OPEN = '<span class="highlight">';
const HIGHLIGHT_CLOSE = '</span>';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** A word as the index cuts words (domain/search-text.ts searchTokens). */
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

function markText(text: string, stems: ReadonlySet<string>): string {
  return text.replace(WORD, (word) =>
    stems.has(searchStem(foldToken(word))) ? `${HIGHLIGHT_OPEN}${word}${HIGHLIGHT_CLOSE}` : word,
  );
}

/**
 * Highlights the words of HTML text that share a stem with one of `tokens` (folded search
 * tokens). A word cut by an entity or a tag is two words here, as in the index.
 */
export function highlightHtml(html: string, tokens: readonly string[]): string {
  if (tokens.length === 0) return html;
  const stems = new Set(tokens.map((t) => searchStem(foldToken(t))));
  // Tags and entities pass through untouched; only the text between them is marked.
  return html
    .split(/(<[^>]*>|&[#\w]+;)/)
    .map((part, index) => (index % 2 === 1 ? part : markText(part, stems)))
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
