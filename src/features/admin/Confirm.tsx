/**
 * An inline confirmation for something that cannot be undone: it takes the place of the button
 * that asked, names what will happen, and moves focus to its cancel button.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmProps {
  /** the question, e.g. "Delete the field Pronouns?" */
  children: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function Confirm({ children, confirmLabel, pending, onConfirm, onCancel }: ConfirmProps) {
  const { t } = useTranslation('adminOrg');
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      className="admin-confirm"
      role="alertdialog"
      aria-labelledby={id}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <p id={id}>{children}</p>
      <div className="admin-actions">
        <button type="button" className="button" ref={cancel} onClick={onCancel}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={pending}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}
