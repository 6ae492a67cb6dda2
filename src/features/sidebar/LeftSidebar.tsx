import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import {
  AtIcon,
  ClockIcon,
  DraftIcon,
  FeedIcon,
  InboxIcon,
  PeopleIcon,
  StarIcon,
} from '../../components/icons';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useMentionCount,
  useScheduledMessages,
  useStarredCount,
  useUnmutedUnreadTotal,
} from '../../model/hooks';
import {
  mentionsNarrow,
  narrowToUrl,
  starredNarrow,
  viewToUrl,
  type Place,
  type ViewName,
} from '../../narrow';
import { useDraftEntries } from '../drafts/draft-entries';
import { DmList } from './DmList';
import { StreamList } from './StreamList';
import { useIsSpectator } from '../../model/session-context';

export function LeftSidebar({ place, hidden }: { place: Place | null; hidden: boolean }) {
  const { t } = useTranslation('navigation');
  const spectator = useIsSpectator();
  return (
    <nav id="left-sidebar" className="left-sidebar" aria-label={t('sidebar.label')} inert={hidden}>
      {/* A visitor reads channels only: the personal views and direct messages need an account. */}
      {!spectator && <ViewList place={place} />}
      <StreamList place={place} />
      {!spectator && <DmList place={place} />}
    </nav>
  );
}

function ViewList({ place }: { place: Place | null }) {
  const { t } = useTranslation('navigation');
  const unreadTotal = useUnmutedUnreadTotal();
  const mentions = useMentionCount();
  const starred = useStarredCount();
  const drafts = useDraftEntries().length;
  const scheduled = Object.keys(useScheduledMessages()).length;
  const { t: tDrafts } = useTranslation('drafts');
  const { t: tGroups } = useTranslation('groups');
  const isView = (view: ViewName) => place?.kind === 'view' && place.view === view;
  const isNarrow = (kind: string) => place?.kind === 'narrow' && place.narrow.kind === kind;

  return (
    <ul className="sidebar-list sidebar-views">
      <ViewLink
        to={viewToUrl('inbox')}
        icon={<InboxIcon />}
        name={t('views.inbox')}
        count={unreadTotal}
        current={isView('inbox')}
      />
      <ViewLink
        to={viewToUrl('recent')}
        icon={<ClockIcon />}
        name={t('views.recent')}
        count={0}
        current={isView('recent')}
      />
      <ViewLink
        to="/feed"
        icon={<FeedIcon />}
        name={t('views.feed')}
        count={0}
        current={isNarrow('feed')}
      />
      <ViewLink
        to={narrowToUrl(starredNarrow)}
        icon={<StarIcon />}
        name={t('views.starred')}
        count={starred}
        quietCount
        current={isNarrow('starred')}
      />
      <ViewLink
        to={narrowToUrl(mentionsNarrow)}
        icon={<AtIcon />}
        name={t('views.mentions')}
        count={mentions}
        mention
        current={isNarrow('mentions')}
      />
      <ViewLink
        to={viewToUrl('drafts')}
        icon={<DraftIcon />}
        name={t('views.drafts')}
        count={drafts}
        quietCount
        current={isView('drafts')}
      />
      <ViewLink
        to={viewToUrl('scheduled')}
        icon={<ClockIcon />}
        name={tDrafts('scheduled.title')}
        count={scheduled}
        quietCount
        current={isView('scheduled')}
      />
      <ViewLink
        to={viewToUrl('groups')}
        icon={<PeopleIcon />}
        name={tGroups('sidebarLink')}
        count={0}
        current={isView('groups')}
      />
    </ul>
  );
}

interface ViewLinkProps {
  to: string;
  icon: ReactNode;
  name: string;
  count: number;
  current: boolean;
  mention?: boolean;
  /** a count that is not "unread" (starred, drafts) */
  quietCount?: boolean;
}

function ViewLink({ to, icon, name, count, current, mention, quietCount }: ViewLinkProps) {
  const { t } = useTranslation('navigation');
  const label = quietCount
    ? count > 0
      ? t('sidebar.countLabel', { name, count })
      : name
    : withUnreadLabel(name, count);
  return (
    <li>
      <Link
        to={to}
        className="sidebar-row"
        aria-label={label}
        aria-current={current ? 'page' : undefined}
      >
        <span className="sidebar-icon">{icon}</span>
        <span className="sidebar-name">{name}</span>
        {quietCount ? (
          count > 0 && (
            <span className="sidebar-count-quiet" aria-hidden="true">
              {count}
            </span>
          )
        ) : (
          <UnreadBadge count={count} mention={mention} />
        )}
      </Link>
    </li>
  );
}
