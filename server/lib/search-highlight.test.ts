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

  it('marks whole words that share a stem with a search word, not parts of words', () => {
    expect(highlightHtml('<p>Running runs; pineapple ran</p>', ['run', 'apple'])).toBe(
      `<p>${mark('Running')} ${mark('runs')}; pineapple ran</p>`,
    );
    expect(highlightHtml('<p>Café cafe</p>', ['cafe'])).toBe(
      `<p>${mark('Café')} ${mark('cafe')}</p>`,
    );
  });

  it('keeps the HTML whole around code, mentions and entities', () => {
    const html =
      '<p><span class="user-mention" data-user-id="4">@running</span> <code>run()</code> &lt;run&gt;</p>';
    expect(highlightHtml(html, ['run'])).toBe(
      `<p><span class="user-mention" data-user-id="4">@${mark('running')}</span> ` +
        `<code>${mark('run')}()</code> &lt;${mark('run')}&gt;</p>`,
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
