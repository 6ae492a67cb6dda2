/**
 * The small buttons at the end of a list row (Edit, Delete, Revoke...). Each names its row for
 * assistive technology ("Edit Pronouns"), since the visible text alone repeats on every row.
 */
import type { ReactNode } from 'react';

export interface RowAction {
  /** the visible text */
  label: ReactNode;
  /** the accessible name, which says which row it acts on */
  name: string;
  onClick(): void;
  disabled?: boolean;
  /** shown in the danger colour: it deletes at once, without asking */
  danger?: boolean;
}

export function ActionButton({ action }: { action: RowAction }) {
  return (
    <button
      type="button"
      className={action.danger ? 'button button-small button-danger' : 'button button-small'}
      aria-label={action.name}
      disabled={action.disabled}
      onClick={action.onClick}
    >
      {action.label}
    </button>
  );
}

/** The row's buttons in one box; `false` leaves out an action this row does not offer. */
export function RowActions({
  className,
  actions,
}: {
  className: string;
  actions: readonly (RowAction | false)[];
}) {
  return (
    <div className={className}>
      {actions.map((action) => action && <ActionButton key={action.name} action={action} />)}
    </div>
  );
}
