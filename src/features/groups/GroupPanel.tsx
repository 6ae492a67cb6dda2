/**
 * One group: what it is, who is in it, its subgroups, who may mention it, and deleting it. Each
 * part is its own section with its own mutation; the ones the user may not change are shown
 * read-only. A group deleted meanwhile (by anyone) turns into a note that it is gone.
 */
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { EmptyState } from '../../components/StatePanel';
import { currentLocale } from '../../i18n';
import { useUser, useUserGroups } from '../../model/hooks';
import { DeleteGroupSection } from './DeleteGroupSection';
import { groupDisplayName } from './group-names';
import { GroupInfoSection } from './GroupInfoSection';
import { GroupMembersSection } from './GroupMembersSection';
import { GroupPermissionsSection } from './GroupPermissionsSection';
import { GroupSubgroupsSection } from './GroupSubgroupsSection';
import { useMayManageGroup } from './use-group-permissions';

export function GroupPanel({ groupId }: { groupId: number }) {
  const { t } = useTranslation('groups');
  const group = useUserGroups().byId[groupId];
  const mayManage = useMayManageGroup(group);
  const creator = useUser(group?.creator_id ?? -1);

  if (!group || group.deactivated)
    return (
      <EmptyState title={t('panel.notFoundTitle')}>
        <Link to="/groups">{t('panel.backToList')}</Link>
      </EmptyState>
    );

  const created =
    typeof group.date_created === 'number'
      ? new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'long' }).format(
          new Date(group.date_created * 1000),
        )
      : null;

  return (
    <section className="groups-page" aria-labelledby="group-title">
      <Link className="groups-back" to="/groups">
        {t('panel.backToList')}
      </Link>
      <header className="groups-panel-header">
        <h1 id="group-title">{groupDisplayName(group)}</h1>
        {group.is_system_group ? (
          <p className="groups-hint">{t('panel.systemNote')}</p>
        ) : (
          created && (
            <p className="groups-hint">
              {creator
                ? t('panel.createdBy', { name: creator.full_name, date: created })
                : t('panel.createdOn', { date: created })}
            </p>
          )
        )}
        {!group.is_system_group && !mayManage && (
          <p className="groups-note" role="note">
            {t('panel.readOnly')}
          </p>
        )}
      </header>
      <GroupInfoSection group={group} mayManage={mayManage} />
      <GroupMembersSection group={group} mayManage={mayManage} />
      <GroupSubgroupsSection group={group} mayManage={mayManage} />
      {!group.is_system_group && <GroupPermissionsSection group={group} mayManage={mayManage} />}
      {mayManage && <DeleteGroupSection group={group} />}
    </section>
  );
}
