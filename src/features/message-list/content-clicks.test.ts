import { describe, expect, it, vi } from 'vitest';
import { useImageViewer } from '../lightbox/store';
import { copyCodeAt, onMessageContentClick, toggleSpoilerAt } from './content-clicks';
import { sanitizeMessageHtml } from './sanitize';

const SPOILER =
  '<div class="spoiler-block"><div class="spoiler-header"><p>Header <a href="https://example.com">link</a></p></div>' +
  '<div class="spoiler-content" aria-hidden="true"><p>secret</p></div></div>';

function mount(html: string) {
  const div = document.createElement('div');
  div.innerHTML = sanitizeMessageHtml(html, 4);
  return div;
}

describe('spoilers', () => {
  it('open and close from the header, updating aria-expanded and aria-hidden', () => {
    const div = mount(SPOILER);
    const button = div.querySelector('.spoiler-toggle')!;
    const content = div.querySelector('.spoiler-content')!;
    expect(toggleSpoilerAt(button)).toBe(true);
    expect(div.querySelector('.spoiler-block')!.classList.contains('spoiler-open')).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(content.getAttribute('aria-hidden')).toBe('false');
    expect(toggleSpoilerAt(div.querySelector('.spoiler-header p')!)).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(content.getAttribute('aria-hidden')).toBe('true');
  });

  it('leave links in the header and clicks elsewhere alone', () => {
    const div = mount(SPOILER + '<p>outside</p>');
    expect(toggleSpoilerAt(div.querySelector('.spoiler-header a')!)).toBe(false);
    expect(toggleSpoilerAt(div.querySelector(':scope > p')!)).toBe(false);
  });
});

describe('image previews', () => {
  it('open the image viewer at the clicked image', () => {
    const div = mount(
      '<div class="message_inline_image"><a href="/user_uploads/2/ab/a.png"><img src="/user_uploads/2/ab/a.png"></a></div>',
    );
    const image = div.querySelector('img')!;
    let prevented = false;
    onMessageContentClick(
      {
        target: image,
        button: 0,
        defaultPrevented: false,
        preventDefault: () => (prevented = true),
      } as unknown as React.MouseEvent<HTMLElement>,
      42,
    );
    expect(prevented).toBe(true);
    expect(useImageViewer.getState().request).toMatchObject({
      messageId: 42,
      href: '/user_uploads/2/ab/a.png',
      opener: div.querySelector('a'),
    });
  });
});

describe('code blocks', () => {
  it('copy their code, without the button, and say so', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const div = mount(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> f\n</code></pre></div>',
    );
    const button = div.querySelector('button.copy-code')!;
    expect(copyCodeAt(button)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('def f\n');
    await vi.waitFor(() => expect(button.textContent).toBe('Copied'));
    expect(copyCodeAt(div.querySelector('code')!)).toBe(false);
    vi.unstubAllGlobals();
  });
});

describe('video previews', () => {
  it('are not image previews', () => {
    const div = mount(
      '<div class="message_inline_image message_inline_video"><a href="/user_uploads/2/v.mp4"><video src="/user_uploads/2/v.mp4"></video></a></div>',
    );
    expect(div.querySelector('a')?.hasAttribute('data-image-preview')).toBe(false);
  });
});
