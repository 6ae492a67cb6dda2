/**
 * The app-wide single-key shortcuts of the reference app (mounted once, in the shell): compose,
 * search, the sidebar filters, next unread topic or direct message, channel cycling, the views,
 * Escape, and "?" for the help. Keys that act on the selected message live with the message list.
 */
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Message } from '../../api/model';
import {
  useMutedUsers,
  useOwnUserId,
  useRecentDms,
  useSortedSubscriptions,
  useTopicMutedPredicate,
  useUnreads,
  useUserSetting,
} from '../../model/hooks';
import { useComposeRequests } from '../../model/compose-request';
import { useMessageCursor } from '../../model/message-cursor';
import {
  dmMessageParticipants,
  dmNarrow,
  feedNarrow,
  narrowFromKey,
  narrowKey,
  narrowToUrl,
  parsePlaceUrl,
  streamNarrow,
  topicNarrow,
  viewToUrl,
  type Narrow,
} from '../../narrow';
import { allMessages, messageKeys, type MessageListData } from '../../queries/messages';
import { useIsSpectator } from '../../model/session-context';
import {
  channelMessageShortcut,
  directMessageShortcut,
  type ComposeShortcut,
} from './compose-shortcut';
import { useShortcutHelp } from './help-store';
import { isInOverlay, isTypingTarget, useShortcutKeys } from './keys';
import { cycleChannel, nextUnreadDm, nextUnreadTopic } from './next-unread';

const ShortcutHelp = lazy(() =>
  import('./ShortcutHelp').then((m) => ({ default: m.ShortcutHelp })),
);

/**
 * The shortcut list's dialog, loaded the first time "?" opens it and kept mounted after that (it
 * puts the focus back where it was when it closes).
 */
function LazyShortcutHelp() {
  const open = useShortcutHelp((state) => state.open);
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutHelp />
    </Suspense>
  );
}

const HOME_URLS: Record<string, string> = {
  inbox: '/inbox',
  recent_topics: '/recent',
  all_messages: '/feed',
};

interface GlobalShortcutsProps {
  /** a phone drawer is open: Escape closes it, and nothing more */
  drawerOpen: boolean;
  /** shows the left sidebar (a drawer on a phone) */
  showChannels(): void;
  /** shows the people sidebar */
  showPeople(): void;
}

export function GlobalShortcuts({ drawerOpen, showChannels, showPeople }: GlobalShortcutsProps) {
  const navigate = useNavigate();
  const spectator = useIsSpectator();
  const toggleHelp = useShortcutHelp((state) => state.toggle);
  const currentNarrow = useCurrentNarrow();
  const compose = useComposeActions(currentNarrow);
  const go = useGoToActions(currentNarrow);
  const goHome = useGoHome(drawerOpen, () => popupOpenAtEscape.current);
  const focusField = useFocusAfterRender();

  useShortcutKeys((event) =>
    runGlobalShortcut(event.key, spectator, {
      toggleHelp,
      showChannels,
      showPeople,
      navigate,
      goHome,
      focusField,
      ...compose,
      ...go,
    }),
  );

  useEscapeLeavesField();
  const popupOpenAtEscape = usePopupOpenAtEscape();

  return <LazyShortcutHelp />;
}

interface GlobalActions {
  toggleHelp(): void;
  showChannels(): void;
  showPeople(): void;
  navigate(url: string): void;
  /** focuses the field with this id once what the key changed has rendered */
  focusField(id: string): void;
  composeChannelMessage(): void;
  composeDirectMessage(): void;
  goToNextUnreadTopic(): void;
  goToNextUnreadDm(): void;
  cycle(direction: 1 | -1): void;
  goToConversation(): void;
  goHome(): boolean;
}

/**
 * The keymap, one key a case; a visitor (spectator) has no account-only keys. Returns whether
 * the key was used, so that its default is prevented.
 */
