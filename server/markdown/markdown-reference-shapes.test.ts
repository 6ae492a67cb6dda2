import { describe, expect, it } from 'vitest';
import { renderMarkdown, type MarkdownContext } from './index.js';

/**
 * The reference server's markup, feature by feature, on inputs of our own: these guard parity
 * where the reference's own suite (server/test/markdown-parity.test.ts) is not at hand.
 */

const ctx: MarkdownContext = {
  users: [{ id: 7, full_name: 'Ada Lovelace' }],
  streams: [],
  realmUrl: 'https://chat.example.org',
};
const html = (text: string, extra: Partial<MarkdownContext> = {}) =>
  renderMarkdown(text, { ...ctx, ...extra }).html;

describe('text and escaping', () => {
  it('escapes only &, < and > in text, and keeps character references as typed', () => {
    expect(html(`Bob's "plan" <b> & &copy; &#169;`)).toBe(
      `<p>Bob's "plan" &lt;b&gt; &amp; &copy; &#169;</p>`,
    );
  });

  it('has no backslash escapes, reference links, setext headings or <...> autolinks', () => {
    expect(html('\\*not emphasis\\*')).toBe('<p>\\<em>not emphasis\\</em></p>');
    expect(html('see [docs]\n\n[docs]: https://example.org/d')).toBe(
      '<p>see [docs]</p>\n<p>[docs]: <a href="https://example.org/d">https://example.org/d</a></p>',
    );
    expect(html('Title\n=====')).toBe('<p>Title<br>\n=====</p>');
    expect(html('<https://example.org>')).toBe(
      '<p>&lt;<a href="https://example.org">https://example.org</a>&gt;</p>',
    );
  });
});

describe('emphasis', () => {
  it('keeps bold and italics on one line, and needs no space inside the stars', () => {
    expect(html('**bold\nstill**')).toBe('<p>**bold<br>\nstill**</p>');
    expect(html('a * b * c and *x*y')).toBe('<p>a * b * c and <em>x</em>y</p>');
    expect(html('int *p = (int *)q')).toBe('<p>int *p = (int *)q</p>');
  });

  it('nests bold outside italics for three stars, and strikes through with spaces inside', () => {
    expect(html('***both***')).toBe('<p><strong><em>both</em></strong></p>');
    expect(html('x ~~ gone ~~ y ~~~no~~~')).toBe('<p>x <del> gone </del> y ~~~no~~~</p>');
  });

  it('reads a mention inside bold as one piece', () => {
    expect(html('**@**Ada Lovelace****')).toBe(
      '<p><strong><span class="user-mention" data-user-id="7">@Ada Lovelace</span></strong></p>',
    );
  });
});

describe('inline code', () => {
  it('keeps the spaces inside and stays on one line', () => {
    expect(html('`  a  ` and ``b`c``')).toBe('<p><code>  a  </code> and <code>b`c</code></p>');
    expect(html('`open\nclose`')).toBe('<p>`open<br>\nclose`</p>');
    expect(html('`<i>&amp;</i>`')).toBe('<p><code>&lt;i&gt;&amp;amp;&lt;/i&gt;</code></p>');
  });
});

describe('fenced blocks', () => {
  const code = (body: string, lang?: string) =>
    `<div class="codehilite"${lang ? ` data-code-language="${lang}"` : ''}><pre><span></span><code>${body}</code></pre></div>`;

  it('closes a fence only on the same fence, and strips trailing whitespace and edge blank lines', () => {
    expect(html('~~~~\n\nkeep ~~~ and ```\nend  \t\n\n~~~~')).toBe(code('keep ~~~ and ```\nend\n'));
    expect(html('```\nnever closed\n````')).toBe(code('never closed\n````\n'));
  });

  it('reads the language with an optional dot or braces, and refuses other fence lines', () => {
    expect(html('~~~{.MadeUpLang}\nx\n~~~')).toBe(code('x\n', 'madeuplang'));
    expect(html('```wat is this```')).toBe('<p><code>wat is this</code></p>');
    expect(html('~~~~~x: y ~~~~')).toBe('<p>~~~~~x: y ~~~~</p>');
  });

  it("keeps Pygments' escaping of quotes in code", () => {
    expect(html('```\nsay "hi" & \'bye\'\n```')).toBe(
      code('say &quot;hi&quot; &amp; &#39;bye&#39;\n'),
    );
  });

  it('makes a quote block of its Markdown, nesting fences inside', () => {
    expect(html('```quote\nOne *two*\n~~~\ncode\n~~~\n```\nafter')).toBe(
      '<blockquote>\n<p>One <em>two</em></p>\n' + code('code\n') + '\n</blockquote>\n<p>after</p>',
    );
  });

  it('puts a spoiler header and content on lines of their own', () => {
    expect(html('~~~spoiler Look **here**\n- a\n- b\n~~~')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>Look <strong>here</strong></p>\n' +
        '</div><div class="spoiler-content" aria-hidden="true">\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</div></div>',
    );
  });
});

