import katex from 'katex';
import { describe, expect, it } from 'vitest';
import {
  hashEncode,
  renderMarkdown,
  renderStreamDescription,
  streamNarrowUrl,
  topicNarrowUrl,
  type MarkdownContext,
} from './index.js';

const ctx: MarkdownContext = {
  users: [
    { id: 12, full_name: 'King Hamlet' },
    { id: 13, full_name: 'Othello, the Moor of Venice' },
    { id: 20, full_name: 'Alex Smith' },
    { id: 21, full_name: 'alex smith' },
    { id: 30, full_name: 'Gone User', is_active: false },
    { id: 31, full_name: 'Sam Lee', is_active: false },
    { id: 32, full_name: 'Sam Lee', is_active: true },
  ],
  streams: [
    { id: 5, name: 'design' },
    { id: 6, name: 'design team' },
  ],
  userGroups: [{ id: 3, name: 'support' }],
};
const html = (text: string) => renderMarkdown(text, ctx).html;
/** KaTeX's HTML and MathML with the class names of the reference's KaTeX (0.16): `base`, not `katex-base`. */
const katex016 = (tex: string, displayMode: boolean) =>
  katex
    .renderToString(tex, { displayMode, throwOnError: true })
    .replace(/"katex-(base|strut|sizing)\b/g, '"$1')
    .replace(/ katex-(sizing)\b/g, ' $1');
const silentMention = (id: number, name: string) =>
  `<span class="user-mention silent" data-user-id="${id}">${name}</span>`;
const mention = (id: number, name: string) =>
  `<span class="user-mention" data-user-id="${id}">@${name}</span>`;

describe('basic formatting', () => {
  it('renders emphasis, strike-through and inline code like Zulip', () => {
    expect(html('**bold** *it* ~~gone~~ `x<y`')).toBe(
      '<p><strong>bold</strong> <em>it</em> <del>gone</del> <code>x&lt;y</code></p>',
    );
  });

  it('keeps underscores literal (no _ emphasis in Zulip)', () => {
    expect(html('snake_case_name and _not italic_ and __init__')).toBe(
      '<p>snake_case_name and _not italic_ and __init__</p>',
    );
  });

  it('turns single newlines into <br>', () => {
    expect(html('one\ntwo')).toBe('<p>one<br>\ntwo</p>');
    expect(html('one\n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
  });

  it('renders quotes, lists and headings', () => {
    expect(html('> quoted')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html('- a\n- b')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(html('1. a\n2. b')).toBe('<ol>\n<li>a</li>\n<li>b</li>\n</ol>');
    expect(html('# Title')).toBe('<h1>Title</h1>');
  });

  it('renders empty and whitespace-only content as the empty string', () => {
    expect(html('')).toBe('');
    expect(html('  \n\t ')).toBe('');
  });

  it('renders stream descriptions with the same renderer', () => {
    expect(renderStreamDescription('About **design**, see #**design team**', ctx)).toBe(
      '<p>About <strong>design</strong>, see <a class="stream" data-stream-id="6" href="/#narrow/channel/6-design-team">#design team</a></p>',
    );
  });
});

describe('code blocks', () => {
  it('highlights fenced code with Pygments classes and names the lexer, as Zulip does', () => {
    expect(html('```Python\nprint("<hi>")\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>' +
        '<span class="nb">print</span><span class="p">(</span><span class="s2">&quot;&lt;hi&gt;&quot;</span><span class="p">)</span>\n' +
        '</code></pre></div>',
    );
    expect(html('~~~js\na && b\n~~~')).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>' +
        '<span class="n">a</span> <span class="o">&amp;&amp;</span> <span class="n">b</span>\n' +
        '</code></pre></div>',
    );
  });

  it('marks keywords, names, functions, numbers and comments', () => {
    const out = html('```py\nimport os\ndef add(a, b):\n    return a + 1  # sum\n```');
    expect(out).toContain('<span class="kn">import</span> <span class="n">os</span>');
    expect(out).toContain('<span class="k">def</span> <span class="nf">add</span>');
    expect(out).toContain('<span class="mi">1</span>');
    expect(out).toContain('<span class="c1"># sum</span>');
  });

  it('closes a token at each line end, as Pygments does', () => {
    expect(html('```js\n/* a\nb */\n```')).toContain(
      '<code><span class="cm">/* a</span>\n<span class="cm">b */</span>\n</code>',
    );
  });

  it('keeps unknown languages as typed, without token spans', () => {
    expect(html('```nosuchlang\nif x < y\n```')).toBe(
      '<div class="codehilite" data-code-language="nosuchlang"><pre><span></span><code>if x &lt; y\n</code></pre></div>',
    );
    expect(html('```text\nplain words\n```')).toBe(
      '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>plain words\n</code></pre></div>',
    );
  });

  it('shows a very large block plain, without highlighting it', () => {
    const big = 'x = 1\n'.repeat(9000);
    const out = html('```python\n' + big + '```');
    expect(out.startsWith('<div class="codehilite" data-code-language="Python">')).toBe(true);
    expect(out).not.toContain('<span class="n">');
  });

  it('renders fences without a language, and indented code, without the attribute', () => {
    expect(html('```\nx\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code>x\n</code></pre></div>',
    );
    expect(html('    indented')).toBe(
      '<div class="codehilite"><pre><span></span><code>indented\n</code></pre></div>',
    );
  });

  it('renders ```quote as a blockquote with full markdown inside, its mentions silent', () => {
    const r = renderMarkdown('```quote\n**q** @**King Hamlet**\n```', ctx);
    expect(r.html).toBe(
      `<blockquote>\n<p><strong>q</strong> ${silentMention(12, 'King Hamlet')}</p>\n</blockquote>`,
    );
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('renders ```spoiler with a header', () => {
    expect(html('```spoiler Plot *twist*\nthe butler\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot <em>twist</em></p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>the butler</p>\n</div></div>',
    );
    expect(html('```spoiler\nhidden\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>',
    );
  });

  it('renders ```math as KaTeX display math', () => {
    const out = html('```math\nx^2\n```');
    expect(out).toBe(`<p>${katex016('x^2', true)}</p>`);
    expect(out).toContain('class="katex-display"');
    expect(out).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
  });

  it('bounds the nesting of ```quote blocks (deeper fences stay text)', () => {
    const deep =
      Array.from({ length: 30 }, (_, i) => '`'.repeat(40 - i) + 'quote\n').join('') + 'x';
    const out = html(deep);
    expect((out.match(/<blockquote>/g) ?? []).length).toBe(8);
    expect(out).toContain(`${'`'.repeat(32)}quote<br>`);
    expect(out).not.toContain('<span class=');
  });
});

describe('inline math', () => {
  it('renders $$...$$ with KaTeX', () => {
    expect(html('$$x^2$$')).toBe(`<p>${katex016('x^2', false)}</p>`);
  });

  it('renders TeX errors as KaTeX error spans and leaves code alone', () => {
    expect(html('$$\\frac{$$')).toBe('<p><span class="tex-error">$$\\frac{$$</span></p>');
    expect(html('```math\n\\frac{ <b>\n```')).toBe(
      '<p><span class="tex-error">\\frac{ &lt;b&gt;</span></p>',
    );
    expect(html('`$$x$$`')).toBe('<p><code>$$x$$</code></p>');
    expect(html('costs $5 and $$')).toBe('<p>costs $5 and $$</p>');
  });
});

describe('links', () => {
  it('links http, https, mailto and relative URLs with href only', () => {
    expect(html('[a](https://example.com) [b](http://example.com/x "title")')).toBe(
      '<p><a href="https://example.com">a</a> <a href="http://example.com/x">b</a></p>',
    );
    expect(
      html('[m](mailto:a@example.com) [r](/user_uploads/1/a.png) [h](#narrow/channel/5-design)'),
    ).toBe(
      '<p><a href="mailto:a@example.com">m</a> <a href="/user_uploads/1/a.png">r</a> <a href="#narrow/channel/5-design">h</a></p>\n' +
        // an uploaded image gets Zulip's inline preview after the paragraph
        '<div class="message_inline_image"><a href="/user_uploads/1/a.png" title="r"><img src="/user_uploads/1/a.png"></a></div>',
    );
  });

  it('autolinks bare URLs and domains', () => {
    expect(html('see https://example.com/a?b=1&c=2.')).toBe(
      '<p>see <a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>.</p>',
    );
    expect(html('go to zulip.com')).toBe('<p>go to <a href="http://zulip.com">zulip.com</a></p>');
    // no <...> autolinks in Zulip: the brackets stay, the URL inside is linked
    expect(html('<https://example.com>')).toBe(
      '<p>&lt;<a href="https://example.com">https://example.com</a>&gt;</p>',
    );
  });

  it('renders links with other schemes as text', () => {
    expect(html('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>');
    expect(html('[x](JaVaScRiPt:alert(1))')).toBe('<p>[x](JaVaScRiPt:alert(1))</p>');
    expect(html('[x](data:text/html,hi)')).toBe('<p>[x](data:text/html,hi)</p>');
    expect(html('[x](vbscript:msgbox)')).toBe('<p>[x](vbscript:msgbox)</p>');
    expect(html('[x](file:///etc/passwd)')).toBe('<p>[x](file:///etc/passwd)</p>');
    expect(html('[x](//evil.example)')).toBe('<p>[x](//evil.example)</p>');
    expect(html('<javascript:alert(1)>')).toBe('<p>&lt;javascript:alert(1)&gt;</p>');
  });

  it('does not render images', () => {
    expect(html('![alt](https://example.com/a.png)')).toBe(
      '<p>!<a href="https://example.com/a.png">alt</a></p>',
    );
  });
});

describe('user mentions', () => {
  it('renders @**Name** with the canonical name and records the user', () => {
    const r = renderMarkdown('hi @**king hamlet**!', ctx);
    expect(r.html).toBe(`<p>hi ${mention(12, 'King Hamlet')}!</p>`);
    expect(r.mentionedUserIds).toEqual([12]);
  });

  it('selects by id with @**Name|id** (and @**|id**)', () => {
    const r = renderMarkdown('@**alex smith|20** @**Alex Smith|21** @**|12**', ctx);
    expect(r.html).toBe(
      `<p>${mention(20, 'Alex Smith')} ${mention(21, 'alex smith')} ${mention(12, 'King Hamlet')}</p>`,
    );
    expect(r.mentionedUserIds).toEqual([20, 21, 12]);
  });

  it('renders silent mentions without @ and without notifying', () => {
    const r = renderMarkdown('@_**Othello, the Moor of Venice**', ctx);
    expect(r.html).toBe(
      '<p><span class="user-mention silent" data-user-id="13">Othello, the Moor of Venice</span></p>',
    );
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('leaves unknown, ambiguous and unknown-id mentions as literal text', () => {
    const r = renderMarkdown(
      '@**nobody** @**Alex Smith** @**King Hamlet|999** @_**<b>x</b>**',
      ctx,
    );
    expect(r.html).toBe(
      '<p>@**nobody** @**Alex Smith** @**King Hamlet|999** @_**&lt;b&gt;x&lt;/b&gt;**</p>',
    );
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('prefers the active user among namesakes; deactivated users are not notified', () => {
    expect(renderMarkdown('@**Sam Lee**', ctx).mentionedUserIds).toEqual([32]);
    const gone = renderMarkdown('@**Gone User**', ctx);
    expect(gone.html).toBe(`<p>${mention(30, 'Gone User')}</p>`);
    expect(gone.mentionedUserIds).toEqual([]);
  });

  it('reports each mentioned user once', () => {
    expect(
      renderMarkdown('@**King Hamlet** @**King Hamlet** > @**King Hamlet**', ctx).mentionedUserIds,
    ).toEqual([12]);
  });

  it('ignores mentions in code and glued to words', () => {
    const r = renderMarkdown(
      '`@**King Hamlet**`\n```\n@**King Hamlet** @**all**\n```\nmail@**King Hamlet**',
      ctx,
    );
    expect(r.mentionedUserIds).toEqual([]);
    expect(r.streamWildcard).toBe(false);
    expect(r.html).not.toContain('user-mention');
  });

  it('renders mentions inside emphasis and lists, and silences those inside quotes', () => {
    const r = renderMarkdown('- **@**King Hamlet****\n> (@**Alex Smith|20**) @**all**', ctx);
    expect(r.html).toBe(
      `<ul>\n<li><strong>${mention(12, 'King Hamlet')}</strong></li>\n</ul>\n<blockquote>\n<p>(${silentMention(20, 'Alex Smith')}) <span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>`,
    );
    // Quoting a message notifies nobody it mentioned, not even everyone.
    expect(r.mentionedUserIds).toEqual([12]);
    expect(r.streamWildcard).toBe(false);
  });
});

describe('wildcard mentions', () => {
  it.each(['all', 'everyone', 'stream', 'channel', 'Everyone'])(
    'renders @**%s** and sets streamWildcard',
    (word) => {
      const r = renderMarkdown(`@**${word}** look`, ctx);
      expect(r.html).toBe(
        `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${word}</span> look</p>`,
      );
      expect(r.streamWildcard).toBe(true);
      expect(r.topicWildcard).toBe(false);
    },
  );

  it('renders @**topic** and sets topicWildcard', () => {
    const r = renderMarkdown('@**topic**', ctx);
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(r).toMatchObject({ topicWildcard: true, streamWildcard: false });
  });

  it('renders silent wildcards without setting flags', () => {
    const r = renderMarkdown('@_**all** @_**topic**', ctx);
    expect(r.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
    expect(r).toMatchObject({ streamWildcard: false, topicWildcard: false, mentionedUserIds: [] });
  });
});

describe('group mentions', () => {
  it('renders @*group* and records the group', () => {
    const r = renderMarkdown('@*Support* please', ctx);
    expect(r.html).toBe(
      '<p><span class="user-group-mention" data-user-group-id="3">@support</span> please</p>',
    );
    expect(r.mentionedGroupIds).toEqual([3]);
  });

  it('renders silent group mentions without recording them', () => {
    const r = renderMarkdown('@_*support*', ctx);
    expect(r.html).toBe(
      '<p><span class="user-group-mention silent" data-user-group-id="3">support</span></p>',
    );
    expect(r.mentionedGroupIds).toEqual([]);
  });

  it('leaves unknown groups as literal text', () => {
    expect(renderMarkdown('@*nope*', ctx)).toMatchObject({
      html: '<p>@*nope*</p>',
      mentionedGroupIds: [],
    });
  });
});

describe('stream and topic links', () => {
  it('links streams by name, case-insensitively', () => {
    expect(html('#**Design**')).toBe(
      '<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-design">#design</a></p>',
    );
    expect(html('#**design team**')).toBe(
      '<p><a class="stream" data-stream-id="6" href="/#narrow/channel/6-design-team">#design team</a></p>',
    );
  });

  it('links topics, hash-encoding the topic', () => {
    expect(html('#**design>ideas**')).toBe(
      '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-design/topic/ideas">#design &gt; ideas</a></p>',
    );
    expect(html('#**design team>v1.2 release/100%**')).toBe(
      '<p><a class="stream-topic" data-stream-id="6" href="/#narrow/channel/6-design-team/topic/v1.2E2.20release.2F100.25">#design team &gt; v1.2 release/100%</a></p>',
    );
  });

  it('leaves unknown streams as literal text, and ignores links in code', () => {
    expect(html('#**unknown** #**unknown>topic**')).toBe(
      '<p>#**unknown** #**unknown&gt;topic**</p>',
    );
    expect(html('`#**design**`')).toBe('<p><code>#**design**</code></p>');
  });

  it('exposes the narrow URL helpers', () => {
    expect(hashEncode('a.b c%')).toBe('a.2Eb.20c.25');
    expect(streamNarrowUrl(7, 'social club')).toBe('/#narrow/channel/7-social-club');
    expect(topicNarrowUrl(7, 'social club', 'lunch.today')).toBe(
      '/#narrow/channel/7-social-club/topic/lunch.2Etoday',
    );
  });
});

describe('global times', () => {
  it('renders <time:...> as a <time> with the UTC instant, keeping the text as typed', () => {
    expect(html('At <time:2024-05-01T15:00:00+02:00>!')).toBe(
      '<p>At <time datetime="2024-05-01T13:00:00Z">2024-05-01T15:00:00+02:00</time>!</p>',
    );
    expect(html('<time:2024-05-01 09:30 -0500>')).toBe(
      '<p><time datetime="2024-05-01T14:30:00Z">2024-05-01 09:30 -0500</time></p>',
    );
  });

  it('reads times without a zone as UTC, and Unix timestamps', () => {
    expect(html('<time:2024-05-01T09:30>')).toContain('datetime="2024-05-01T09:30:00Z"');
    expect(html('<time:1700000000>')).toContain('datetime="2023-11-14T22:13:20Z"');
  });

  it('says so when the text names no time', () => {
    expect(html('<time:next tuesday>')).toBe(
      '<p><span class="timestamp-error">Invalid time format: next tuesday</span></p>',
    );
    expect(html('<time:2024-02-31>')).toContain('timestamp-error');
  });

  it('leaves <time:...> in code alone', () => {
    expect(html('`<time:2024-01-01>`')).toBe('<p><code>&lt;time:2024-01-01&gt;</code></p>');
  });
});
