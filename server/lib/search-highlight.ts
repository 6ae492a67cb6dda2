import { foldToken, searchStem } from '../domain/search-text.js';
import { escapeHtml } from '../markdown/links.js';

/**
 * The `match_content` and `match_subject` of search results: the rendered message and the
 * escaped topic with every word the search matched wrapped in `<span class="highlight">`, as
 * upstream returns them. A word matches as the full-text index matched it: by its stem, so that
 * a search for "run" marks "running". Only text between tags is touched, never markup or
 * character entities.
 */

const HIGHLIGHT_OPEN = '<span class="highlight">';
const HIGHLIGHT_CLOSE = '</span>';

/** A word as the index cuts words (domain/search-text.ts searchTokens). */
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * Whether a word of the text is a match, remembered per word: a page of results repeats most of
 * its words, and stemming each occurrence anew was most of the highlighting's time.
 */
function matcher(tokens: readonly string[]): (word: string) => boolean {
  const stems = new Set(tokens.map((t) => searchStem(foldToken(t))));
  const known = new Map<string, boolean>();
  return (word) => {
    let matches = known.get(word);
    if (matches === undefined) known.set(word, (matches = stems.has(searchStem(foldToken(word)))));
    return matches;
  };
}

function markHtml(html: string, matches: (word: string) => boolean): string {
  // Tags and entities pass through untouched; only the text between them is marked.
  return html
    .split(/(<[^>]*>|&[#\w]+;)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(WORD, (word) =>
            matches(word) ? `${HIGHLIGHT_OPEN}${word}${HIGHLIGHT_CLOSE}` : word,
          ),
    )
    .join('');
}

/**
 * Highlights the words of HTML text that share a stem with one of `tokens` (folded search
 * tokens). A word cut by an entity or a tag is two words here, as in the index.
 */
export function highlightHtml(html: string, tokens: readonly string[]): string {
  return tokens.length === 0 ? html : markHtml(html, matcher(tokens));
}

/** A topic as HTML with its matches highlighted. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return highlightHtml(escapeHtml(topic), words);
}

type MatchFields = { match_content: string; match_subject: string };

/** The match fields of the messages found by a search for `words`, one message at a time. */
export function searchMatcher(
  words: readonly string[],
): (row: { rendered_content: string; topic: string }) => MatchFields {
  if (words.length === 0)
    return (row) => ({ match_content: row.rendered_content, match_subject: escapeHtml(row.topic) });
  const matches = matcher(words);
  return (row) => ({
    match_content: markHtml(row.rendered_content, matches),
    match_subject: markHtml(escapeHtml(row.topic), matches),
  });
}

/** The match fields of one message found by a search. */
export function searchMatch(
  row: { rendered_content: string; topic: string },
  words: readonly string[],
): MatchFields {
  return searchMatcher(words)(row);
}
