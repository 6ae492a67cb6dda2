import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  emojiCodeForName,
  emojiNameForCode,
  expandUrlTemplate,
  renderMarkdown,
  type MarkdownContext,
} from './index.js';

const emojiData = createRequire(import.meta.url)('emoji-datasource/emoji.json') as {
  unified: string;
  short_names: string[];
}[];

const span = (name: string, code: string) =>
  `<span aria-label="${name}" class="emoji emoji-${code}" role="img" title="${name}">:${name}:</span>`;

const GITHUB = {
  id: 1,
  pattern: '#(?<id>[0-9]+)',
  url_template: 'https://github.com/zulip/zulip/issues/{id}',
};
const ctx: MarkdownContext = {
  users: [{ id: 12, full_name: 'King Hamlet' }],
  streams: [{ id: 5, name: 'design' }],
  linkifiers: [
    GITHUB,
    { id: 2, pattern: '(?<bad', url_template: 'https://x/{bad}' },
    {
      id: 3,
      pattern: 'RT-(?<ticket>[A-Z]+-[0-9]+)',
      url_template: 'https://rt.example/ticket/{ticket}',
    },
    { id: 4, pattern: 'doc:(?<path>[a-z/]+)', url_template: 'https://docs.example/{+path}' },
    { id: 5, pattern: 'go:(?<target>\\S+)', url_template: '{+target}' },
    {
      id: 6,
      pattern: 'q:(?<term>[a-z ]+[a-z])!',
      url_template: 'https://search.example/?q={term}',
    },
  ],
};
const html = (text: string) => renderMarkdown(text, ctx).html;
const issue = (n: number | string) =>
  `<a href="https://github.com/zulip/zulip/issues/${n}">#${n}</a>`;

describe('emoji', () => {
  it('renders :shortcodes: in Zulip markup', () => {
    expect(html(':smile:')).toBe(`<p>${span('smile', '1f604')}</p>`);
    expect(html('hi :+1::tada:')).toBe(`<p>hi ${span('+1', '1f44d')}${span('tada', '1f389')}</p>`);
  });

  it('joins the code points of multi-codepoint emoji, dropping FE0F selectors', () => {
    expect(html(':flag-us:')).toBe(`<p>${span('flag-us', '1f1fa-1f1f8')}</p>`);
    expect(html(':heart:')).toBe(`<p>${span('heart', '2764')}</p>`);
    expect(html(':one:')).toBe(`<p>${span('one', '0031-20e3')}</p>`);
  });

  it('leaves unknown shortcodes and emoji in code alone', () => {
    expect(html(':notanemoji: at 10:30:00')).toBe('<p>:notanemoji: at 10:30:00</p>');
    expect(html('`:smile:`')).toBe('<p><code>:smile:</code></p>');
    expect(html('```\n:smile:\n```')).not.toContain('emoji');
  });

  it('wraps typed Unicode emoji the same way, leaving text-style symbols alone', () => {
    expect(html('ok 👍')).toBe(`<p>ok ${span('+1', '1f44d')}</p>`);
    expect(html('🇺🇸 ❤️ 👨‍💻')).toBe(
      `<p>${span('us', '1f1fa-1f1f8')} ${span('heart', '2764')} ${span('male-technologist', '1f468-200d-1f4bb')}</p>`,
    );
    expect(html('© ™ ❤ plain')).toBe('<p>© ™ ❤ plain</p>');
    expect(html('`👍`')).toBe('<p><code>👍</code></p>');
  });

  it('knows every short name of the data set, and Zulip names', () => {
    for (const entry of emojiData) {
      const code = entry.unified
        .toLowerCase()
        .split('-')
        .filter((c) => c !== 'fe0f')
        .join('-');
      for (const name of entry.short_names)
        expect(emojiCodeForName(name), name).toBe(name.startsWith('skin-tone-') ? undefined : code);
    }
    expect(emojiCodeForName('smile')).toBe('1f604');
    expect(emojiCodeForName('thumbs_up')).toBe('1f44d');
    expect(emojiCodeForName('working_on_it')).toBe('1f6e0');
    expect(emojiCodeForName('nope_not_one')).toBeUndefined();
  });

  it('names emoji codes', () => {
    expect(emojiNameForCode('1f604')).toBe('smile');
    expect(emojiNameForCode('2764-FE0F')).toBe('heart');
    expect(emojiNameForCode('1f6e0')).toBe('working_on_it');
    expect(emojiNameForCode('zzzz')).toBeUndefined();
  });
});

