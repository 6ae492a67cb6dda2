import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { previewLinkifier as previewWith } from './linkifier-preview';

const previewLinkifier = (pattern: string, template: string, sample: string) =>
  previewWith(RE2JS, pattern, template, sample);

describe('previewLinkifier', () => {
  it('links every match, filling the template from named groups', () => {
    const preview = previewLinkifier(
      '#(?P<id>[0-9]+)',
      'https://example.com/issues/{id}',
      'See #12 and #345.',
    );
    expect(preview).toEqual({
      ok: true,
      links: [
        { text: '#12', url: 'https://example.com/issues/12' },
        { text: '#345', url: 'https://example.com/issues/345' },
      ],
    });
  });

  it('encodes values, except in reserved expansion', () => {
    const simple = previewLinkifier('go (?P<q>\\S+)', 'https://s.example/?q={q}', 'go a/b');
    expect(simple.ok && simple.links[0].url).toBe('https://s.example/?q=a%2Fb');
    const reserved = previewLinkifier('go (?P<q>\\S+)', 'https://s.example/{+q}', 'go a/b');
    expect(reserved.ok && reserved.links[0].url).toBe('https://s.example/a/b');
  });

  it('honours a leading case-insensitive flag', () => {
    const preview = previewLinkifier('(?i)bug-(?P<n>\\d+)', 'https://b.example/{n}', 'BUG-7');
    expect(preview.ok && preview.links.map((l) => l.url)).toEqual(['https://b.example/7']);
  });

  it('says why a pattern or template is wrong', () => {
    expect(previewLinkifier('', 'https://x', 'a')).toEqual({
      ok: false,
      problem: { kind: 'emptyPattern' },
    });
    const bad = previewLinkifier('(?P<id>[0-9]+', 'https://x/{id}', '');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem.kind).toBe('badPattern');
    expect(previewLinkifier('(?P<id>\\d+)', 'https://x/{id', '')).toEqual({
      ok: false,
      problem: { kind: 'badTemplate' },
    });
    expect(previewLinkifier('(?P<id>\\d+)', 'https://x/{num}', '')).toEqual({
      ok: false,
      problem: { kind: 'unknownVariable', name: 'num' },
    });
    expect(previewLinkifier('(?P<id>\\d+)-(?P<x>\\d+)', 'https://x/{id}', '')).toEqual({
      ok: false,
      problem: { kind: 'unusedGroup', name: 'x' },
    });
  });

  it('finds nothing in a sample without matches', () => {
    expect(previewLinkifier('#(?P<id>\\d+)', 'https://x/{id}', 'no numbers')).toEqual({
      ok: true,
      links: [],
    });
  });

  it('runs patterns in the server\u2019s linear-time engine, never the browser\u2019s RegExp', () => {
    // RegExp backtracks on this sample for longer than the universe has existed.
    const started = performance.now();
    const preview = previewLinkifier('(?P<a>(a+)+)!', 'https://x.example/{a}', 'a'.repeat(5000));
    expect(preview).toEqual({ ok: true, links: [] });
    expect(performance.now() - started).toBeLessThan(5000);
    // RE2 syntax only: no lookaround, as the server refuses it.
    const bad = previewLinkifier('(?<=#)(?P<id>\\d+)', 'https://x/{id}', '#1');
    expect(!bad.ok && bad.problem.kind).toBe('badPattern');
  });

  it('links only between the server\u2019s boundaries', () => {
    const preview = previewLinkifier('#(?P<id>\\d+)', 'https://x/{id}', 'a#1 #2, (#3) #4x');
    expect(preview.ok && preview.links.map((l) => l.text)).toEqual(['#2', '#3']);
  });
});
