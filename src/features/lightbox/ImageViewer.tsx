/**
 * The image viewer: a modal dialog over the feed showing one image large, with its name, sender
 * and time, paging through the images of the messages loaded in the view (buttons or arrow keys).
 * A native <dialog> opened with showModal(): the page behind is inert, Escape closes it, and the
 * focus goes back to the preview that opened it.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/model';
import { CloseIcon } from '../../components/icons';
import { useMutedUsers, useOwnUserId } from '../../model/hooks';
import { useSessionCore } from '../../model/session-core';
import type { FeedRow } from '../message-list/build-rows';
import { formatFullDateTime } from '../message-list/format';
import { sanitizeMessageHtml } from '../message-list/sanitize';
import { resolveUpload } from '../message-list/uploads';
import { viewerImages, type ViewerImage } from './images';
import { useImageViewer } from './store';

export function ImageViewer({ rows }: { rows: readonly FeedRow[] }) {
  const request = useImageViewer((s) => s.request);
  const close = useImageViewer((s) => s.close);
  const ownUserId = useOwnUserId();
  const muted = useMutedUsers();
  // Leaving the view (another narrow) closes the viewer, rather than reopening it on return.
  useEffect(() => close, [close]);

  // The list is taken when the viewer opens; messages arriving meanwhile do not move it.
  const images = useMemo(() => {
    if (!request) return [];
    const messages = rows.flatMap((row) =>
      row.kind === 'message' &&
      !row.echo &&
      !(row.message.sender_id in muted && row.message.sender_id !== ownUserId)
        ? [row.message]
        : [],
    );
    return viewerImages(messages, (message: Message) =>
      sanitizeMessageHtml(message.content, ownUserId),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a snapshot per opening
  }, [request]);

  const start = request
    ? images.findIndex(
        (image) => image.message.id === request.messageId && image.href === request.href,
      )
    : -1;
  if (!request || start < 0) return null;
  return (
    <ViewerDialog
      key={`${request.messageId} ${request.href}`}
      images={images}
      start={start}
      onClose={() => {
        close();
        const opener = request.opener;
        if (opener?.isConnected) opener.focus();
      }}
    />
  );
}

/**
 * Which image is shown, and stepping through them; a step button that becomes disabled hands
 * its focus on (to the other step button, or to Close), not to the page.
 */
function useImageSteps(count: number, start: number) {
  const [index, setIndex] = useState(start);
  const previousButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  /** The button to focus once the step is drawn (one that was focused became disabled). */
  const focusNext = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    focusNext.current?.focus();
    focusNext.current = null;
  }, [index]);

  const step = (delta: -1 | 1) => {
    const to = index + delta;
    if (to < 0 || to >= count) return;
    setIndex(to);
    const atEdge = to === 0 || to === count - 1;
    const leaving = delta < 0 ? previousButton.current : nextButton.current;
    if (atEdge && document.activeElement === leaving) {
      const other = delta < 0 ? nextButton.current : previousButton.current;
      focusNext.current = count > 1 ? other : closeButton.current;
    }
  };

  return { index, step, previousButton, nextButton, closeButton };
}

function ViewerDialog({
  images,
  start,
  onClose,
}: {
  images: readonly ViewerImage[];
  start: number;
  onClose(): void;
}) {
  const { t } = useTranslation('messages');
  const dialog = useRef<HTMLDialogElement>(null);
  const { index, step, previousButton, nextButton, closeButton } = useImageSteps(
    images.length,
    start,
  );
  const image = images[index]!;
  const url = useImageUrl(image);

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    // The viewer is modal: no shortcut of the page behind it sees its keys.
    event.stopPropagation();
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft') step(-1);
    else if (event.key === 'ArrowRight') step(1);
    else return;
    event.preventDefault();
  };

  return (
    <dialog
      ref={dialog}
      className="image-viewer"
      aria-label={t('viewer.label')}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <ViewerHeader image={image} url={url} closeButton={closeButton} onClose={onClose} />
      <div className="image-viewer-stage">
        <button
          type="button"
          className="image-viewer-step"
          aria-label={t('viewer.previous')}
          ref={previousButton}
          disabled={index === 0}
          onClick={() => step(-1)}
        >
          ‹
        </button>
        <ViewerFigure image={image} url={url} />
        <button
          type="button"
          className="image-viewer-step"
          aria-label={t('viewer.next')}
          ref={nextButton}
          disabled={index === images.length - 1}
          onClick={() => step(1)}
        >
          ›
        </button>
      </div>
      <p className="image-viewer-count" aria-live="polite">
        {t('viewer.position', { index: index + 1, total: images.length })}
      </p>
    </dialog>
  );
}

/** The image itself, or why it is not shown yet. */
function ViewerFigure({ image, url }: { image: ViewerImage; url: ImageUrl }) {
  const { t } = useTranslation('messages');
  return (
    <figure className="image-viewer-figure">
      {url.status === 'ready' ? (
        <img key={image.key} src={url.src} alt={image.name} />
      ) : (
        <p className="image-viewer-status" role="status">
          {url.status === 'loading' ? t('viewer.loading') : t('viewer.failed')}
        </p>
      )}
    </figure>
  );
}

/** The image's name, sender and time; links to the original and a download; Close. */
function ViewerHeader({
  image,
  url,
  closeButton,
  onClose,
}: {
  image: ViewerImage;
  url: ImageUrl;
  closeButton: RefObject<HTMLButtonElement | null>;
  onClose(): void;
}) {
  const { t } = useTranslation('messages');
  return (
    <header className="image-viewer-header">
      <div className="image-viewer-meta">
        <h2 className="image-viewer-name">{image.name}</h2>
        <p className="image-viewer-origin">
          {image.message.sender_full_name} ·{' '}
          <time dateTime={new Date(image.message.timestamp * 1000).toISOString()}>
            {formatFullDateTime(image.message.timestamp)}
          </time>
        </p>
      </div>
      <div className="image-viewer-actions">
        {url.status === 'ready' && (
          <>
            <a
              className="button button-small"
              href={url.src}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('viewer.openOriginal')}
            </a>
            <a className="button button-small" href={url.src} download={image.name}>
              {t('viewer.download')}
            </a>
          </>
        )}
        <button
          type="button"
          className="icon-button image-viewer-close"
          aria-label={t('viewer.close')}
          ref={closeButton}
          autoFocus
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
    </header>
  );
}

type ImageUrl = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; src: string };

/** Uploads need credentials: they are shown through a temporary URL, as in the feed. */
function useImageUrl(image: ViewerImage): ImageUrl {
  const session = useSessionCore();
  const [resolved, setResolved] = useState<{ key: string; url: ImageUrl } | null>(null);
  useEffect(() => {
    if (!image.uploadPath) return;
    let cancelled = false;
    resolveUpload(session, image.uploadPath).then(
      (src) => !cancelled && setResolved({ key: image.key, url: { status: 'ready', src } }),
      () => !cancelled && setResolved({ key: image.key, url: { status: 'failed' } }),
    );
    return () => {
      cancelled = true;
    };
  }, [session, image.key, image.uploadPath]);
  if (!image.uploadPath) return { status: 'ready', src: image.href };
  return resolved?.key === image.key ? resolved.url : { status: 'loading' };
}