function runGlobalShortcut(key: string, spectator: boolean, actions: GlobalActions): boolean {
  switch (key) {
    case '?':
      actions.toggleHelp();
      return true;
    case '/':
      if (spectator) return false;
      actions.focusField('search-input');
      return true;
    case 'q':
      actions.showChannels();
      actions.focusField('channel-filter');
      return true;
    case 'w':
      if (spectator) return false;
      actions.showPeople();
      actions.focusField('people-filter');
      return true;
    case 'c':
      if (spectator) return false;
      actions.composeChannelMessage();
      return true;
    case 'x':
      if (spectator) return false;
      actions.composeDirectMessage();
      return true;
    case 'n':
      actions.goToNextUnreadTopic();
      return true;
    case 'p':
      if (spectator) return false;
      actions.goToNextUnreadDm();
      return true;
    case 'A':
      actions.cycle(-1);
      return true;
    case 'D':
      actions.cycle(1);
      return true;
    case 's':
    case 'S':
      actions.goToConversation();
      return true;
    case 'I':
      if (spectator) return false;
      actions.navigate(viewToUrl('inbox'));
      return true;
    case 't':
      if (spectator) return false;
      actions.navigate(viewToUrl('recent'));
      return true;
    case 'a':
      if (spectator) return false;
      actions.navigate(narrowToUrl(feedNarrow));
      return true;
    case 'd':
      if (spectator) return false;
      actions.navigate(viewToUrl('drafts'));
      return true;
    case 'Escape':
      return actions.goHome();
    default:
      return false;
  }
}

/**
 * The narrow the address bar shows now, read when a key is pressed. React Router renders a
 * navigation as a transition: for a while after a click on a link (several frames on a busy
 * machine) the view on screen, and the place the shell last rendered with, are still the one
 * being left, while the URL already is the next. A key pressed then is for where the person went;
 * acting on the view being left opened its compose box just before it went away, taking the
 * focus with it (C "did nothing").
 */
function useCurrentNarrow(): () => Narrow | null {
  const ownUserId = useOwnUserId();
  return () => {
    const place = parsePlaceUrl(window.location.pathname, ownUserId);
    return place?.kind === 'narrow' ? place.narrow : null;
  };
}

/**
 * Focuses a field (and selects its text) after the render that the same key started: a sidebar
 * drawer shown by Q or W must be on screen before its filter can take the focus.
 */
function useFocusAfterRender(): (id: string) => void {
  const [request, setRequest] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (!request) return;
    const field = document.getElementById(request.id) as HTMLInputElement | null;
    field?.focus();
    field?.select?.();
  }, [request]);
  return useCallback((id: string) => setRequest({ id }), []);
}

/** The selected message of the list of `narrow`, from the loaded history. */
function useSelectedMessage() {
  const queryClient = useQueryClient();
  return (narrow: Narrow | null): Message | null => {
    const cursor = useMessageCursor.getState();
    if (!narrow || cursor.narrow !== narrowKey(narrow) || cursor.messageId === null) return null;
    const data = queryClient.getQueryData<MessageListData>(messageKeys.list(narrow));
    return allMessages(data).find((m) => m.id === cursor.messageId) ?? null;
  };
}

/**
 * C and X: open the compose box, addressed as the view or the selected message suggests (see
 * compose-shortcut.ts). The request names the view whose box is to take it.
 */
function useComposeActions(currentNarrow: () => Narrow | null) {
  const navigate = useNavigate();
  const subscriptions = useSortedSubscriptions();
  const selectedMessage = useSelectedMessage();

  const start = (shortcut: ComposeShortcut | null) => {
    if (!shortcut) return;
    // The request first: the box of the view navigated to takes it as it mounts.
    useComposeRequests.getState().request(shortcut.request);
    const open = shortcut.open;
    if (!open) return;
    const name =
      open.kind === 'stream'
        ? subscriptions.find((s) => s.stream_id === open.streamId)?.name
        : undefined;
    navigate(narrowToUrl(open, name));
  };

  const composeChannelMessage = () => {
    const narrow = currentNarrow();
    const first = subscriptions[0]?.stream_id ?? null;
    start(channelMessageShortcut(narrow, selectedMessage(narrow), first));
  };

  const composeDirectMessage = () => start(directMessageShortcut(currentNarrow()));

  return { composeChannelMessage, composeDirectMessage };
}

