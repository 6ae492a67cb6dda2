import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { Avatar } from '../../components/Avatar';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import { useDmUnreadCount, useMutedUsers, useRecentDms, useUsersById } from '../../model/hooks';
import { dmNarrow, narrowKey, narrowToUrl, type Place } from '../../narrow';
import { dmConversationName } from './conversation-names';

const DMS_SHOWN = 12;

export function DmList({ place }: { place: Place | null }) {
  const { t } = useTranslation('navigation');
  const muted = useMutedUsers();
  // One-on-one conversations with someone you muted are not listed.
  const recent = useRecentDms().filter(
    (c) => !(c.user_ids.length === 1 && c.user_ids[0]! in muted),
  );
  const currentKey = place?.kind === 'narrow' ? narrowKey(place.narrow) : null;
  return (
    <section className="sidebar-section" aria-labelledby="dms-heading">
      <h2 id="dms-heading" className="sidebar-heading">
        {t('dms.heading')}
      </h2>
      {recent.length === 0 ? (
        <p className="sidebar-empty">{t('dms.empty')}</p>
      ) : (
        <ul className="sidebar-list">
          {recent.slice(0, DMS_SHOWN).map((conversation) => (
            <DmItem
              key={conversation.user_ids.join(',')}
              userIds={conversation.user_ids}
              current={currentKey === narrowKey(dmNarrow(conversation.user_ids))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function DmItem({ userIds, current }: { userIds: number[]; current: boolean }) {
  useTranslation('navigation'); // the conversation's name and unread label follow the language
  const users = useUsersById();
  const count = useDmUnreadCount(userIds);
  const name = dmConversationName(userIds, users, useMutedUsers());
  const single = userIds.length === 1 ? users[userIds[0]] : undefined;
  return (
    <li>
      <Link
        to={narrowToUrl(dmNarrow(userIds))}
        className="sidebar-row"
        aria-label={withUnreadLabel(name, count)}
        aria-current={current ? 'page' : undefined}
      >
        {single ? (
          <Avatar url={single.avatar_url} name={single.full_name} size={20} />
        ) : (
          <span className="group-dm-icon" aria-hidden="true">
            {userIds.length}
          </span>
        )}
        <span className="sidebar-name">{name}</span>
        <UnreadBadge count={count} mention />
      </Link>
    </li>
  );
}
