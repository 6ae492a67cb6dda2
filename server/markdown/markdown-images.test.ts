import { describe, expect, it } from 'vitest';
import { renderMarkdown, type MarkdownContext } from './index.js';

const ctx: MarkdownContext = {
  users: [],
  streams: [],
  realmEmoji: [
    { id: '1', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/1.png' },
    { id: '2', name: 'smile', source_url: '/user_avatars/2/emoji/images/2.gif' },
  ],
};
const html = (text: string) => renderMarkdown(text, ctx).html;
const preview = (url: string, title?: string) =>
  `<div class="message_inline_image"><a href="${url}"${title === undefined ? '' : ` title="${title}"`}><img src="${url}"></a></div>`;

describe('custom emoji', () => {
  it('renders active custom emoji as Zulip does, before Unicode ones of the same name', () => {
    expect(html(':green_tick: done')).toBe(
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"> done</p>',
    );
    expect(html(':smile:')).toBe(
      '<p><img alt=":smile:" class="emoji" src="/user_avatars/2/emoji/images/2.gif" title="smile"></p>',
    );
    expect(renderMarkdown(':smile:', { users: [], streams: [] }).html).toContain('emoji-1f642');
  });

  it("leaves unknown names, code and other organizations' emoji alone", () => {
    expect(html(':red_tick: `:green_tick:`')).toBe('<p>:red_tick: <code>:green_tick:</code></p>');
    expect(renderMarkdown(':green_tick:', { users: [], streams: [] }).html).toBe(
      '<p>:green_tick:</p>',
    );
  });

  it('escapes whatever a source URL holds', () => {
    const odd: MarkdownContext = {
      users: [],
      streams: [],
      realmEmoji: [{ id: '3', name: 'odd', source_url: '/x"><script>alert(1)</script>' }],
    };
    expect(renderMarkdown(':odd:', odd).html).toBe(
      '<p><img alt=":odd:" class="emoji" src="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" title="odd"></p>',
    );
  });
});

describe('uploaded image previews', () => {
  const url = '/user_uploads/2/ab/xyz/scene.png';

  it('follows the paragraph linking an uploaded image', () => {
    expect(html(`Diffuse light:\n[scene.png](${url})\n\nmore`)).toBe(
      `<p>Diffuse light:<br>\n<a href="${url}">scene.png</a></p>\n${preview(url, 'scene.png')}<p>more</p>`,
    );
  });

  it('replaces a paragraph that is only the URL, once per URL, in order', () => {
    expect(html(`[${url}](${url})`)).toBe(preview(url));
    const other = '/user_uploads/2/cd/uvw/other.JPG';
    expect(html(`[a](${url}) [b](${other}) [a again](${url})`)).toBe(
      `<p><a href="${url}">a</a> <a href="${other}">b</a> <a href="${url}">a again</a></p>\n${preview(url, 'a')}${preview(other, 'b')}`,
    );
  });

  it('previews only uploaded images, and nothing in quotes', () => {
    expect(
      html('[doc](/user_uploads/2/ab/xyz/doc.pdf) [ext](https://example.com/x.png)'),
    ).not.toContain('message_inline_image');
    expect(html(`> [q](${url})`)).not.toContain('message_inline_image');
    expect(html(`\`\`\`quote\n[q](${url})\n\`\`\``)).not.toContain('message_inline_image');
    expect(html(`\`\`\`spoiler Look\n[s](${url})\n\`\`\``)).toContain(preview(url, 's'));
    expect(html(`- [l](${url})`)).toBe(
      `<ul>\n<li><a href="${url}">l</a>${preview(url, 'l')}</li>\n</ul>`,
    );
  });

  it('gives up past 24 links, as upstream', () => {
    const many = Array.from(
      { length: 25 },
      (_, i) => `[${i}](/user_uploads/2/ab/c${i}/p.png)`,
    ).join(' ');
    expect(html(many)).not.toContain('message_inline_image');
  });

  it('escapes titles and URLs', () => {
    expect(html('[a"><img src=x onerror=alert(1)>.png](/user_uploads/2/ab/x/%22.png)')).toBe(
      '<p><a href="/user_uploads/2/ab/x/%22.png">a"&gt;&lt;img src=x onerror=alert(1)&gt;.png</a></p>\n' +
        preview(
          '/user_uploads/2/ab/x/%22.png',
          'a&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.png',
        ),
    );
  });
});
