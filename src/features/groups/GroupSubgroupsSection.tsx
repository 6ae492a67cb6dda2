/**
 * The groups inside a group: everyone in them belongs to it too. Managers add a group through a
 * typeahead (never one that would contain the group itself) and remove them one by one.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import type { UserGroup } from '../../api/model';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { useUserGroups } from '../../model/hooks';
import { useUpdateSubgroups } from '../../queries/groups';
import { StatusNote } from '../settings/controls';
import { groupDisplayName, subgroupCandidates } from './group-names';

export function GroupSubgroupsSection({
  group,
  mayManage,
}: {
  group: UserGroup;
  mayManage: boolean;
}) {
  const { t } = useTranslation('groups');
  const ids = useId();
  const state = useUserGroups();
  const remove = useUpdateSubgroups(group.id);
  const [removing, setRemoving] = useState<number | null>(null);
  const subgroups = group.direct_subgroup_ids
    .map((id) => state.byId[id])
    .filter((g): g is UserGroup => g !== undefined);

  return (
    <section className="groups-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('subgroups.title')}</h2>
      <p className="groups-hint">{t('subgroups.hint')}</p>
      {mayManage && <AddSubgroup id={`${ids}-add`} group={group} />}
      {subgroups.length === 0 ? (
        <p className="groups-hint">{t('subgroups.empty')}</p>
      ) : (
        <ul className="groups-people" aria-label={t('subgroups.listLabel', { name: group.name })}>
          {subgroups.map((subgroup) => {
            const name = groupDisplayName(subgroup);
            return (
              <li key={subgroup.id} className="groups-person">
                {subgroup.is_system_group ? (
                  <span className="groups-person-name">{name}</span>
                ) : (
                  <Link className="groups-person-name" to={`/groups/${subgroup.id}`}>
                    {name}
                  </Link>
                )}
                {removing === subgroup.id && <StatusNote save={remove} />}
                {mayManage && (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('subgroups.remove', { name })}
                    disabled={remove.isPending && removing === subgroup.id}
                    onClick={() => {
                      setRemoving(subgroup.id);
                      remove.mutate({ remove: [subgroup.id] });
                    }}
                  >
                    {t('members.removeShort')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A typeahead of the groups that may go inside this one; picking one adds it. */
function AddSubgroup({ id, group }: { id: string; group: UserGroup }) {
  const { t } = useTranslation('groups');
  const state = useUserGroups();
  const add = useUpdateSubgroups(group.id);
  const [query, setQuery] = useState('');
  const suggestions = useMemo((): Suggestion[] => {
    const needle = query.trim().toLowerCase();
    if (!needle) return [];
    return subgroupCandidates(state, group)
      .filter((g) => g.name.toLowerCase().includes(needle))
      .slice(0, 8)
      .map((g) => ({ key: String(g.id), label: g.name, detail: g.description }));
  }, [state, group, query]);

  return (
    <div className="groups-add-row">
      <Combobox
        id={id}
        label={t('subgroups.add')}
        placeholder={t('subgroups.placeholder')}
        className="groups-picker"
        value={query}
        onChange={setQuery}
        suggestions={suggestions}
        onPick={(suggestion) => {
          add.mutate({ add: [Number(suggestion.key)] });
          setQuery('');
        }}
      />
      <StatusNote save={add} />
    </div>
  );
}
