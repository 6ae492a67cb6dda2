/** A group's name and description: a form for those who may change them, text for the rest. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserGroup } from '../../api/model';
import { useUpdateUserGroup } from '../../queries/groups';
import { StatusNote } from '../settings/controls';
import { GroupFields } from './GroupFields';

export function GroupInfoSection({ group, mayManage }: { group: UserGroup; mayManage: boolean }) {
  const { t } = useTranslation('groups');
  const ids = useId();
  const update = useUpdateUserGroup(group.id);
  // null: not being edited, so the field follows the group as its events change it.
  const [name, setName] = useState<string | null>(null);
  const [description, setDescription] = useState<string | null>(null);
  const shownName = name ?? group.name;
  const shownDescription = description ?? group.description;
  const changed = shownName.trim() !== group.name || shownDescription.trim() !== group.description;

  if (!mayManage)
    return (
      <section className="groups-card" aria-labelledby={`${ids}-title`}>
        <h2 id={`${ids}-title`}>{t('info.title')}</h2>
        <p className={group.description ? 'groups-description' : 'groups-hint'}>
          {group.is_system_group
            ? t('panel.systemDescription')
            : group.description || t('info.noDescription')}
        </p>
      </section>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const nextName = shownName.trim();
    const nextDescription = shownDescription.trim();
    if (!nextName) return;
    update.mutate(
      {
        name: nextName !== group.name ? nextName : undefined,
        description: nextDescription !== group.description ? nextDescription : undefined,
      },
      {
        onSuccess: () => {
          setName(null);
          setDescription(null);
        },
      },
    );
  };

  return (
    <form className="groups-card groups-form" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('info.title')}</h2>
      <GroupFields
        name={shownName}
        description={shownDescription}
        onName={setName}
        onDescription={setDescription}
      />
      <div className="groups-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={!changed || !shownName.trim() || update.isPending}
        >
          {t('info.save')}
        </button>
        <StatusNote save={update} />
      </div>
    </form>
  );
}