describe('linkifiers', () => {
  it('links pattern matches in text with the expanded template', () => {
    expect(html('fixes #123 and #45.')).toBe(`<p>fixes ${issue(123)} and ${issue(45)}.</p>`);
    expect(html('RT-ABC-12')).toBe(
      '<p><a href="https://rt.example/ticket/ABC-12">RT-ABC-12</a></p>',
    );
  });

  it('links inside emphasis, lists and quotes', () => {
    expect(html('**#7**\n- (#8)\n> #9')).toBe(
      `<p><strong>${issue(7)}</strong></p>\n<ul>\n<li>(${issue(8)})</li>\n</ul>\n<blockquote>\n<p>${issue(9)}</p>\n</blockquote>`,
    );
  });

  it('requires a boundary before and after a match', () => {
    expect(html('abc#123 #12x #5')).toBe(`<p>abc#123 #12x ${issue(5)}</p>`);
  });

  it('does not link inside links or code', () => {
    expect(html('[#9](https://example.com)')).toBe('<p><a href="https://example.com">#9</a></p>');
    expect(html('`#9`')).toBe('<p><code>#9</code></p>');
    expect(html('https://example.com/#9')).toBe(
      '<p><a href="https://example.com/#9">https://example.com/#9</a></p>',
    );
  });

  it('percent-encodes values for {name} and keeps reserved characters for {+name}', () => {
    expect(html('q:two words!')).toBe(
      '<p><a href="https://search.example/?q=two%20words">q:two words!</a></p>',
    );
    expect(html('doc:api/messages')).toBe(
      '<p><a href="https://docs.example/api/messages">doc:api/messages</a></p>',
    );
  });

  it('never produces unsafe links from templates', () => {
    expect(html('go:javascript:alert(1)')).toBe('<p>go:javascript:alert(1)</p>');
    expect(html('go:https://ok.example/')).toContain('<a href="https://ok.example/">');
  });

  it('applies earlier linkifiers first on overlaps and skips invalid patterns', () => {
    const overlapping: MarkdownContext = {
      users: [],
      streams: [],
      linkifiers: [
        { id: 1, pattern: '[', url_template: 'https://x/' },
        { id: 2, pattern: '#(?<n>1[0-9]*)', url_template: 'https://first/{n}' },
        GITHUB,
      ],
    };
    expect(renderMarkdown('#12 #34', overlapping).html).toBe(
      `<p><a href="https://first/12">#12</a> ${issue(34)}</p>`,
    );
  });

  it('accepts RE2 flags inline', () => {
    const ci: MarkdownContext = {
      users: [],
      streams: [],
      linkifiers: [{ id: 1, pattern: '(?i)bug(?P<n>\\d+)', url_template: 'https://bugs/{n}' }],
    };
    expect(renderMarkdown('BUG42', ci).html).toBe('<p><a href="https://bugs/42">BUG42</a></p>');
  });

  it('expands RFC 6570 templates', () => {
    const v = { id: 'a b', path: 'c/d', q: "x&y'", empty: '' };
    expect(expandUrlTemplate('https://x/{id}/{+path}', v)).toBe('https://x/a%20b/c/d');
    expect(expandUrlTemplate('https://x/{id}', { id: "!'()*/?#" })).toBe(
      'https://x/%21%27%28%29%2A%2F%3F%23',
    );
    expect(expandUrlTemplate('https://x{/path}{?q,missing}', v)).toBe('https://x/c%2Fd?q=x%26y%27');
    expect(expandUrlTemplate('https://x/{missing}{#id}', v)).toBe('https://x/#a%20b');
    expect(expandUrlTemplate('{+path}{;empty}{&id}', v)).toBe('c/d;empty&id=a%20b');
    expect(expandUrlTemplate('https://x/{id:1}', v)).toBe('https://x/a');
    expect(expandUrlTemplate('https://x/{+path}', { path: '100%25 sure' })).toBe(
      'https://x/100%25%20sure',
    );
  });

  it('runs patterns that backtrack catastrophically in JavaScript in linear time', () => {
    const redos: MarkdownContext = {
      users: [],
      streams: [],
      linkifiers: [
        { id: 1, pattern: '(?P<a>(a+)+)!', url_template: 'https://x/{a}' },
        { id: 2, pattern: '#(?P<id>[0-9]*[0-9]*[0-9]*[0-9]*z)', url_template: 'https://z/{id}' },
        GITHUB,
      ],
    };
    const digits = Array.from({ length: 20 }, () => `#${'1'.repeat(450)}`).join(' ');
    // Each of these took JavaScript's RegExp from seconds to longer than the universe's age.
    expect(renderMarkdown(`#1 ${'a'.repeat(5000)}?`, redos).html).toBe(
      `<p>${issue(1)} ${'a'.repeat(5000)}?</p>`,
    );
    expect(renderMarkdown(digits, redos).html).toContain(issue('1'.repeat(450)));
    expect(renderMarkdown(`${'a'.repeat(30)}!`, redos).html).toBe(
      `<p><a href="https://x/${'a'.repeat(30)}">${'a'.repeat(30)}!</a></p>`,
    );
  });

  it('refuses a message whose rendering outlasts its budget', () => {
    expect(() => renderMarkdown('#12 and $$x^2$$', ctx, { budgetMs: -1 })).toThrow(
      'Unable to render message',
    );
    expect(renderMarkdown('#12', ctx, { budgetMs: 10_000 }).html).toBe(`<p>${issue(12)}</p>`);
  });

  it('still links matches deep inside long texts', () => {
    const long = `${'word '.repeat(400)}#77 ${'more '.repeat(400)}#78`;
    const out = html(long);
    expect(out).toContain(` ${issue(77)} `);
    expect(out).toContain(` ${issue(78)}</p>`);
  });
});
