import { describe, expect, it } from 'vitest';
import { parseSearch } from '../domain/search-text.js';
import { ftsMatch, searchText } from './search.js';

describe('the text the SQLite index reads', () => {
  it('is the rendered HTML without its tags, with entities decoded', () => {
    expect(
      searchText(
        '<p>Fish &amp; chips &#x27;n&#39; <a href="https://x.example/roadmap">peas</a></p>',
      ),
    ).toBe(" Fish & chips 'n'  peas  ");
    expect(searchText('<p>&unknown; &#0; x</p>')).toBe('     x ');
  });
});

describe('the FTS5 query of a search', () => {
  it('quotes every word and phrase, so nothing is read as query syntax', () => {
    expect(ftsMatch(parseSearch('fox* OR NEAR(a b) col:x "quick fox"'))).toBe(
      '"fox" AND "near" AND "b" AND "col" AND "x" AND "quick fox"',
    );
  });
});
