import { describe, expect, it } from 'vitest';
import { htmlDiff } from './html-diff';

describe('htmlDiff', () => {
  it('marks replaced words as deleted and inserted, keeping what stayed', () => {
    expect(htmlDiff('<p>The first words</p>', '<p>The second words</p>')).toBe(
      '<div><p>The <span class="highlight_text_deleted">first</span>' +
        '<span class="highlight_text_inserted">second</span> words</p></div>',
    );
  });

  it('marks an added sentence as inserted', () => {
    expect(htmlDiff('<p>Hello</p>', '<p>Hello there, friend</p>')).toBe(
      '<div><p>Hello <span class="highlight_text_inserted">there, friend</span></p></div>',
    );
  });

  it('keeps new markup and shows removed markup only as struck words', () => {
    const diff = htmlDiff('<p>a <em>b</em> c</p>', '<p>a <strong>d</strong> c</p>');
    expect(diff).toContain('<strong><span class="highlight_text_inserted">d</span></strong>');
    expect(diff).toContain('<span class="highlight_text_deleted">b</span>');
    expect(diff).not.toContain('<em>');
  });

  it('compares punctuation apart from words, and never splits a character reference', () => {
    expect(htmlDiff('<p>words</p>', '<p>words, final</p>')).toBe(
      '<div><p>words<span class="highlight_text_inserted">, final</span></p></div>',
    );
    const diff = htmlDiff('<p>a &amp; b</p>', '<p>a &lt; b</p>');
    expect(diff).toContain('<span class="highlight_text_deleted">&amp;</span>');
    expect(diff).toContain('<span class="highlight_text_inserted">&lt;</span>');
  });

  it('is the new rendering, wrapped, when nothing changed', () => {
    expect(htmlDiff('<p>same</p>', '<p>same</p>')).toBe('<div><p>same</p></div>');
  });

  it('stays quick for long messages', () => {
    const long = (word: string) => `<p>${Array.from({ length: 3000 }, () => word).join(' ')}</p>`;
    const started = Date.now();
    const diff = htmlDiff(long('x'), long('y'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(diff).toContain('highlight_text_inserted');
  });
});
