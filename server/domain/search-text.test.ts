import { describe, expect, it } from 'vitest';
import { parseSearch, searchesNothing, searchTokens } from './search-text.js';

describe('search operands', () => {
  it('reads bare words and quoted phrases, dropping stop words from the words', () => {
    const q = parseSearch('The Running "quick brown fox" café');
    expect(q.words).toEqual(['The', 'Running', 'café']);
    expect(q.phrases).toEqual(['quick brown fox']);
    expect(q.wordTokens).toEqual(['running', 'cafe']);
    expect(q.phraseTokens).toEqual([['quick', 'brown', 'fox']]);
    expect(q.highlightTokens).toEqual(['running', 'cafe', 'quick', 'brown', 'fox']);
  });

  it('keeps stop words inside a phrase, which hold its other words apart', () => {
    expect(parseSearch('"state of the art"').phraseTokens).toEqual([['state', 'of', 'the', 'art']]);
  });

  it('searches nothing for punctuation, stop words and empty quotes', () => {
    for (const operand of ['', '   ', '!!! ...', 'the and of', '""', '"to be or not to be"'])
      expect(searchesNothing(parseSearch(operand)), operand).toBe(true);
    expect(searchesNothing(parseSearch('"unclosed'))).toBe(false);
  });

  it('cuts words at anything but letters and digits', () => {
    expect(searchTokens("snake_case don't e-mail v1.2 日本語 ÉCOLE")).toEqual([
      'snake', 'case', 'don', 't', 'e', 'mail', 'v1', '2', '日本語', 'ecole',
    ]); // prettier-ignore
  });
});
