/** The people picked so far for a new group, each with a way to take them out again. */
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import { CloseIcon } from '../../components/icons';
import { useUsersById } from '../../model/hooks';

export function ChosenPeople({
  userIds,
  label,
  onRemove,
}: {
  userIds: readonly number[];
  label: string;
  onRemove(userId: number): void;
}) {
  const { t } = useTranslation('groups');
  const users = useUsersById();
  if (userIds.length === 0) return <p className="groups-hint">{t('picker.noneChosen')}</p>;
  return (
    <ul className="groups-chips" aria-label={label}>
      {userIds.map((id) => {
        const name = users[id]?.full_name ?? t('members.unknown');
        return (
          <li key={id} className="groups-chip">
            <Avatar url={users[id]?.avatar_url} name={name} size={20} />
            <span>{name}</span>
            <button
              type="button"
              className="icon-button groups-chip-remove"
              aria-label={t('picker.removeChosen', { name })}
              onClick={() => onRemove(id)}
            >
              <CloseIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
