import { describe, expect, it } from 'vitest';
import { emojiFromClassName, sanitizeMessageHtml, type Reader } from './sanitize';

const render = (html: string, ownUserId = 4, reader: Reader = {}) => {
  const div = document.createElement('div');
  div.innerHTML = sanitizeMessageHtml(html, ownUserId, reader);
  return div;
};
const highlighted = (div: Element) =>
  [...div.querySelectorAll('span')].map((m) => m.classList.contains('user-mention-me'));

describe('sanitizeMessageHtml', () => {
  it('removes scripts, event handlers and javascript: links', () => {
    const div = render(
      '<p onclick="steal()">hi<script>steal()</script><img src="x" onerror="steal()"><a href="javascript:steal()">x</a></p>',
    );
    expect(div.innerHTML).not.toMatch(/script|onclick|onerror|javascript:/);
    expect(div.textContent).toBe('hix');
  });

  it('opens links in a new tab without an opener', () => {
    const link = render('<p><a href="https://example.com">site</a></p>').querySelector('a')!;
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('keeps narrow links from messages inside the app', () => {
    const link = render(
      '<p><a class="stream-topic" href="/#narrow/channel/5-design/topic/new.20ideas">#design &gt; new ideas</a></p>',
    ).querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/narrow/channel/5-design/topic/new.20ideas');
    expect(link.getAttribute('target')).toBeNull();
    expect(link.dataset.internal).toBe('true');
  });

  it('renders emoji from the codepoints in the class name', () => {
    const span = render(
      '<p><span class="emoji emoji-1f642" title="smile">:smile:</span></p>',
    ).querySelector('span.emoji')!;
    expect(span.textContent).toBe('🙂');
    expect(span.getAttribute('aria-label')).toBe('smile');
    expect(span.getAttribute('role')).toBe('img');
  });

  it('draws emoji in the server markup of the reference, and keeps :name: for the text set', () => {
    const markup =
      '<p><span aria-label="holiday tree" class="emoji emoji-1f384" role="img" title="holiday tree">:holiday_tree:</span></p>';
    const drawn = render(markup).querySelector('span.emoji')!;
    expect(drawn.textContent).toBe('🎄');
    expect(drawn.getAttribute('aria-label')).toBe('holiday tree');
    expect(drawn.getAttribute('role')).toBe('img');
    const text = render(markup, 4, { emojiset: 'text' }).querySelector('span.emoji')!;
    expect(text.textContent).toBe(':holiday_tree:');
    expect(text.classList.contains('emoji-text')).toBe(true);
    expect(render(markup, 4, { emojiset: 'twitter' }).textContent).toBe('🎄');
  });

  it('keeps KaTeX MathML with its TeX annotation, and names its classes for our stylesheet', () => {
    const div = render(
      '<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></span>' +
        '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.8141em;"></span><span class="sizing reset-size6 size3 mtight">2</span></span></span></span></p>',
    );
    expect(div.querySelector('math semantics mrow msup')).not.toBeNull();
    expect(div.querySelector('annotation')?.getAttribute('encoding')).toBe('application/x-tex');
    expect(div.querySelector('annotation')?.textContent).toBe('x^2');
    expect(div.querySelector('.katex-html')?.getAttribute('aria-hidden')).toBe('true');
    const base = div.querySelector('.katex-html > span')!;
    expect([...base.classList]).toEqual(['base', 'katex-base']);
    expect(div.querySelector('.strut')?.classList.contains('katex-strut')).toBe(true);
    expect(div.querySelector('.sizing')?.classList.contains('katex-sizing')).toBe(true);
    expect(div.querySelector('.strut')?.getAttribute('style')).toBe('height:0.8141em;');
    const evil = render(
      '<math><semantics><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml><annotation encoding="application/x-tex"><img src=x onerror=alert(1)></annotation></semantics></math>',
    );
    expect(evil.innerHTML).not.toMatch(/onerror|annotation-xml/);
    expect(evil.querySelector('annotation *')).toBeNull();
  });

  it('keeps the markup of code, time, spoilers and previews as the reference writes it', () => {
    const div = render(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span></code></pre></div>' +
        '<p><time datetime="2017-06-05T22:30:00Z">Jun 5th 2017, 10:30PM</time> <span class="timestamp-error">Invalid time format: x</span> <span class="tex-error">$$\\x$$</span></p>',
    );
    expect(div.querySelector('.codehilite')?.getAttribute('data-code-language')).toBe('Python');
    expect(div.querySelector('code span.k')?.textContent).toBe('def');
    expect(div.querySelector('time')?.getAttribute('datetime')).toBe('2017-06-05T22:30:00Z');
    expect(div.querySelector('.timestamp-error')).not.toBeNull();
    expect(div.querySelector('.tex-error')?.textContent).toBe('$$\\x$$');
  });

  it('handles multi-codepoint emoji and ignores realm emoji without codepoints', () => {
    expect(emojiFromClassName('emoji emoji-1f468-200d-1f469')).toBe('👨\u200d👩');
    expect(emojiFromClassName('emoji')).toBeNull();
    expect(render('<span class="emoji">:party_parrot:</span>').textContent).toBe(':party_parrot:');
  });

  it('marks mentions of the reader and wildcard mentions', () => {
    const div = render(
      '<span class="user-mention" data-user-id="4">@Hamlet</span><span class="user-mention" data-user-id="2">@Iago</span><span class="user-mention" data-user-id="*">@all</span>',
    );
    const mentions = [...div.querySelectorAll('.user-mention')];
    expect(mentions.map((m) => m.classList.contains('user-mention-me'))).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('keeps code blocks and quotes', () => {
    const div = render(
      '<div class="codehilite"><pre><span></span><code>x = 1</code></pre></div><blockquote><p>q</p></blockquote>',
    );
    expect(div.querySelector('div.codehilite pre code')?.textContent).toBe('x = 1');
    const highlighted = render(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">f</span></code></pre></div>',
    );
    expect(highlighted.querySelector('.codehilite')?.getAttribute('data-code-language')).toBe(
      'Python',
    );
    expect(highlighted.querySelector('code span.k')?.textContent).toBe('def');
    expect(div.querySelector('blockquote')).not.toBeNull();
  });

  it('does not highlight silent mentions, even of the reader', () => {
    const div = render(
      '<span class="user-mention silent" data-user-id="4">Hamlet</span><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span>',
    );
    expect(highlighted(div)).toEqual([false, false]);
  });

  it('highlights topic wildcard mentions', () => {
    expect(highlighted(render('<span class="topic-mention">@topic</span>'))).toEqual([true]);
  });

  it('highlights mentions of groups the reader is in, and no others', () => {
    const html =
      '<span class="user-group-mention" data-user-group-id="7">@support</span>' +
      '<span class="user-group-mention" data-user-group-id="8">@design</span>' +
      '<span class="user-group-mention silent" data-user-group-id="7">support</span>';
    expect(highlighted(render(html, 4, { groupIds: [7, 9] }))).toEqual([true, false, false]);
    expect(highlighted(render(html, 4, { groupIds: [] }))).toEqual([false, false, false]);
  });

  it("shows global times in the reader's zone and clock, keeping the typed text in the title", () => {
    const html = '<p><time datetime="2024-05-01T13:00:00Z">2024-05-01T15:00:00+02:00</time></p>';
    const time = render(html, 4, { twentyFourHour: true }).querySelector('time')!;
    const instant = new Date('2024-05-01T13:00:00Z');
    expect(time.textContent).toContain(
      instant.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', hour12: false }),
    );
    expect(time.textContent).toContain('2024');
    expect(time.getAttribute('title')).toContain('Original text: 2024-05-01T15:00:00+02:00');
    const twelve = render(html, 4, { twentyFourHour: false }).querySelector('time')!;
    expect(twelve.textContent).toMatch(/AM|PM/);
  });

  it('closes spoilers behind a disclosure button named after the header', () => {
    const div = render(
      '<div class="spoiler-block"><div class="spoiler-header"><p>Plot <em>twist</em></p></div>' +
        '<div class="spoiler-content" aria-hidden="true"><p>the butler</p></div></div>',
    );
    const button = div.querySelector('.spoiler-header > button.spoiler-toggle')!;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-label')).toBe('Spoiler: Plot twist');
    expect(div.querySelector('.spoiler-content > .spoiler-inner > p')?.textContent).toBe(
      'the butler',
    );
    const bare = render(
      '<div class="spoiler-block"><div class="spoiler-header"></div><div class="spoiler-content"><p>x</p></div></div>',
    );
    expect(bare.querySelector('button')?.getAttribute('aria-label')).toBe('Spoiler');
  });

  it('names image previews after their file and marks them for the viewer', () => {
    const div = render(
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/cat%20photo.png"><img src="/user_uploads/2/ab/cat%20photo.png"></a></div>',
    );
    const link = div.querySelector('a')!;
    expect(link.getAttribute('aria-label')).toBe('View image cat photo.png');
    expect(link.dataset.imagePreview).toBe('true');
    expect(link.dataset.upload).toBe('/user_uploads/2/ab/cat%20photo.png');
    expect(div.querySelector('img')?.getAttribute('alt')).toBe('cat photo.png');
  });

  it('lets no injected markup pass the new transforms', () => {
    const div = render(
      '<div class="spoiler-block"><div class="spoiler-header"><p>"><img src=x onerror=alert(1)></p></div><div class="spoiler-content"></div></div>' +
        '<time datetime="2024-01-01T00:00:00Z"><img src=x onerror=alert(1)></time>',
    );
    expect(div.innerHTML).not.toMatch(/onerror/);
  });
});

describe('scrolling blocks', () => {
  it('lets a keyboard reach code blocks and tables, which scroll sideways when too wide', () => {
    const root = render(
      '<div class="codehilite"><pre><span></span><code>x</code></pre></div><table><tr><td>1</td></tr></table>',
    );
    expect(root.querySelector('pre')?.getAttribute('tabindex')).toBe('0');
    expect(root.querySelector('table')?.getAttribute('tabindex')).toBe('0');
  });
});
