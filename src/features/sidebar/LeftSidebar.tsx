import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import {
  AtIcon,
  ClockIcon,
  DraftIcon,
  FeedIcon,
  InboxIcon,
  StarIcon,
} from '../../components/icons';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useMentionCount,
  useServerDrafts,
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
import { useSession } from '../app/session-context';
import { DmList } from './DmList';
import { StreamList } from './StreamList';
import { useIsSpectator } from '../app/session-context';

export function LeftSidebar({ place, hidden }: { place: Place | null; hidden: boolean }) {
  const spectator = useIsSpectator();
  return (
    <nav id="left-sidebar" className="left-sidebar" aria-label="Channels and views" inert={hidden}>
      {/* A visitor reads channels only: the personal views and direct messages need an account. */}
      {!spectator && <ViewList place={place} />}
      <StreamList place={place} />
      {!spectator && <DmList place={place} />}
    </nav>
  );
}

function ViewList({ place }: { place: Place | null }) {
  const unreadTotal = useUnmutedUnreadTotal();
  const mentions = useMentionCount();
  const starred = useStarredCount();
  const localDrafts = useStore(useSession().composeDrafts, (state) => state.byConversation);
  const drafts =
    Object.keys(useServerDrafts()).length +
    Object.values(localDrafts).filter((d) => d.content.trim()).length;
  const isView = (view: ViewName) => place?.kind === 'view' && place.view === view;
  const isNarrow = (kind: string) => place?.kind === 'narrow' && place.narrow.kind === kind;

  return (
    <ul className="sidebar-list sidebar-views">
      <ViewLink
        to={viewToUrl('inbox')}
        icon={<InboxIcon />}
        name="Inbox"
        count={unreadTotal}
        current={isView('inbox')}
      />
      <ViewLink
        to={viewToUrl('recent')}
        icon={<ClockIcon />}
        name="Recent conversations"
        count={0}
        current={isView('recent')}
      />
      <ViewLink
        to="/feed"
        icon={<FeedIcon />}
        name="Combined feed"
        count={0}
        current={isNarrow('feed')}
      />
      <ViewLink
        to={narrowToUrl(starredNarrow)}
        icon={<StarIcon />}
        name="Starred messages"
        count={starred}
        quietCount
        current={isNarrow('starred')}
      />
      <ViewLink
        to={narrowToUrl(mentionsNarrow)}
        icon={<AtIcon />}
        name="Mentions"
        count={mentions}
        mention
        current={isNarrow('mentions')}
      />
      <ViewLink
        to={viewToUrl('drafts')}
        icon={<DraftIcon />}
        name="Drafts"
        count={drafts}
        quietCount
        current={isView('drafts')}
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
  const label = quietCount
    ? count > 0
      ? `${name}, ${count}`
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
