/**
 * The one way a screen shows a fetch that is not there yet: a spinner while it loads, and when it
 * failed, what went wrong with a way to try again (DESIGN §7). Screens render their data, and
 * their own empty state, only once it has arrived.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors';
import { ErrorState, LoadingState } from './StatePanel';

/** What QueryState reads of a React Query result; plain and infinite queries both have it. */
export interface QueryLike<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

export function QueryState<T>({
  query,
  loadingLabel,
  errorTitle,
  children,
}: {
  query: QueryLike<T>;
  loadingLabel?: string;
  errorTitle: string;
  children: (data: T) => ReactNode;
}) {
  if (query.status === 'pending') return <LoadingState label={loadingLabel} />;
  if (query.status === 'error')
    return <LoadError title={errorTitle} error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data as T)}</>;
}

/**
 * A failed fetch and its retry. `compact` fits inside a row or a sidebar list instead of filling
 * the pane.
 */
export function LoadError({
  title,
  error,
  retry,
  compact = false,
}: {
  title: string;
  error: unknown;
  retry: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation('components');
  const message = errorText(error, error instanceof Error ? error.message : String(error));
  if (!compact) return <ErrorState title={title} message={message} onRetry={retry} />;
  return (
    <p className="load-error" role="alert">
      {title}: {message}{' '}
      <button type="button" className="button button-small button-quiet" onClick={retry}>
        {t('tryAgain')}
      </button>
    </p>
  );
}
