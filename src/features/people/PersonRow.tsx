import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { useUserStatus } from '../../model/hooks';
import type { PresenceStatus } from '../../model/presence';
import { useProfileCard } from './card-store';
import { StatusEmoji } from './StatusBadge';

/** One person in the people list: opens their card; shows presence and status emoji. */
export function PersonRow({
  user,
  presence,
  isYou,
  children,
}: {
  user: User;
  /** absent for bots, who have no presence */
  presence?: PresenceStatus;
  isYou: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('people');
  const show = useProfileCard((s) => s.show);
  const status = useUserStatus(user.user_id);
  const shown = status.away ? 'away' : presence;
  const label = shown
    ? t('sidebar.personLabel', { name: user.full_name, status: t(`sidebar.status.${shown}`) })
    : user.full_name;
  return (
    <button
      type="button"
      className="sidebar-row person-row"
      aria-haspopup="dialog"
      aria-label={label}
      title={status.status_text || undefined}
      onClick={(event) => show(user.user_id, event.currentTarget)}
    >
      {children ?? (
        <span className="presence-avatar">
          <Avatar url={user.avatar_url} name={user.full_name} size={24} />
          <span
            className={`presence-dot presence-${shown === 'away' ? 'offline' : shown}`}
            aria-hidden="true"
          />
        </span>
      )}
      <span className="sidebar-name">
        {user.full_name}
        {isYou && <span className="person-you"> {t('sidebar.you')}</span>}
      </span>
      <StatusEmoji status={status} />
    </button>
  );
}