/** N, P, A, D and S: move to the next unread topic or conversation, another channel, or up. */
function useGoToActions(currentNarrow: () => Narrow | null) {
  const navigate = useNavigate();
  const subscriptions = useSortedSubscriptions();
  const unreads = useUnreads();
  const isMuted = useTopicMutedPredicate();
  const recentDms = useRecentDms();
  const muted = useMutedUsers();
  const ownUserId = useOwnUserId();
  const selectedMessage = useSelectedMessage();

  const streamName = useCallback(
    (streamId: number) => subscriptions.find((s) => s.stream_id === streamId)?.name,
    [subscriptions],
  );

  const goToNextUnreadTopic = () => {
    const narrow = currentNarrow();
    const current =
      narrow?.kind === 'topic'
        ? { streamId: narrow.streamId, topic: narrow.topic }
        : narrow?.kind === 'stream'
          ? { streamId: narrow.streamId, topic: null }
          : null;
    const next = nextUnreadTopic(
      unreads,
      subscriptions.map((s) => s.stream_id),
      isMuted,
      current,
    );
    if (next)
      navigate(narrowToUrl(topicNarrow(next.streamId, next.topic), streamName(next.streamId)));
  };

  const goToNextUnreadDm = () => {
    const narrow = currentNarrow();
    const currentKey = narrow?.kind === 'dm' ? narrow.userIds.join(',') : null;
    const next = nextUnreadDm(
      unreads,
      recentDms.map((c) => c.user_ids.join(',')),
      currentKey,
      // One-on-one conversations with someone you muted are hidden everywhere.
      (key) => !key.includes(',') && Number(key) in muted,
    );
    const target = next === null ? null : narrowFromKey(`dm:${next}`);
    if (target) navigate(narrowToUrl(target));
  };

  const cycle = (direction: 1 | -1) => {
    const narrow = currentNarrow();
    const current = narrow?.kind === 'stream' || narrow?.kind === 'topic' ? narrow.streamId : null;
    const next = cycleChannel(
      subscriptions.map((s) => s.stream_id),
      current,
      direction,
    );
    if (next !== null) navigate(narrowToUrl(streamNarrow(next), streamName(next)));
  };

  /** S: the selected message's topic or conversation; from a topic view, its channel. */
  const goToConversation = () => {
    const narrow = currentNarrow();
    if (narrow?.kind === 'topic') {
      navigate(narrowToUrl(streamNarrow(narrow.streamId), streamName(narrow.streamId)));
      return;
    }
    const selected = selectedMessage(narrow);
    if (!selected) return;
    let target: Narrow;
    if (selected.type === 'stream') target = topicNarrow(selected.stream_id, selected.subject);
    else target = dmNarrow(dmMessageParticipants(selected, ownUserId) ?? [], ownUserId);
    navigate(
      narrowToUrl(target, selected.type === 'stream' ? selected.display_recipient : undefined),
    );
  };

  return { goToNextUnreadTopic, goToNextUnreadDm, cycle, goToConversation };
}

/**
 * Escape goes to the home view, unless a drawer or popup took it, the setting says not to, or
 * the view already is home. Returns whether it went.
 */
function useGoHome(drawerOpen: boolean, popupWasOpen: () => boolean) {
  const navigate = useNavigate();
  const spectator = useIsSpectator();
  const homeView = useUserSetting('web_home_view');
  const escapeGoesHome = useUserSetting('web_escape_navigates_to_home_view') ?? true;
  return () => {
    // A visitor has no home view of their own (the personal views need an account).
    if (drawerOpen || !escapeGoesHome || spectator || popupWasOpen()) return false;
    const home = HOME_URLS[homeView] ?? '/inbox';
    if (location.pathname === home) return false;
    navigate(home);
    return true;
  };
}

/**
 * Whether a popup is open (a picker, a menu, a suggestion list, a dialog): Escape then closes it
 * and does not also leave the view. Section toggles (sidebars, Inbox channels) do not count.
 */
function somethingOpen(): boolean {
  return (
    document.querySelector(
      [
        '[aria-expanded="true"]:not([aria-controls$="-sidebar"]):not(.inbox-collapse)',
        'dialog[open]',
        '[role="dialog"]',
        '[role="alertdialog"]',
        '[role="menu"]',
      ].join(', '),
    ) !== null
  );
}

/**
 * Whether a popup was open when the current Escape keydown began. Read in the capture phase,
 * before the popup's own listener closes it (and React re-renders) on the way up.
 */
function usePopupOpenAtEscape() {
  const open = useRef(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') open.current = somethingOpen();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);
  return open;
}

/**
 * Escape in a text field leaves it (the reference app's "Esc" closes compose and search), unless
 * the field uses Escape itself: an open suggestion list, or a field inside a dialog or menu.
 */
function useEscapeLeavesField() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target;
      if (!isTypingTarget(target) || isInOverlay(target)) return;
      const field = target as HTMLElement;
      if (field.getAttribute('aria-expanded') === 'true') return;
      field.blur();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
