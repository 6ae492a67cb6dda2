import { describe, expect, it } from 'vitest';
import { highlightHtml, highlightTopic, searchMatch } from './search-highlight.js';

const mark = (text: string) => `<span class="highlight">${text}</span>`;

describe('search highlights', () => {
  it('wraps every occurrence of a word, keeping its case', () => {
    expect(highlightHtml('<p>Lunch? lunch!</p>', ['lunch'])).toBe(
      `<p>${mark('Lunch')}? ${mark('lunch')}!</p>`,
    );
  });

  it('leaves tags, attributes and entities alone', () => {
    const html = '<p><a href="https://lunch.example/">lunch &amp; amp</a></p>';
    expect(highlightHtml(html, ['lunch', 'amp'])).toBe(
      `<p><a href="https://lunch.example/">${mark('lunch')} &amp; ${mark('amp')}</a></p>`,
    );
  });

  it('marks the longer of two overlapping words and treats words as plain text', () => {
    expect(highlightHtml('<p>pineapple (a.b)</p>', ['apple', 'pineapple', 'a.b'])).toBe(
      `<p>${mark('pineapple')} (${mark('a.b')})</p>`,
    );
  });

  it('changes nothing without words', () => {
    expect(highlightHtml('<p>x</p>', [])).toBe('<p>x</p>');
  });

  it('escapes a topic before marking it', () => {
    expect(highlightTopic('<b> lunch', ['lunch'])).toBe(`&lt;b&gt; ${mark('lunch')}`);
    expect(searchMatch({ rendered_content: '<p>no</p>', topic: 'lunch' }, ['lunch'])).toEqual({
      match_content: '<p>no</p>',
      match_subject: mark('lunch'),
    });
  });
});
