/**
 * A row of an administration list that administrators edit in place and delete after an inline
 * confirmation (linkifiers, custom profile fields), and the button that opens the form adding one.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { RowActions, type RowAction } from '../../components/RowActions';
import { StatusNote, type SaveState } from '../settings/controls';
import { Confirm } from './Confirm';
import { useOrgRole } from './org-controls';

interface EditableRowProps {
  /** what the row shows */
  children: ReactNode;
  /** the accessible names of its Edit and Delete buttons */
  editName: string;
  deleteName: string;
  /** buttons before Edit and Delete */
  moreActions?: readonly RowAction[];
  /** the question asked before deleting */
  confirmDelete: ReactNode;
  /** the delete mutation, for its pending and failed states */
  remove: SaveState & { isPending: boolean; isError: boolean };
  onDelete(): void;
  editForm(done: () => void): ReactNode;
}

export function EditableRow({
  children,
  editName,
  deleteName,
  moreActions = [],
  confirmDelete,
  remove,
  onDelete,
  editForm,
}: EditableRowProps) {
  const { t } = useTranslation('adminOrg');
  const { isAdmin } = useOrgRole();
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const done = () => setMode('view');
  return (
    <li className="admin-item">
      <div className="admin-item-main">
        {children}
        {isAdmin && mode === 'view' && (
          <RowActions
            className="admin-item-actions"
            actions={[
              ...moreActions,
              { label: t('edit'), name: editName, onClick: () => setMode('edit') },
              { label: t('delete'), name: deleteName, onClick: () => setMode('delete') },
            ]}
          />
        )}
      </div>
      {mode === 'edit' && editForm(done)}
      {mode === 'delete' && (
        <Confirm
          confirmLabel={t('delete')}
          pending={remove.isPending}
          onCancel={done}
          onConfirm={onDelete}
        >
          {confirmDelete}
        </Confirm>
      )}
      {remove.isError && <StatusNote save={remove} />}
    </li>
  );
}

/** For administrators: a button that opens the form adding an item, in its place. */
export function AddItem({ label, form }: { label: string; form(done: () => void): ReactNode }) {
  const { isAdmin } = useOrgRole();
  const [adding, setAdding] = useState(false);
  if (!isAdmin) return null;
  if (adding) return form(() => setAdding(false));
  return (
    <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
      {label}
    </button>
  );
}

/** Cancel and save at the foot of an add or edit form, and why the save failed. */
export function EditFormButtons({
  save,
  submitLabel,
  onCancel,
}: {
  save: { isPending: boolean; isError: boolean; error: unknown };
  submitLabel: string;
  onCancel(): void;
}) {
  const { t } = useTranslation('adminOrg');
  return (
    <>
      <div className="admin-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {submitLabel}
        </button>
      </div>
      {save.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(save.error)}
        </p>
      )}
    </>
  );
}
