import type { ReactNode } from 'react';
import { useProfileCard } from './card-store';

/**
 * A name or avatar that opens the person's card. An avatar beside a name (`duplicate`) is for the
 * mouse only: keyboards and screen readers reach the card through the name.
 */
export function PersonTrigger({
  userId,
  children,
  duplicate = false,
  className,
}: {
  userId: number;
  children: ReactNode;
  duplicate?: boolean;
  className?: string;
}) {
  const show = useProfileCard((s) => s.show);
  return (
    <button
      type="button"
      className={['person-trigger', className].filter(Boolean).join(' ')}
      aria-haspopup="dialog"
      tabIndex={duplicate ? -1 : undefined}
      aria-hidden={duplicate || undefined}
      onClick={(event) => show(userId, event.currentTarget)}
    >
      {children}
    </button>
  );
}
