import { describe, expect, it } from 'vitest';
import { emojiFromClassName, sanitizeMessageHtml } from './sanitize';

const render = (html: string, ownUserId = 4) => {
  const div = document.createElement('div');
  div.innerHTML = sanitizeMessageHtml(html, ownUserId);
  return div;
};

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
      '<p><span class="emoji emoji-1f604" title="smile">:smile:</span></p>',
    ).querySelector('span.emoji')!;
    expect(span.textContent).toBe('😄');
    expect(span.getAttribute('aria-label')).toBe('smile');
    expect(span.getAttribute('role')).toBe('img');
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
});
