/**
 * Custom profile fields: the organization's extra questions on every profile. Administrators
 * add them (eight kinds, with choices or an external account kind), edit, reorder and delete
 * them; everyone else sees the list. The custom_profile_fields event updates every window.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomProfileField } from '../../api/model';
import { useProfileFields } from '../../model/hooks';
import { fieldChoices } from '../../model/profile-fields';
import { StatusNote } from '../settings/controls';
import { EmptyState } from '../../components/StatePanel';
import type { RowAction } from '../../components/RowActions';
import { AddItem, EditableRow } from './EditableRow';
import { ReadOnlyNote } from './org-controls';
import { useDeleteProfileField, useReorderProfileFields } from './org-queries';
import { FieldForm, SUMMARY_LIMIT, useTypeName } from './ProfileFieldForm';

function FieldRow({
  field,
  index,
  count,
  onMove,
  moving,
}: {
  field: CustomProfileField;
  index: number;
  count: number;
  onMove(from: number, to: number): void;
  moving: boolean;
}) {
  const { t } = useTranslation('adminOrg');
  const typeName = useTypeName();
  const remove = useDeleteProfileField();
  const choices = fieldChoices(field);
  const moves: RowAction[] = [
    {
      label: '↑',
      name: t('fields.moveUp', { name: field.name }),
      disabled: index === 0 || moving,
      onClick: () => onMove(index, index - 1),
    },
    {
      label: '↓',
      name: t('fields.moveDown', { name: field.name }),
      disabled: index === count - 1 || moving,
      onClick: () => onMove(index, index + 1),
    },
  ];
  return (
    <EditableRow
      editName={t('fields.edit', { name: field.name })}
      deleteName={t('fields.delete', { name: field.name })}
      moreActions={moves}
      confirmDelete={t('fields.confirmDelete', { name: field.name })}
      remove={remove}
      onDelete={() => remove.mutate(field.id)}
      editForm={(done) => <FieldForm field={field} onDone={done} />}
    >
      <div className="admin-item-text">
        <strong>{field.name}</strong>
        <span className="admin-tag">{typeName(field.type)}</span>
        {field.display_in_profile_summary && (
          <span className="admin-tag admin-tag-accent">{t('fields.inSummary')}</span>
        )}
        {field.required && <span className="admin-tag">{t('fields.requiredTag')}</span>}
        {field.hint && <p className="settings-hint">{field.hint}</p>}
        {choices.length > 0 && (
          <p className="settings-hint">{choices.map((c) => c.text).join(' · ')}</p>
        )}
      </div>
    </EditableRow>
  );
}

export function ProfileFieldsSection() {
  const { t } = useTranslation('adminOrg');
  const fields = useProfileFields();
  const reorder = useReorderProfileFields();
  // The order being saved shows at once and stays until the event brings the new list (or the
  // save fails), so the rows do not jump back in between.
  const [moved, setMoved] = useState<{ order: number[]; basis: typeof fields } | null>(null);
  const shown =
    moved && moved.basis === fields && !reorder.isError
      ? moved.order
          .map((id) => fields.find((f) => f.id === id))
          .filter((f): f is CustomProfileField => f !== undefined)
      : fields;
  const move = (from: number, to: number) => {
    const order = shown.map((f) => f.id);
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id);
    setMoved({ order, basis: fields });
    reorder.mutate(order);
  };
  const inSummary = fields.filter((f) => f.display_in_profile_summary).length;
  return (
    <div className="admin-org">
      <ReadOnlyNote />
      <p className="settings-hint">
        {t('fields.intro')} {t('fields.summaryCount', { count: inSummary, limit: SUMMARY_LIMIT })}
      </p>
      <AddItem label={t('fields.addButton')} form={(done) => <FieldForm onDone={done} />} />
      {shown.length === 0 ? (
        <EmptyState title={t('fields.emptyTitle')}>{t('fields.emptyMessage')}</EmptyState>
      ) : (
        <ol className="admin-list" aria-label={t('fields.listLabel')}>
          {shown.map((field, i) => (
            <FieldRow
              key={field.id}
              field={field}
              index={i}
              count={shown.length}
              onMove={move}
              moving={reorder.isPending}
            />
          ))}
        </ol>
      )}
      {reorder.isError && <StatusNote save={reorder} />}
    </div>
  );
}
