import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/model';
import { sanitizeMessageHtml } from '../message-list/sanitize';
import { viewerImages } from './images';

const preview = (path: string, title?: string) =>
  `<div class="message_inline_image"><a href="${path}"${title ? ` title="${title}"` : ''}><img src="${path}"></a></div>`;

const message = (id: number, content: string) =>
  ({ id, content, sender_full_name: 'King Hamlet', timestamp: 1_700_000_000 }) as Message;

describe('viewerImages', () => {
  it('lists the previews of the loaded messages in order, once each', () => {
    const messages = [
      message(
        1,
        `<p>two</p>${preview('/user_uploads/2/a/one.png')}${preview('/user_uploads/2/b/two.jpg', 'Second')}`,
      ),
      message(2, '<p>no images</p>'),
      message(3, `${preview('https://example.com/x.gif')}${preview('https://example.com/x.gif')}`),
    ];
    const images = viewerImages(messages, (m) => sanitizeMessageHtml(m.content, 4));
    expect(images.map((i) => [i.message.id, i.name, i.uploadPath])).toEqual([
      [1, 'one.png', '/user_uploads/2/a/one.png'],
      [1, 'Second', '/user_uploads/2/b/two.jpg'],
      [3, 'x.gif', null],
    ]);
  });
});
