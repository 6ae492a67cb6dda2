import { describe, expect, it } from 'vitest';
import EMOJI_NAMES from './emoji-names.json' with { type: 'json' };
import {
  emojiCodeForName,
  emojiCodeToNames,
  emojiNameForCode,
  expandUrlTemplate,
  renderMarkdown,
  type MarkdownContext,
} from './index.js';

const span = (name: string, code: string, label = name.replace(/_/g, ' ')) =>
  `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${name}:</span>`;

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
    expect(html(':octopus:')).toBe(`<p>${span('octopus', '1f419')}</p>`);
    expect(html('hi :+1::tada:')).toBe(`<p>hi ${span('+1', '1f44d')}${span('tada', '1f389')}</p>`);
  });

  it("names emoji as the reference does, not as emoji-datasource's short names", () => {
    expect(html(':smile:')).toBe(`<p>${span('smile', '1f642')}</p>`);
    expect(html(':big_smile:')).toBe(
      '<p><span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span></p>',
    );
    expect(html(':poop:')).toBe(`<p>${span('poop', '1f4a9')}</p>`);
    // iamcal's short names that the reference lacks name nothing.
    for (const name of ['hankey', 'slightly_smiling_face', 'thumbsup', 'flag-us', 'satisfied'])
      expect(html(`:${name}:`), name).toBe(`<p>:${name}:</p>`);
  });

  it('takes aliases, each shown under the name typed', () => {
    expect(html(':relaxed: :smiling_face:')).toBe(
      `<p>${span('relaxed', '263a')} ${span('smiling_face', '263a')}</p>`,
    );
    expect(html(':thumbs_up::like:')).toBe(
      `<p>${span('thumbs_up', '1f44d')}${span('like', '1f44d')}</p>`,
    );
    expect(html(':working_on_it: :tools:')).toBe(
      `<p>${span('working_on_it', '1f6e0')} ${span('tools', '1f6e0')}</p>`,
    );
  });

  it('joins the code points of multi-codepoint emoji, dropping FE0F selectors', () => {
    expect(html(':flag_united_states:')).toBe(
      `<p>${span('flag_united_states', '1f1fa-1f1f8')}</p>`,
    );
    expect(html(':heart:')).toBe(`<p>${span('heart', '2764')}</p>`);
    expect(html(':one:')).toBe(`<p>${span('one', '0031-20e3')}</p>`);
    expect(html(':eye_in_speech_bubble:')).toBe(
      `<p>${span('eye_in_speech_bubble', '1f441-200d-1f5e8')}</p>`,
    );
  });

  it('leaves unknown shortcodes and emoji in code alone', () => {
    expect(html(':notanemoji: at 10:30:00')).toBe('<p>:notanemoji: at 10:30:00</p>');
    expect(html('`:smile:`')).toBe('<p><code>:smile:</code></p>');
    expect(html('```\n:smile:\n```')).not.toContain('emoji');
  });

  it('wraps typed Unicode emoji the same way, under their canonical names', () => {
    expect(html('ok 👍')).toBe(`<p>ok ${span('+1', '1f44d')}</p>`);
    expect(html('🙂 😄')).toBe(`<p>${span('smile', '1f642')} ${span('big_smile', '1f604')}</p>`);
    expect(html('🇺🇸 ❤️ 👨‍💻')).toBe(
      `<p>${span('flag_united_states', '1f1fa-1f1f8')} ${span('heart', '2764')} ${span('man_technologist', '1f468-200d-1f4bb')}</p>`,
    );
    expect(html('© ™ ❤ plain')).toBe('<p>© ™ ❤ plain</p>');
    expect(html('`👍`')).toBe('<p><code>👍</code></p>');
  });

  it('leaves typed emoji that the reference does not name as text', () => {
    // Unicode 15.1's phoenix (bird, ZWJ, fire): emoji-datasource knows it, the reference does not.
    expect(html('\u{1f426}\u200d\u{1f525}')).toBe('<p>\u{1f426}\u200d\u{1f525}</p>');
  });

  it("knows every name of the reference's table, and no other", () => {
    const table: Record<string, string[]> = EMOJI_NAMES;
    let count = 0;
    for (const [code, names] of Object.entries(table)) {
      for (const name of names) expect(emojiCodeForName(name), name).toBe(code);
      count += names.length;
    }
    expect(count).toBeGreaterThan(2800);
    expect(emojiCodeForName('smile')).toBe('1f642');
    expect(emojiCodeForName('big_smile')).toBe('1f604');
    expect(emojiCodeForName('relaxed')).toBe('263a');
    expect(emojiCodeForName('thumbs_up')).toBe('1f44d');
    expect(emojiCodeForName('like')).toBe('1f44d');
    expect(emojiCodeForName('working_on_it')).toBe('1f6e0');
    expect(emojiCodeForName('slight_smile')).toBeUndefined();
    expect(emojiCodeForName('skin-tone-3')).toBeUndefined();
    expect(emojiCodeForName('nope_not_one')).toBeUndefined();
    expect(emojiCodeForName('constructor')).toBeUndefined();
  });

  it('names emoji codes by their canonical names', () => {
    expect(emojiNameForCode('1f642')).toBe('smile');
    expect(emojiNameForCode('1f604')).toBe('big_smile');
    expect(emojiNameForCode('263a')).toBe('smiling_face');
    expect(emojiNameForCode('1f44d')).toBe('+1');
    expect(emojiNameForCode('2764-FE0F')).toBe('heart');
    expect(emojiNameForCode('1f6e0')).toBe('working_on_it');
    expect(emojiNameForCode('1f426-200d-1f525')).toBeUndefined();
    expect(emojiNameForCode('zzzz')).toBeUndefined();
    expect(emojiNameForCode('constructor')).toBeUndefined();
  });

  it("serves the table as emoji_api.json's code_to_names, the canonical name first", () => {
    const codeToNames = emojiCodeToNames();
    expect(codeToNames).toEqual(EMOJI_NAMES);
    expect(codeToNames['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
    expect(codeToNames['1f642']).toEqual(['smile']);
    codeToNames['1f642']!.push('changed');
    expect(emojiCodeToNames()['1f642']).toEqual(['smile']);
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
