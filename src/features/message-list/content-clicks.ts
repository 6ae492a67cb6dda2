/**
 * Clicks inside a rendered message body, handled by delegation (the body is server HTML, so it
 * carries no handlers of its own): spoiler headers open and close their spoiler, image previews
 * open the image viewer. A handled click is marked with preventDefault for the feed's handler.
 */
import type { MouseEvent } from 'react';
import { useImageViewer } from '../lightbox/store';

/** Opens or closes the spoiler whose header holds `target`; false when it is not in one. */
export function toggleSpoilerAt(target: Element): boolean {
  const header = target.closest('.spoiler-header');
  // Links in a spoiler's header still work as links.
  if (!header || target.closest('a')) return false;
  const block = header.parentElement;
  const button = header.querySelector(':scope > .spoiler-toggle');
  const content = block?.querySelector(':scope > .spoiler-content');
  if (!block || !button || !content) return false;
  const open = !block.classList.contains('spoiler-open');
  block.classList.toggle('spoiler-open', open);
  button.setAttribute('aria-expanded', String(open));
  content.setAttribute('aria-hidden', String(!open));
  return true;
}

export function onMessageContentClick(event: MouseEvent<HTMLElement>, messageId: number) {
  if (event.defaultPrevented || event.button !== 0) return;
  const target = event.target as Element;
  if (toggleSpoilerAt(target)) {
    event.preventDefault();
    return;
  }
  // With a modifier the preview opens as a link (a new tab), as links do.
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const preview = target.closest<HTMLAnchorElement>('a[data-image-preview]');
  if (!preview) return;
  event.preventDefault();
  useImageViewer.getState().open({
    messageId,
    href: preview.getAttribute('href') ?? '',
    opener: preview,
  });
}
