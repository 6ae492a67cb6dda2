/**
 * The people directly in a group. Those who may manage it add people through a typeahead and
 * remove them one by one; each change shows its progress or the server's refusal where it was
 * made.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserGroup } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { useOwnUserId, useUsersById } from '../../model/hooks';
import { useUpdateGroupMembers } from '../../queries/groups';
import { StatusNote } from '../settings/controls';
import { PersonPicker } from './PersonPicker';

export function GroupMembersSection({
  group,
  mayManage,
}: {
  group: UserGroup;
  mayManage: boolean;
}) {
  const { t } = useTranslation('groups');
  const ids = useId();
  const users = useUsersById();
  const ownUserId = useOwnUserId();
  const add = useUpdateGroupMembers(group.id);
  const remove = useUpdateGroupMembers(group.id);
  const [removing, setRemoving] = useState<number | null>(null);
  const members = useMemo(
    () =>
      [...group.members].sort((a, b) =>
        (users[a]?.full_name ?? '').localeCompare(users[b]?.full_name ?? ''),
      ),
    [group.members, users],
  );
  const title = t('members.title', { count: group.members.length });

  return (
    <section className="groups-card" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{title}</h2>
      {mayManage && (
        <div className="groups-add-row">
          <PersonPicker
            id={`${ids}-add`}
            label={t('members.add')}
            placeholder={t('picker.placeholder')}
            exclude={group.members}
            onPick={(userId) => add.mutate({ add: [userId] })}
          />
          <StatusNote save={add} />
        </div>
      )}
      {members.length === 0 ? (
        <p className="groups-hint">{t('members.empty')}</p>
      ) : (
        <ul className="groups-people" aria-label={t('members.listLabel', { name: group.name })}>
          {members.map((userId) => {
            const user = users[userId];
            const name = user?.full_name ?? t('members.unknown');
            return (
              <li key={userId} className="groups-person">
                <Avatar url={user?.avatar_url} name={name} size={28} />
                <span className="groups-person-name">
                  {name}
                  {userId === ownUserId && (
                    <span className="groups-person-detail"> {t('members.you')}</span>
                  )}
                  {user && !user.is_active && (
                    <span className="groups-person-detail"> {t('members.deactivated')}</span>
                  )}
                </span>
                {removing === userId && <StatusNote save={remove} />}
                {mayManage && (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('members.remove', { name })}
                    disabled={remove.isPending && removing === userId}
                    onClick={() => {
                      setRemoving(userId);
                      remove.mutate({ remove: [userId] });
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
