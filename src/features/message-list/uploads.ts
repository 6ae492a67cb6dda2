/**
 * Uploaded files linked from messages live at `/user_uploads/...` and need credentials, which an
 * <img> or a plain link cannot send. The sanitizer parks their addresses in data attributes; here
 * they are swapped for the short-lived URLs the server hands out.
 */
import { useEffect, type RefObject } from 'react';
import { useSessionCore, type SessionCore } from '../../model/session-core';
import { temporaryUrlQuery } from '../../queries/uploads';

type UploadSession = Pick<SessionCore, 'connection' | 'queryClient'>;

/** The server path of an upload link (`/user_uploads/...`, relative or on this origin), else null. */
export function uploadPathOf(href: string, origin = window.location.origin): string | null {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.startsWith('/user_uploads/')) return null;
  if (url.pathname.startsWith('/user_uploads/temporary/')) return null;
  return url.pathname;
}

/** A URL for the upload that needs no credentials, reused while it is fresh. */
export function resolveUpload(session: UploadSession, path: string): Promise<string> {
  return session.queryClient.fetchQuery(temporaryUrlQuery(session.connection, path));
}

/** Loads the images of uploads inside `root` once the message is on screen. */
export function useUploadImages(root: RefObject<HTMLElement | null>, html: string) {
  const session = useSessionCore();
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    let cancelled = false;
    for (const image of element.querySelectorAll<HTMLImageElement>('img[data-upload-src]')) {
      const path = image.dataset.uploadSrc!;
      resolveUpload(session, path)
        .then((url) => {
          if (!cancelled) image.src = url;
        })
        .catch(() => {
          if (!cancelled) image.classList.add('upload-unavailable');
        });
    }
    return () => {
      cancelled = true;
    };
  }, [root, session, html]);
}

/** Opens an upload link in a new tab through a temporary URL (a tab opened at once, so no popup blocker objects). */
export function openUpload(session: UploadSession, path: string) {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  resolveUpload(session, path)
    .then((url) => {
      if (tab) tab.location.href = url;
      else window.location.href = url;
    })
    .catch(() => tab?.close());
}
