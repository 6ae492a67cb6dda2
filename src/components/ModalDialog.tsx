/**
 * A native modal dialog (confirmations, small forms), shown in the top layer in the middle of the
 * screen, so it is never hidden under the compose box or cut by a scrolling list: focus moves in and is trapped, the page
 * behind is inert, Escape and Cancel close it, and focus returns to what opened it.
 */
import { useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors';
import { useModalDialog } from './use-modal-dialog';

interface ModalDialogProps {
  title: string;
  children?: ReactNode;
  /** the submit button's text; none: a dialog that only informs (one Close button) */
  confirmLabel?: string;
  /** a destructive confirmation shows its button in the danger colour */
  danger?: boolean;
  pending?: boolean;
  error?: unknown;
  onConfirm?(): void;
  onClose(): void;
}

export function ModalDialog({
  title,
  children,
  confirmLabel,
  danger,
  pending,
  error,
  onConfirm,
  onClose,
}: ModalDialogProps) {
  const { t } = useTranslation('adminUsers');
  const dialog = useRef<HTMLDialogElement>(null);
  useModalDialog(dialog, onClose);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onConfirm?.();
  };
  return (
    <dialog ref={dialog} className="admin-dialog" aria-label={title} aria-modal="true">
      <form className="admin-dialog-form" onSubmit={submit}>
        <h2 className="admin-dialog-title">{title}</h2>
        {children}
        {error != null && (
          <p className="settings-status settings-status-error" role="alert">
            {errorText(error)}
          </p>
        )}
        <div className="admin-dialog-buttons">
          <button type="button" className="button" onClick={onClose}>
            {confirmLabel ? t('dialog.cancel') : t('dialog.close')}
          </button>
          {confirmLabel && (
            <button
              type="submit"
              className={danger ? 'button button-danger' : 'button button-primary'}
              disabled={pending}
            >
              {confirmLabel}
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}
