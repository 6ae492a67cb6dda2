import { stemmer } from 'stemmer';

/**
 * How a search operand is read, the same way for both databases and for highlighting: upstream's
 * full-text search (PostgreSQL's `english` configuration). All words must match, in the content
 * or the topic; words are stemmed ("run" finds "running"); "quoted phrases" match adjacent words;
 * case and accents are ignored; English stop words and punctuation are not searched for.
 */

/** PostgreSQL's english.stop (Snowball's list): words the `english` configuration drops. */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more ' +
    'most other some such no nor not only own same so than too very s t can will just don ' +
    'should now'
  ).split(' '),
);

/**
 * The words of a text as the SQLite index cuts them (FTS5's unicode61 tokenizer: letters,
 * digits and private-use characters; everything else separates), lower-cased and without accents.
 */
export function searchTokens(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).map(foldToken).filter(Boolean);
}

/** Lower case without accents, as `remove_diacritics 2` folds them. */
export function foldToken(token: string): string {
  return token.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export const isStopWord = (token: string) => STOP_WORDS.has(token);

/** The stem a folded token is indexed under (the Porter algorithm, as FTS5's porter tokenizer). */
export const searchStem = (token: string) => stemmer(token);

export interface SearchQuery {
  /** the bare words as typed (PostgreSQL parses them itself) */
  words: string[];
  /** the quoted phrases as typed, without their quotes */
  phrases: string[];
  /** the bare words' tokens that are searched for: no stop words */
  wordTokens: string[];
  /** each phrase's tokens, in order, stop words kept (they hold the other words apart) */
  phraseTokens: string[][];
  /** the tokens a match highlights */
  highlightTokens: string[];
}

/**
 * Reads a search operand as upstream does: `"a quoted phrase"` or a bare word, separated by
 * spaces. A quote left open reads as part of a word.
 */
export function parseSearch(operand: string): SearchQuery {
  const words: string[] = [];
  const phrases: string[] = [];
  for (const [term] of operand.matchAll(/"[^"]+"|\S+/g)) {
    if (term.length > 2 && term.startsWith('"') && term.endsWith('"'))
      phrases.push(term.slice(1, -1));
    else words.push(term);
  }
  const wordTokens = [...new Set(words.flatMap(searchTokens).filter((t) => !isStopWord(t)))];
  const phraseTokens = phrases
    .map(searchTokens)
    .filter((tokens) => tokens.some((t) => !isStopWord(t)));
  const highlightTokens = [
    ...new Set([...wordTokens, ...phraseTokens.flat().filter((t) => !isStopWord(t))]),
  ];
  return { words, phrases, wordTokens, phraseTokens, highlightTokens };
}

/** A query with nothing to search for (only stop words or punctuation) matches no message. */
export const searchesNothing = (q: SearchQuery) =>
  q.wordTokens.length === 0 && q.phraseTokens.length === 0;
