import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/Avatar';
import {
  useActiveUsers,
  useMutedUsers,
  useOwnUserId,
  usePresenceStatuses,
} from '../../model/hooks';
import type { PresenceStatus } from '../../model/presence';
import { dmNarrow, narrowToUrl } from '../../narrow';

export function RightSidebar({ hidden }: { hidden: boolean }) {
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
    <aside id="right-sidebar" className="right-sidebar" aria-label="People" hidden={hidden}>
      <h2 className="sidebar-heading">People</h2>
      <label htmlFor="people-filter" className="visually-hidden">
        Filter people
      </label>
      <input
        id="people-filter"
        className="text-input people-filter"
        type="search"
        placeholder="Filter people"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <ul className="sidebar-list">
        {humans.map(({ user, status }) => (
          <li key={user.user_id}>
            <Link
              to={narrowToUrl(dmNarrow([user.user_id], ownUserId))}
              className="sidebar-row person-row"
              aria-label={`Direct message ${user.full_name} (${STATUS_LABEL[status]})`}
            >
              <span className="presence-avatar">
                <Avatar url={user.avatar_url} name={user.full_name} size={24} />
                <span className={`presence-dot presence-${status}`} title={STATUS_LABEL[status]} />
              </span>
              <span className="sidebar-name">
                {user.full_name}
                {user.user_id === ownUserId && <span className="person-you"> (you)</span>}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {bots.length > 0 && (
        <>
          <h3 className="sidebar-subheading">Bots</h3>
          <ul className="sidebar-list">
            {bots.map((user) => (
              <li key={user.user_id}>
                <Link
                  to={narrowToUrl(dmNarrow([user.user_id], ownUserId))}
                  className="sidebar-row person-row"
                  aria-label={`Direct message ${user.full_name}`}
                >
                  <Avatar url={user.avatar_url} name={user.full_name} size={24} />
                  <span className="sidebar-name">{user.full_name}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {shown.length === 0 && <p className="sidebar-empty">Nobody matches “{filter}”.</p>}
    </aside>
  );
}

const STATUS_ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
const STATUS_LABEL: Record<PresenceStatus, string> = {
  active: 'active',
  idle: 'idle',
  offline: 'offline',
};
