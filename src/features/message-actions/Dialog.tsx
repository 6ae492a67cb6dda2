/**
 * A modal dialog on the native <dialog>: the browser makes the rest of the page inert (so the
 * focus stays inside) and Escape closes it; the focus returns to where it was on closing.
 */
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalDialog } from '../../components/use-modal-dialog';

export function Dialog({
  label,
  onClose,
  children,
  footer,
}: {
  label: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation('messages');
  const dialog = useRef<HTMLDialogElement>(null);

  useModalDialog(dialog, onClose, null);

  return (
    <dialog
      ref={dialog}
      className="message-dialog"
      aria-label={label}
      // Keys typed in the dialog are its own: no shortcut of the page behind it reacts.
      onKeyDown={(event) => event.stopPropagation()}
      // A click on the backdrop (outside the dialog's box) closes it.
      onMouseDown={(event) => {
        if (event.target === dialog.current) {
          const box = dialog.current.getBoundingClientRect();
          const inside =
            event.clientX >= box.left &&
            event.clientX <= box.right &&
            event.clientY >= box.top &&
            event.clientY <= box.bottom;
          if (!inside) onClose();
        }
      }}
    >
      <header className="message-dialog-header">
        <h2>{label}</h2>
        <button
          type="button"
          className="icon-button message-dialog-close"
          aria-label={t('dialog.close')}
          onClick={onClose}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              d="M6 6l12 12M18 6 6 18"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </header>
      <div className="message-dialog-body">{children}</div>
      {footer && <footer className="message-dialog-footer">{footer}</footer>}
    </dialog>
  );
}
