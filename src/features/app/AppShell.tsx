import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { LoadingState } from '../../components/StatePanel';
import { useIsPhone } from '../../components/use-is-phone';
import { useOwnUserId, useSortedSubscriptions, useUserSetting } from '../../model/hooks';
import {
  narrowToUrl,
  NOTHING_PUBLIC_URL,
  parsePlaceUrl,
  pathFromZulipHash,
  streamNarrow,
  type Place,
} from '../../narrow';
import { useColorScheme } from '../settings/color-scheme';
import { useDisplaySettings } from '../settings/display-settings';
import { LeftSidebar } from '../sidebar/LeftSidebar';
import { RightSidebar } from '../sidebar/RightSidebar';
import { ConnectionBanner } from './ConnectionBanner';
import { useIsSpectator } from '../../model/session-context';
import { stopSpectating } from '../login/credentials';
import { visitorCanRead } from '../login/visitor-link';
import { TopicManagement } from '../topics/TopicManagement';
import { TopBar } from './TopBar';
import { useDesktopNotifications } from './desktop-notifications';
import { useDocumentTitle } from './document-title';
import { GlobalShortcuts } from '../keyboard/GlobalShortcuts';
import { usePresenceReporter } from './use-presence-reporter';
import { whenFirstUsed } from './when-first-used';
import { loadable } from '../../components/loadable';
import { loadSearchLanguage } from '../search/use-search-language';
import { loadEventCaching } from '../../queries/session-caches';
import { useInterfaceLanguage } from './use-interface-language';

/*
 * The views people open now and then (settings, administration, channels, groups, profiles,
 * drafts, scheduled messages) load when first opened, each its own chunk: the first view (the
 * inbox, recent conversations or a conversation) does not wait for their code.
 */
const AdminView = lazy(() => import('../admin/AdminView').then((m) => ({ default: m.AdminView })));
const SettingsView = lazy(() =>
  import('../settings/SettingsView').then((m) => ({ default: m.SettingsView })),
);
const GroupsView = lazy(() =>
  import('../groups/GroupsView').then((m) => ({ default: m.GroupsView })),
);
const ChannelsView = lazy(() =>
  import('../channels/ChannelsView').then((m) => ({ default: m.ChannelsView })),
);
const ChannelSettings = lazy(() =>
  import('../channels/ChannelSettings').then((m) => ({ default: m.ChannelSettings })),
);
const DraftsView = lazy(() =>
  import('../drafts/DraftsView').then((m) => ({ default: m.DraftsView })),
);
const ScheduledView = lazy(() =>
  import('../scheduled/ScheduledView').then((m) => ({ default: m.ScheduledView })),
);
const ProfileView = lazy(() =>
  import('../people/ProfileView').then((m) => ({ default: m.ProfileView })),
);

/*
 * The three views a session starts in load as their own chunks too, so that the first view
 * downloads only its own code. Once the person first moves, touches or types, the others are
 * fetched while the page is idle, with the search language and the code that applies events to
 * the caches, so that opening a conversation, searching or marking as read does not wait. Not on
 * a timer: a page nobody touches has no use for them (and Lighthouse counts all that a first
 * view fetches as its own).
 */
const messageView = loadable(() =>
  import('../message-list/MessageView').then((m) => m.MessageView),
);
const inboxView = loadable(() => import('../inbox/InboxView').then((m) => m.InboxView));
const recentView = loadable(() => import('../recent/RecentView').then((m) => m.RecentView));
const { Component: MessageView, preload: loadMessageView } = messageView;
const { Component: InboxView, preload: loadInboxView } = inboxView;
const { Component: RecentView, preload: loadRecentView } = recentView;
/** Only a mistyped address shows it; it alone here needs react-i18next's Trans. */
const NotFound = lazy(() => import('./NotFound').then((m) => ({ default: m.NotFound })));

/*
 * The view the page's address opens starts loading with the page, beside the session's start,
 * rather than once the first state is there: on a reload from the kept state, that wait was the
 * longest part of the time to the first message.
 */
const startingPath = typeof location === 'undefined' ? '' : location.pathname;
if (startingPath.startsWith('/narrow/') || startingPath === '/feed')
  void loadMessageView().catch(() => {});
else if (startingPath === '/recent') void loadRecentView().catch(() => {});
else if (startingPath === '/inbox') void loadInboxView().catch(() => {});

function usePrefetchViews() {
  useEffect(
    () =>
      whenFirstUsed(() => {
        void loadMessageView().catch(ignoreFailedPrefetch);
        void loadInboxView().catch(ignoreFailedPrefetch);
        void loadRecentView().catch(ignoreFailedPrefetch);
        void loadSearchLanguage().catch(ignoreFailedPrefetch);
        void loadEventCaching().catch(ignoreFailedPrefetch);
      }),
    [],
  );
}

/** A prefetch that fails (offline) is tried again when the view or box is opened. */
const ignoreFailedPrefetch = () => {};

const HOME_URLS: Record<string, string> = {
  inbox: '/inbox',
  recent_topics: '/recent',
  all_messages: '/feed',
};

