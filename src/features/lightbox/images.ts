/** The images of loaded messages, in feed order, as the viewer pages through them. */
import type { Message } from '../../api/model';

export interface ViewerImage {
  /** unique in the list: message id and preview href */
  key: string;
  message: Message;
  /** the preview link's href as rendered */
  href: string;
  /** the server path when the image is an upload (it needs a temporary URL), else null */
  uploadPath: string | null;
  name: string;
}

/**
 * The image previews (`.message_inline_image > a`) of sanitized message HTML. Parsed in an inert
 * template: nothing loads, nothing runs.
 */
export function previewLinks(
  html: string,
): { href: string; uploadPath: string | null; name: string }[] {
  const template = document.createElement('template');
  template.innerHTML = html;
  const links = template.content.querySelectorAll('.message_inline_image > a[href]');
  return [...links]
    .filter((link) => link.querySelector('img'))
    .map((link) => ({
      href: link.getAttribute('href')!,
      uploadPath: link.getAttribute('data-upload'),
      name: link.querySelector('img')?.getAttribute('alt') || link.getAttribute('title') || 'image',
    }));
}

export function viewerImages(
  messages: readonly Message[],
  sanitize: (message: Message) => string,
): ViewerImage[] {
  const images: ViewerImage[] = [];
  const seen = new Set<string>();
  for (const message of messages) {
    if (!message.content.includes('message_inline_image')) continue;
    for (const link of previewLinks(sanitize(message))) {
      const key = `${message.id} ${link.href}`;
      if (seen.has(key)) continue;
      seen.add(key);
      images.push({ key, message, ...link });
    }
  }
  return images;
}
