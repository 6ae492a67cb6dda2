/**
 * Clicks inside a rendered message body, handled by delegation (the body is server HTML, so it
 * carries no handlers of its own): spoiler headers open and close their spoiler, code blocks copy
 * their code, image previews open the image viewer. A handled click is marked with preventDefault for the feed's handler.
 */
import type { MouseEvent } from 'react';
import { i18n } from '../../i18n';
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

/** Copies the code of the block whose copy button is `target`; false when it is not one. */
export function copyCodeAt(target: Element): boolean {
  const button = target.closest('button.copy-code');
  const code = button?.parentElement?.querySelector('pre code');
  if (!button || !code) return false;
  const text = code.textContent ?? '';
  const say = (label: string) => {
    button.textContent = label;
    button.setAttribute('aria-label', label);
    setTimeout(() => {
      button.textContent = i18n.t('messages:content.copy');
      button.setAttribute('aria-label', i18n.t('messages:content.copyCode'));
    }, 1500);
  };
  if (!navigator.clipboard) say(i18n.t('messages:content.notCopied'));
  else
    navigator.clipboard.writeText(text).then(
      () => say(i18n.t('messages:content.copied')),
      () => say(i18n.t('messages:content.notCopied')),
    );
  return true;
}

export function onMessageContentClick(event: MouseEvent<HTMLElement>, messageId: number) {
  if (event.defaultPrevented || event.button !== 0) return;
  const target = event.target as Element;
  if (copyCodeAt(target) || toggleSpoilerAt(target)) {
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