describe('syntax highlighting', () => {
  it("names Pygments' lexer and marks self as a pseudo-builtin", () => {
    expect(html('```py3\nreturn self + n2 * 2\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
        '<span class="k">return</span> <span class="bp">self</span> <span class="o">+</span> ' +
        '<span class="n">n2</span> <span class="o">*</span> <span class="mi">2</span>\n</code></pre></div>',
    );
    expect(html('```python2\nx\n```')).toContain('data-code-language="Python 2.x"');
  });

  it('highlights a block that names its language in a first #! or ::: line, without the attribute', () => {
    const out = html('```\n#!/usr/bin/env python\npass\n```');
    expect(out).toMatch(/^<div class="codehilite"><pre>/);
    expect(out).toContain('<span class="ch">#!/usr/bin/env python</span>');
  });

  it('marks TeX braces as Pygments does', () => {
    expect(html('```latex\n\\emph{x}\n```')).toBe(
      '<div class="codehilite" data-code-language="TeX"><pre><span></span><code>' +
        '<span class="k">\\emph</span><span class="nb">{</span>x<span class="nb">}</span>\n</code></pre></div>',
    );
  });
});

describe('block quotes', () => {
  it('takes the rest of the block into the quote, and leaves quotes of nothing as text', () => {
    expect(html('> first\nlazy line')).toBe(
      '<blockquote>\n<p>first<br>\nlazy line</p>\n</blockquote>',
    );
    expect(html('>')).toBe('<p>&gt;</p>');
    expect(html('>>')).toBe('<blockquote>\n<p>&gt;</p>\n</blockquote>');
    expect(html('>\n> \nnot empty')).toBe('<blockquote>\n<p>not empty</p>\n</blockquote>');
  });
});

describe('lists', () => {
  it('nests by two spaces and numbers nested lists from their first item', () => {
    expect(html('5. five\n  7. seven\n  8. eight\n6. six')).toBe(
      '<ol start="5">\n<li>five\n<ol start="7">\n<li>seven</li>\n<li>eight</li>\n</ol>\n</li>\n<li>six</li>\n</ol>',
    );
  });

  it('makes one list of mixed bullets, hanging off a paragraph', () => {
    expect(html('Shopping:\n+ eggs\n* milk\n- bread')).toBe(
      '<p>Shopping:</p>\n<ul>\n<li>eggs</li>\n<li>milk</li>\n<li>bread</li>\n</ul>',
    );
  });

  it('starts a new list where numbers follow bullets', () => {
    expect(html('* a\n1. b')).toBe('<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>');
  });

  it('leaves a four-space block after a blank line as code', () => {
    expect(html('text\n\n    1. not a list')).toBe(
      '<p>text</p>\n<div class="codehilite"><pre><span></span><code>1. not a list\n</code></pre></div>',
    );
  });
});

describe('links', () => {
  it('shows the URL of a link without text, and makes links into the organization relative', () => {
    expect(html('[ ](https://example.org/x)')).toBe(
      '<p><a href="https://example.org/x">https://example.org/x</a></p>',
    );
    expect(html('[here](https://chat.example.org/#narrow/channel/3-x)')).toBe(
      '<p><a href="#narrow/channel/3-x">here</a></p>',
    );
    expect(html('https://chat.example.org/#narrow/dm/7-Ada')).toBe(
      '<p><a href="#narrow/dm/7-Ada">https://chat.example.org/#narrow/dm/7-Ada</a></p>',
    );
    expect(html('[f](https://chat.example.org/user_uploads/2/ab/f.pdf)')).toBe(
      '<p><a href="/user_uploads/2/ab/f.pdf">f</a></p>',
    );
  });

  it('adds http:// to a destination without a scheme, and links safelisted schemes', () => {
    expect(html('[site](example.org/a)')).toBe('<p><a href="http://example.org/a">site</a></p>');
    expect(html('[ring](tel:+15550100) [chat](xmpp:ada@example.org)')).toBe(
      '<p><a href="tel:+15550100">ring</a> <a href="xmpp:ada@example.org">chat</a></p>',
    );
    expect(html('[x](file:///etc/hosts) [y](vbscript:x)')).toBe(
      '<p>[x](file:///etc/hosts) [y](vbscript:x)</p>',
    );
  });
});

describe('autolinks', () => {
  const a = (href: string, text = href) => `<a href="${href}">${text}</a>`;

  it('links domains under known top-level domains, with http://', () => {
    expect(html('try docs.example.io or zulip.co.uk')).toBe(
      `<p>try ${a('http://docs.example.io', 'docs.example.io')} or ${a('http://zulip.co.uk', 'zulip.co.uk')}</p>`,
    );
    expect(html('edit setup.py and notes.md, call x.format()')).toBe(
      '<p>edit setup.py and notes.md, call x.format()</p>',
    );
  });

  it('leaves trailing punctuation out and keeps balanced parentheses in', () => {
    expect(html('(see https://example.org/a_(b)_c).')).toBe(
      `<p>(see ${a('https://example.org/a_(b)_c')}).</p>`,
    );
    expect(html('https://example.org/q?a=1,b=2, then')).toBe(
      `<p>${a('https://example.org/q?a=1,b=2')}, then</p>`,
    );
  });

  it('links e-mail addresses with mailto:, and starts only after a space or opening mark', () => {
    expect(html('mail ada@example.org!')).toBe(
      `<p>mail ${a('mailto:ada@example.org', 'ada@example.org')}!</p>`,
    );
    expect(html('x/example.org "example.org"')).toBe(
      `<p>x/example.org "${a('http://example.org', 'example.org')}"</p>`,
    );
    expect(html('http://localhost:8080/x')).toBe(`<p>${a('http://localhost:8080/x')}</p>`);
  });

  it('refuses javascript: and links the domain after it as text', () => {
    expect(html('javascript:alert(1)//example.org')).toBe(
      '<p>javascript:alert(1)//example.org</p>',
    );
    expect(html('[go](javascript:example.org)')).toBe(
      `<p>[go](javascript:${a('http://example.org', 'example.org')})</p>`,
    );
  });
});

describe('global times', () => {
  it('reads dates as people write them, with zones', () => {
    expect(html('<time:March 3rd 2025, 9:15pm>')).toBe(
      '<p><time datetime="2025-03-03T21:15:00Z">March 3rd 2025, 9:15pm</time></p>',
    );
    expect(html('<time:1 Feb 2024 10:00 PST>')).toBe(
      '<p><time datetime="2024-02-01T18:00:00Z">1 Feb 2024 10:00 PST</time></p>',
    );
  });

  it('ends at the first >, and says so when there is no time', () => {
    expect(html('<time:<i>>')).toBe(
      '<p><span class="timestamp-error">Invalid time format: &lt;i</span>&gt;</p>',
    );
  });
});

describe('math', () => {
  it('renders KaTeX with its MathML and TeX annotation, and the reference class names', () => {
    const out = html('area $$\\pi r^2$$.');
    expect(out).toMatch(/^<p>area <span class="katex"><span class="katex-mathml"><math /);
    expect(out).toContain('<annotation encoding="application/x-tex">\\pi r^2</annotation>');
    expect(out).toContain('<span class="base"><span class="strut"');
    expect(out).not.toContain('katex-base');
  });

  it('writes what KaTeX refuses as a tex-error, inline with its dollars', () => {
    expect(html('$$\\nope<x>$$')).toBe('<p><span class="tex-error">$$\\nope&lt;x&gt;$$</span></p>');
    expect(html("~~~math\n\\nope{'a'}\n~~~")).toBe(
      '<p><span class="tex-error">\\nope{&#x27;a&#x27;}</span></p>',
    );
  });

  it('needs $$ away from letters, not starting with _, on one line', () => {
    expect(html('a$$x$$ $$_x$$ $$x\ny$$')).toBe('<p>a$$x$$ $$_x$$ $$x<br>\ny$$</p>');
  });
});

describe('emoji', () => {
  it('labels emoji with their name, underscores as spaces', () => {
    expect(html(':thumbs_up:')).toBe(
      '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>',
    );
  });

  it('uses up the colons of a name that is no emoji, and has no skin tone emoji', () => {
    expect(html(':nah:thumbs_up: :skin-tone-3:')).toBe('<p>:nah:thumbs_up: :skin-tone-3:</p>');
  });

  it("shows the reference's :zulip: image", () => {
    expect(html(':zulip:')).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
  });

  it('translates emoticons between spaces and punctuation for senders who asked', () => {
    const out = html('hi :) ok;) (<3)', { translateEmoticons: true });
    expect(out).toContain('class="emoji emoji-1f642"');
    expect(out).toContain('ok;)');
    expect(out).toContain('class="emoji emoji-2764"');
    expect(html('hi :)')).toBe('<p>hi :)</p>');
  });

  it("translates each emoticon to the reference's emoji, under its name", () => {
    const pairs: [string, string, string][] = [
      [':)', 'smile', '1f642'],
      [':(', 'frown', '1f641'],
      ['<3', 'heart', '2764'],
      [':|', 'neutral', '1f610'],
      [':/', 'confused', '1f615'],
      [':D', 'grinning', '1f600'],
      [':o', 'open_mouth', '1f62e'],
      [':P', 'stuck_out_tongue', '1f61b'],
    ];
    for (const [emoticon, name, code] of pairs) {
      const label = name.replace(/_/g, ' ');
      expect(html(`a ${emoticon} b`, { translateEmoticons: true }), emoticon).toBe(
        `<p>a <span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${name}:</span> b</p>`,
      );
    }
  });

  it('wraps a ZWJ sequence that starts with a text-style pictograph', () => {
    expect(html('\u{1F441}\u200D\u{1F5E8}')).toContain('class="emoji emoji-1f441-200d-1f5e8"');
  });
});
