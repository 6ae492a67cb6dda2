import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderStreamDescription, type MarkdownContext } from './index.js';

const EVIL = '"><img src=x onerror=alert(1)>';
const ESCAPED_EVIL = '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;';
const ctx: MarkdownContext = {
  users: [
    { id: 12, full_name: 'King Hamlet' },
    { id: 14, full_name: `Evil ${EVIL}` },
  ],
  streams: [
    { id: 5, name: 'design' },
    { id: 6, name: `a <b> 'stream' ${EVIL}` },
  ],
  userGroups: [{ id: 3, name: `grp ${EVIL}` }],
  linkifiers: [
    {
      id: 1,
      pattern: '#(?<id>[0-9]+)',
      url_template: 'https://github.com/zulip/zulip/issues/{id}',
    },
    { id: 2, pattern: 'T:(?<t>\\S+)', url_template: 'https://t.example/{t}' },
    { id: 3, pattern: '(a+)+$', url_template: 'https://redos.example/' },
  ],
};
const html = (text: string) => renderMarkdown(text, ctx).html;

const TAGS = new Set(
  'p br strong em del code pre div span a blockquote ul ol li h1 h2 h3 h4 h5 h6 hr table thead tbody tr th td svg path line time'.split(
    ' ',
  ),
);
/** The MathML that KaTeX writes beside its HTML (clients sanitise it like all message HTML). */
const MATHML_TAGS =
  'math semantics annotation mrow mi mo mn ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover mtable mtr mtd mstyle mpadded mphantom menclose mglyph mlabeledtr mmultiscripts mprescripts none';
