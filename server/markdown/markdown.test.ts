import { describe, expect, it } from 'vitest';
import { emojiCodeForName, expandUrlTemplate, renderMarkdown, type MarkdownContext } from './index.js';

const ctx: MarkdownContext = {
  users: [
    { id: 12, full_name: 'King Hamlet' },
    { id: 13, full_name: 'Othello, the Moor of Venice' },
    { id: 14, full_name: 'Evil "><img src=x onerror=alert(1)>' },
  ],
  streams: [{ id: 5, name: 'design' }, { id: 6, name: 'a <b> stream' }],
  userGroups: [{ id: 3, name: 'support' }],
  linkifiers: [
    { id: 1, pattern: '#(?<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' },
    { id: 2, pattern: '(?<bad', url_template: 'https://x/{bad}' },
  ],
};
const html = (text: string) => renderMarkdown(text, ctx).html;

describe('renderMarkdown', () => {
  it('renders paragraphs, emphasis, code, quotes and line breaks', () => {
    expect(html('**bold** *it* ~~gone~~ `x<y`')).toBe('<p><strong>bold</strong> <em>it</em> <s>gone</s> <code>x&lt;y</code></p>');
    expect(html('> quoted')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html('one\ntwo')).toBe('<p>one<br>\ntwo</p>');
    expect(html('- a\n- b')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
  });

  it('renders fenced code with its language, and quote, math and spoiler fences', () => {
    expect(html('```Python\nprint("<hi>")\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>print(&quot;&lt;hi&gt;&quot;)\n</code></pre></div>',
    );
    expect(html('```quote\n**q**\n```')).toBe('<blockquote>\n<p><strong>q</strong></p>\n</blockquote>');
    expect(html('```math\nx^2\n```')).toContain('class="katex-display"');
    expect(html('```spoiler Plot\nthe butler\n```')).toContain('<div class="spoiler-content" aria-hidden="true"><p>the butler</p>');
  });

  it('renders user mentions by name or id, silently, and records who was mentioned', () => {
    const r = renderMarkdown('hi @**King Hamlet**, @_**Othello, the Moor of Venice** and @**nobody**', ctx);
    expect(r.html).toBe(
      '<p>hi <span class="user-mention" data-user-id="12">@King Hamlet</span>, <span class="user-mention silent" data-user-id="13">Othello, the Moor of Venice</span> and @<strong>nobody</strong></p>',
    );
    expect(r.mentionedUserIds).toEqual([12]);
    expect(renderMarkdown('@**king hamlet|13**', ctx).mentionedUserIds).toEqual([13]);
  });

  it('renders wildcard and group mentions with their flags', () => {
    const all = renderMarkdown('@**all** look', ctx);
    expect(all.html).toBe('<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> look</p>');
    expect(all.streamWildcard).toBe(true);
    const topic = renderMarkdown('@**topic**', ctx);
    expect(topic.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(topic.topicWildcard).toBe(true);
    expect(renderMarkdown('@_**everyone**', ctx).streamWildcard).toBe(false);
    const group = renderMarkdown('@*support*', ctx);
    expect(group.html).toBe('<p><span class="user-group-mention" data-user-group-id="3">@support</span></p>');
    expect(group.mentionedGroupIds).toEqual([3]);
  });

  it('does not treat mentions or emoji inside code as such', () => {
    const r = renderMarkdown('`@**King Hamlet** :smile:`\n```\n@**all**\n```', ctx);
    expect(r.mentionedUserIds).toEqual([]);
    expect(r.streamWildcard).toBe(false);
    expect(r.html).not.toContain('emoji');
  });

  it('links streams and topics', () => {
    expect(html('#**design**')).toBe('<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-design">#design</a></p>');
    expect(html('#**design>new ideas.x**')).toBe(
      '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-design/topic/new.20ideas.2Ex">#design &gt; new ideas.x</a></p>',
    );
    expect(html('#**unknown**')).toBe('<p>#<strong>unknown</strong></p>');
  });

  it('renders emoji shortcodes and typed emoji, leaving unknown ones alone', () => {
    expect(html(':smile:')).toBe('<p><span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>');
    expect(html(':not_an_emoji_at_all:')).toBe('<p>:not_an_emoji_at_all:</p>');
    expect(html('👍')).toContain('class="emoji emoji-1f44d"');
    expect(emojiCodeForName('flag-us') ?? emojiCodeForName('us')).toBe('1f1fa-1f1f8');
  });

  it('applies linkifiers outside links and skips invalid patterns', () => {
    expect(html('fixes #123')).toBe('<p>fixes <a href="https://github.com/zulip/zulip/issues/123">#123</a></p>');
    expect(html('[#9](https://example.com)')).toBe('<p><a href="https://example.com">#9</a></p>');
    expect(expandUrlTemplate('https://x/{id}/{+path}', { id: 'a b', path: 'c/d' })).toBe('https://x/a%20b/c/d');
  });

  it('never passes raw HTML or unsafe links through', () => {
    const evil = html('<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](data:text/html,hi) <a href="x">');
    expect(evil).not.toMatch(/<script|<img|<a href="x"|href="javascript|href="data/);
    expect(evil).toContain('&lt;script&gt;');
    expect(html('@**Evil "><img src=x onerror=alert(1)>**')).not.toContain('<img');
    expect(html('#**a <b> stream>t"><script>**')).not.toMatch(/<b>|<script>/);
    expect(html('[ok](https://example.com/a?b=1&c=2)')).toBe('<p><a href="https://example.com/a?b=1&amp;c=2">ok</a></p>');
  });

  it('survives hostile input without throwing', () => {
    const inputs = ['>'.repeat(5000), '`'.repeat(10000), '*'.repeat(9999), '[['.repeat(3000), '$$'.repeat(2000), ':'.repeat(5000), '@**'.repeat(3000)];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      let s = '';
      for (let j = 0; j < 200; j++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        s += '*_`>#@:$[]()!<\n abc|'[seed % 21];
      }
      inputs.push(s);
    }
    for (const input of inputs) {
      const out = renderMarkdown(input, ctx).html;
      expect(typeof out).toBe('string');
      expect(out).not.toMatch(/<(script|img|iframe)/);
    }
  });
});
