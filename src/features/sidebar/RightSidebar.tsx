import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  usePresenceStatuses,
} from '../../model/hooks';
import type { PresenceStatus } from '../../model/presence';
import { PersonRow, ProfileCardLayer } from '../people';

export function RightSidebar({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation('people');
  const users = useActiveUsers();
  const ownUserId = useOwnUserId();
  const muted = useMutedUsers();
  const statusOf = usePresenceStatuses();
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return users.filter(
      (u) =>
        !(u.user_id in muted) &&
        (!needle ||
          u.full_name.toLowerCase().includes(needle) ||
          u.email.toLowerCase().includes(needle)),
    );
  }, [users, filter, muted]);
  // You first, then who is here now, then who is away, each by name (the list arrives by name).
  const humans = shown
    .filter((u) => !u.is_bot)
    .map((u) => ({ user: u, status: statusOf(u.user_id) }))
    .sort(
      (a, b) =>
        Number(b.user.user_id === ownUserId) - Number(a.user.user_id === ownUserId) ||
        STATUS_ORDER[a.status] - STATUS_ORDER[b.status],
    );
  const bots = shown.filter((u) => u.is_bot);

  return (
    <aside
      id="right-sidebar"
      className="right-sidebar"
      aria-label={t('sidebar.heading')}
      hidden={hidden}
    >
      <h2 className="sidebar-heading">{t('sidebar.heading')}</h2>
      <label htmlFor="people-filter" className="visually-hidden">
        {t('sidebar.filterLabel')}
      </label>
      <input
        id="people-filter"
        className="text-input people-filter"
        type="search"
        placeholder={t('sidebar.filterLabel')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <ul className="sidebar-list">
        {humans.map(({ user, status }) => (
          <li key={user.user_id}>
            <PersonRow user={user} presence={status} isYou={user.user_id === ownUserId} />
          </li>
        ))}
      </ul>
      {bots.length > 0 && (
        <>
          <h3 className="sidebar-subheading">{t('sidebar.bots')}</h3>
          <ul className="sidebar-list">
            {bots.map((user) => (
              <li key={user.user_id}>
                <PersonRow user={user} isYou={false}>
                  <Avatar url={user.avatar_url} name={user.full_name} size={24} />
                </PersonRow>
              </li>
            ))}
          </ul>
        </>
      )}
      {shown.length === 0 && <p className="sidebar-empty">{t('sidebar.nobody', { filter })}</p>}
      <ProfileCardLayer />
    </aside>
  );
}

const STATUS_ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