export function AppShell() {
  const location = useLocation();
  const ownUserId = useOwnUserId();
  const homeView = useUserSetting('web_home_view');
  useColorScheme(useUserSetting('color_scheme'));
  useInterfaceLanguage(useUserSetting('default_language'));
  useDisplaySettings();
  const { t } = useTranslation();
  usePresenceReporter();
  useDesktopNotifications();
  usePrefetchViews();
  const subscriptions = useSortedSubscriptions();
  const firstChannel = subscriptions[0];
  const isPhone = useIsPhone();
  const spectator = useIsSpectator();
  useDocumentTitle(parsePlaceUrl(location.pathname, ownUserId), spectator);
  const [leftOpen, setLeftOpen] = useState(false);
  const visitorPlace = parsePlaceUrl(location.pathname, ownUserId);
  const people = usePeopleList(visitorPlace, isPhone, spectator);
  const rightOpen = people.open;
  const closePeopleDrawer = people.closeDrawer;

  const closeDrawers = useCallback(() => {
    setLeftOpen(false);
    closePeopleDrawer();
  }, [closePeopleDrawer]);

  // Navigating from a drawer closes it, so the phone shows what was chosen.
  useEffect(closeDrawers, [location.pathname, closeDrawers]);

  const needsAccount = useVisitorNeedsAccount(visitorPlace, subscriptions);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeDrawers();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [closeDrawers]);

  if (location.pathname === '/' || location.pathname === '') {
    const fromHash = pathFromZulipHash(location.hash);
    // A visitor starts in the first web-public channel; the personal views need an account.
    const home = spectator
      ? firstChannel
        ? narrowToUrl(streamNarrow(firstChannel.stream_id), firstChannel.name)
        : NOTHING_PUBLIC_URL
      : (HOME_URLS[homeView] ?? '/inbox');
    return <Navigate to={fromHash ?? home} replace />;
  }
  if (needsAccount) return null;
  const place = visitorPlace;
  const drawerOpen = isPhone && (leftOpen || rightOpen);

  return (
    <div
      className="app-shell"
      data-phone={isPhone}
      data-left-open={leftOpen}
      data-right-open={rightOpen}
    >
      <a className="skip-link" href="#main-content">
        {t('skipToMessages')}
      </a>
      <TopBar
        leftOpen={leftOpen}
        rightOpen={rightOpen}
        onToggleLeft={() => setLeftOpen((open) => !open)}
        onToggleRight={people.toggle}
      />
      <ConnectionBanner />
      <GlobalShortcuts
        drawerOpen={drawerOpen}
        showChannels={() => isPhone && setLeftOpen(true)}
        showPeople={people.show}
      />
      <LeftSidebar place={place} hidden={isPhone && !leftOpen} />
      <main className="feed-column" id="main-content" tabIndex={-1}>
        <Suspense fallback={<LoadingState />}>
          <PlaceView place={place} />
        </Suspense>
      </main>
      {!spectator && <RightSidebar hidden={!rightOpen} />}
      {!spectator && <TopicManagement />}
      {drawerOpen && <div className="drawer-backdrop" onClick={closeDrawers} aria-hidden="true" />}
    </div>
  );
}

/** Pages that use the whole width (settings, administration, channels, groups): no people list. */
const WIDE_VIEWS = new Set(['settings', 'organization', 'channels', 'groups']);

/**
 * Whether the people list shows: a drawer on a phone; beside the feed on a desktop, except on
 * the wide pages, where it starts hidden and the top bar's button still opens it.
 */
function usePeopleList(place: Place | null, isPhone: boolean, spectator: boolean) {
  const [desktop, setDesktop] = useState(true);
  const [onWidePage, setOnWidePage] = useState(false);
  const [phone, setPhone] = useState(false);
  const wide = place?.kind === 'view' && WIDE_VIEWS.has(place.view);
  const open = !spectator && (isPhone ? phone : wide ? onWidePage : desktop);
  const set = isPhone ? setPhone : wide ? setOnWidePage : setDesktop;
  return {
    open,
    toggle: () => set((shown) => !shown),
    show: () => set(true),
    closeDrawer: useCallback(() => setPhone(false), []),
  };
}

/**
 * A visitor reads the web-public channels (all a visitor's subscriptions); anything else at this
 * address needs an account, and the login keeps the address to open it after.
 */
function useVisitorNeedsAccount(
  place: Place | null,
  subscriptions: readonly { stream_id: number }[],
): boolean {
  const spectator = useIsSpectator();
  const webPublicIds = useMemo(
    () => new Set(subscriptions.map((s) => s.stream_id)),
    [subscriptions],
  );
  const needsAccount =
    spectator &&
    place !== null &&
    (place.kind === 'view' || !visitorCanRead(place.narrow, webPublicIds));
  useEffect(() => {
    if (needsAccount) stopSpectating(true);
  }, [needsAccount]);
  return needsAccount;
}

function PlaceView({ place }: { place: Place | null }) {
  if (!place) return <NotFound />;
  if (place.kind === 'view') {
    switch (place.view) {
      case 'inbox':
        return <InboxView />;
      case 'recent':
        return <RecentView />;
      case 'drafts':
        return <DraftsView />;
      case 'scheduled':
        return <ScheduledView />;
      case 'settings':
        return <SettingsView section={place.path?.[0]} />;
      case 'organization':
        return <AdminView section={place.path?.[0]} />;
      case 'channels':
        return place.path?.[0] ? (
          <ChannelSettings streamId={Number(place.path[0])} tab={place.path[1]} />
        ) : (
          <ChannelsView />
        );
      case 'groups':
        return <GroupsView path={place.path} />;
      case 'user':
        return <ProfileView userId={Number(place.path?.[0])} />;
      default:
        return <NotFound />;
    }
  }
  return <MessageView narrow={place.narrow} target={place.target} />;
}