for (const tag of MATHML_TAGS.split(' ')) TAGS.add(tag);
const ATTRS = new Set(
  'href class style title role aria-hidden aria-label data-user-id data-user-group-id data-stream-id data-code-language start width height viewBox preserveAspectRatio d xmlns x1 x2 y1 y2 stroke-width datetime display encoding mathvariant stretchy separator lspace rspace mathcolor mathbackground mathsize fence accent accentunder minsize maxsize symmetric largeop movablelimits scriptlevel displaystyle linethickness notation columnalign rowspacing columnspacing rowlines columnlines frame framespacing voffset form'.split(
    ' ',
  ),
);
const SAFE_HREF =
  /^(?:https?:|ftp:|mailto:|tel:|sms:|smsto:|xmpp:|irc:|ircs:|sip:|geo:|magnet:|matrix:|\/(?![/\\])|#)/i;

/** Checks that output HTML has only known tags and attributes, and only safe links. */
function assertWellFormedSafe(out: string): void {
  expect(out).not.toMatch(/<(?![a-zA-Z/])/);
  for (const tag of out.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(TAGS.has(tag[2]!), `tag ${tag[2]} in ${out}`).toBe(true);
    const attrs = tag[3]!.replace(/\/$/, '');
    if (tag[1]) expect(attrs).toBe('');
    expect(attrs.replace(/\s+[\w:-]+="[^"<>]*"/g, '').trim(), `attributes ${attrs}`).toBe('');
    for (const attr of attrs.matchAll(/\s+([\w:-]+)="([^"]*)"/g)) {
      expect(ATTRS.has(attr[1]!), `attribute ${attr[1]} in ${out}`).toBe(true);
      if (attr[1] === 'href') expect(attr[2]!, out).toMatch(SAFE_HREF);
    }
  }
}

describe('raw HTML', () => {
  it('escapes script, img and other tags', () => {
    expect(html('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html('<img src=x onerror=alert(1)>')).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(html('<div onclick="x">\nhi\n</div>')).toBe(
      '<p>&lt;div onclick="x"&gt;<br>\nhi<br>\n&lt;/div&gt;</p>',
    );
    expect(html('a <a href="javascript:alert(1)">b</a>')).toBe(
      '<p>a &lt;a href="javascript:alert(1)"&gt;b&lt;/a&gt;</p>',
    );
  });

  it('keeps entities as text', () => {
    // character references stay as typed, as the reference keeps them; they are never markup
    expect(html('&lt;b&gt; &amp; &#60;script&#62;')).toBe(
      '<p>&lt;b&gt; &amp; &#60;script&#62;</p>',
    );
    expect(html('&<script>; &#x3c;img;')).toBe('<p>&amp;&lt;script&gt;; &#x3c;img;</p>');
  });
});

describe('unsafe links', () => {
  it.each([
    '[x](javascript:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](java\tscript:alert(1))',
    '[x]( javascript:alert(1) )',
    '[x]()',
    '[x](<>)',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '[x](vbscript:msgbox(1))',
    '[x](file:///etc/passwd)',
    '[x]: javascript:alert(1)\n\n[x]',
    '<javascript:alert(1)>',
    'javascript:alert(1)',
  ])('does not link %j', (input) => {
    const out = html(input);
    expect(out).not.toContain('<a');
    assertWellFormedSafe(out);
  });

  it('cannot break out of href with quotes', () => {
    expect(html('[a](https://x.example/"onmouseover="alert(1))')).toBe(
      '<p><a href="https://x.example/%22onmouseover=%22alert(1)">a</a></p>',
    );
    expect(html('T:"><script>')).toBe(
      '<p><a href="https://t.example/%22%3E%3Cscript%3E">T:"&gt;&lt;script&gt;</a></p>',
    );
  });

  it('does not let KaTeX produce links or raw HTML', () => {
    const out = html('$$\\href{javascript:alert(1)}{x} \\htmlClass{a}{b} <script>$$');
    expect(out).not.toMatch(/href="javascript|<script/);
    assertWellFormedSafe(out);
  });
});

describe('names and topics cannot inject markup', () => {
  it('escapes user names in mentions', () => {
    expect(html(`@**Evil ${EVIL}**`)).toBe(
      `<p><span class="user-mention" data-user-id="14">@Evil ${ESCAPED_EVIL}</span></p>`,
    );
    expect(html('@**evil "><img src=x onerror=alert(1)>|14**')).toBe(
      `<p><span class="user-mention" data-user-id="14">@Evil ${ESCAPED_EVIL}</span></p>`,
    );
  });

  it('escapes group names', () => {
    expect(html(`@_*grp ${EVIL}*`)).toBe(
      `<p><span class="user-group-mention silent" data-user-group-id="3">grp ${ESCAPED_EVIL}</span></p>`,
    );
  });

  it('escapes stream names and topics in text and URLs', () => {
    const out = html(`#**a <b> 'stream' ${EVIL}>"><script>alert(1)</script>**`);
    expect(out).toBe(
      '<p><a class="stream-topic" data-stream-id="6" ' +
        'href="/#narrow/channel/6-a-.3Cb.3E-&#39;stream&#39;-.22.3E.3Cimg-src.3Dx-onerror.3Dalert(1).3E/topic/.22.3E.3Cscript.3Ealert(1).3C.2Fscript.3E">' +
        `#a &lt;b&gt; &#39;stream&#39; ${ESCAPED_EVIL} &gt; &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a></p>`,
    );
    assertWellFormedSafe(out);
  });

  it('escapes unknown mentions and the code fence language', () => {
    expect(html('@**<img src=x onerror=alert(1)>**')).toBe(
      '<p>@**&lt;img src=x onerror=alert(1)&gt;**</p>',
    );
    // a fence's language is letters, digits and +,-./#_ only; what follows it is no attribute
    expect(html('```js" onmouseover="alert(1)\nx\n```')).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="n">x</span>\n</code></pre></div>',
    );
  });

  it('escapes the text of global times', () => {
    expect(html('<time:2024-01-01 " onmouseover="x>')).not.toMatch(/onmouseover="/);
    expect(html('<time:"><img src=x onerror=alert(1)>')).not.toMatch(/<img/);
    assertWellFormedSafe(html('<time:&quot;2024-01-01>'));
  });

  it('escapes every token of highlighted code', () => {
    for (const lang of ['html', 'js', 'python', 'markdown', 'php', 'xml', 'css', 'bash']) {
      const out = html(
        '```' + lang + '\n<script>alert(1)</script><img src=x onerror="alert(1)">\n&amp; \'"\n```',
      );
      assertWellFormedSafe(out);
      expect(out).not.toMatch(/<script|<img/);
      // Only our spans are markup: the text, unescaped, is the code exactly as written.
      const code = /<code>([^]*)<\/code>/.exec(out)![1]!;
      expect(code.replace(/<\/?span[^>]*>/g, '').match(/[<>]/)).toBeNull();
      const text = code
        .replace(/<\/?span[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
      expect(text).toBe('<script>alert(1)</script><img src=x onerror="alert(1)">\n&amp; \'"\n');
    }
  });

  it('highlights hostile code in bounded time', () => {
    const inputs = [
      '`${'.repeat(4000),
      '/*'.repeat(5000),
      '"\\'.repeat(4000),
      '<a '.repeat(3000),
      '(('.repeat(5000),
    ];
    for (const lang of ['js', 'python', 'html', 'css', 'ruby', 'perl', 'cpp', 'sql', 'markdown']) {
      for (const input of inputs) {
        const started = performance.now();
        const out = html('~~~' + lang + '\n' + input + '\n~~~');
        expect(performance.now() - started).toBeLessThan(2000);
        expect(out).not.toMatch(/<(?!\/?(?:span|code|pre|div)\b)/);
      }
    }
  });
});

describe('robustness', () => {
  const hostile = [
    '>'.repeat(5000),
    '> '.repeat(3000) + 'deep',
    '- '.repeat(3000) + 'deep',
    '`'.repeat(10000),
    '*'.repeat(9999),
    '**a'.repeat(3000),
    '[['.repeat(3000),
    '[a]('.repeat(2000),
    '$$'.repeat(3000),
    '$$\\frac{'.repeat(1000) + '$$',
    ':'.repeat(5000),
    ':smile'.repeat(1500),
    '@**'.repeat(3000),
    '@_*'.repeat(3000),
    '#**'.repeat(3000),
    '```quote\n'.repeat(1100),
    '````spoiler x\n'.repeat(700),
    '\ud800\udfff\ud800 #1 T:\ud800 @**\ud800** #**design>\udc00**',
    '\u0000\u202e\ufeff<\u0000script>',
    'a'.repeat(10000),
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab',
    '👍'.repeat(3000),
    'https://'.repeat(1200),
  ];

  it('renders hostile input safely', () => {
    for (const input of hostile) assertWellFormedSafe(renderMarkdown(input, ctx).html);
  });

  it('renders random input safely', () => {
    const pieces = [
      '*',
      '**',
      '_',
      '`',
      '```',
      '~~~',
      '~~',
      '>',
      '#',
      '# ',
      '@',
      '@**',
      '@_**',
      '@*',
      '**',
      '|12',
      'King Hamlet',
      '#**',
      'design',
      '>',
      ':smile:',
      ':',
      '$$',
      '\\',
      '[',
      ']',
      '(',
      ')',
      '](',
      '<',
      '>',
      '"',
      "'",
      '&',
      '=',
      'script',
      'img',
      ' onerror=',
      'javascript:',
      'https://',
      'x.com',
      'mailto:',
      '\n',
      '\n\n',
      ' ',
      '- ',
      '1. ',
      '    ',
      'quote',
      'spoiler',
      'math',
      '#12',
      'T:',
      '👍',
      '🇺🇸',
      '\u200d',
      'é',
      '|',
      '---',
    ];
    let seed = 1234567;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 400; i++) {
      let input = '';
      const n = 5 + (next() % 120);
      for (let j = 0; j < n; j++) input += pieces[next() % pieces.length];
      const r = renderMarkdown(input, ctx);
      assertWellFormedSafe(r.html);
      expect(Array.isArray(r.mentionedUserIds)).toBe(true);
    }
  });

  it('handles contexts without optional parts', () => {
    const bare: MarkdownContext = { users: [], streams: [] };
    expect(renderMarkdown('@*support* #1 @**all**', bare)).toMatchObject({
      html: '<p>@*support* #1 <span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>',
      streamWildcard: true,
    });
    expect(renderStreamDescription('', bare)).toBe('');
  });

  it('finds a mention among thousands of users', () => {
    const users = Array.from({ length: 2000 }, (_, i) => ({
      id: i + 100,
      full_name: `User Number ${i}`,
    }));
    const message =
      'Hey @**User Number 42**, see #123 and https://example.com :smile:\nThanks **a lot**!';
    expect(renderMarkdown(message, { ...ctx, users }).mentionedUserIds).toEqual([142]);
  });
});
