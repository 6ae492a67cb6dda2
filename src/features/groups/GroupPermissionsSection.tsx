/**
 * Who may mention the group (`can_mention_group`): any role group but "everyone on the internet"
 * and "owners", or a group people made. Shown as text to those who may not change it.
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserGroup } from '../../api/model';
import { useUserGroups } from '../../model/hooks';
import { useUpdateUserGroup } from '../../queries/groups';
import { SelectRow } from '../settings/controls';
import { groupDisplayName, mentionSettingChoices } from './group-names';

/** The value an anonymous group (a set of people and groups, from newer servers) shows as. */
const CUSTOM = -1;

export function GroupPermissionsSection({
  group,
  mayManage,
}: {
  group: UserGroup;
  mayManage: boolean;
}) {
  const { t } = useTranslation('groups');
  const ids = useId();
  const state = useUserGroups();
  const update = useUpdateUserGroup(group.id);
  const setting = group.can_mention_group;
  const saved = typeof setting === 'number' ? setting : CUSTOM;
  // The choice shows at once; the group's update event (or a refusal) settles it.
  const [chosen, setChosen] = useState<number | null>(null);
  useEffect(() => setChosen(null), [saved]);
  const value = chosen ?? saved;
  const choices = mentionSettingChoices(state);
  const options: [number, string][] = choices.map((g) => [g.id, groupDisplayName(g)]);
  if (!options.some(([id]) => id === value))
    options.push([
      value,
      value === CUSTOM
        ? t('permissions.custom')
        : state.byId[value]
          ? groupDisplayName(state.byId[value])
          : t('permissions.unknown'),
    ]);
  const label = t('permissions.canMention');

  return (
    <section className="groups-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('permissions.title')}</h2>
      {mayManage ? (
        <SelectRow
          label={label}
          hint={t('permissions.canMentionHint')}
          value={value}
          options={options}
          onChange={(next) => {
            if (next === CUSTOM) return;
            setChosen(next);
            update.mutate({ canMentionGroup: next }, { onError: () => setChosen(null) });
          }}
          save={update}
        />
      ) : (
        <dl className="groups-facts">
          <dt>{label}</dt>
          <dd>{options.find(([id]) => id === value)?.[1]}</dd>
        </dl>
      )}
    </section>
  );
}
