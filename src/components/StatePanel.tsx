import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation('components');
  return (
    <div className="state-panel" role="status">
      <div className="spinner" aria-hidden="true" />
      <p>{label ?? t('loading')}</p>
    </div>
  );
}

export function ErrorState({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation('components');
  return (
    <div className="state-panel" role="alert">
      <h2>{title}</h2>
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('tryAgain')}
        </button>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state-panel">
      <h2>{title}</h2>
      {children && <p>{children}</p>}
    </div>
  );
}
