import { describe, expect, it } from 'vitest';
import { useImageViewer } from '../lightbox/store';
import { onMessageContentClick, toggleSpoilerAt } from './content-clicks';
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
