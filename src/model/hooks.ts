/**
 * Small selector hooks over the per-account store. The store itself is never exported: screens
 * ask for exactly what they show. The current store can be replaced (new queue), so hooks read
 * it through a holder.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { Stream, Subscription, User, UserSettings } from '../api/model';
import type { Narrow } from '../narrow';
import type { AccountState } from './account-state';
import type { AccountActions, AccountStore } from './account-store';
import { presenceStatus, type PresenceStatus } from './presence';
import { topicVisibility } from './user-topics';
import { jitsiCallServer, realmIconUrl, realmName } from './realm';
import { typistsIn } from './typing';
import { groupsContainingUser, namedUserGroups } from './user-groups';
import { statusOf } from './user-status';
import {
  isTopicMutedFor,
  unmutedStreamUnreadCount,
  unmutedTotalUnreadCount,
} from './unread-counts';
import { dmUnreadCount, topicUnreadCount } from './unreads';

export type StoreHolder = StoreApi<{ store: AccountStore | null }>;

export const StoreHolderContext = createContext<StoreHolder | null>(null);

function useCurrentStore(): AccountStore {
  const holder = useContext(StoreHolderContext);
  if (!holder) throw new Error('no account store: render inside a StoreHolderContext provider');
  const store = useStore(holder, (s) => s.store);
  if (!store) throw new Error('the account store is not ready');
  return store;
}

function useAccount<T>(selector: (state: AccountState) => T): T {
  return useStore(useCurrentStore(), selector);
}

export function useAccountActions(): Pick<AccountActions, 'flagsChangedLocally'> {
  const store = useCurrentStore();
  return useMemo(
    () => ({ flagsChangedLocally: (change) => store.getState().flagsChangedLocally(change) }),
    [store],
  );
}

export const useOwnUserId = () => useAccount((s) => s.ownUserId);
export const useQueueId = () => useAccount((s) => s.queueId);
/** Set when the server restarted while the page was open (a `restart` event). */
export const useServerRestarted = () => useAccount((s) => s.serverRestarted);
export const useRealmName = () => useAccount((s) => realmName(s.realm));
export const useRealmIconUrl = () => useAccount((s) => realmIconUrl(s.realm));
export const useRealmSetting = (name: string) => useAccount((s) => s.realm.settings[name]);
/** The Jitsi Meet server call links use, or null when the organization offers no Jitsi calls. */
export const useJitsiCallServer = () => useAccount((s) => jitsiCallServer(s.realm));
/** One personal setting, typed by its name; a name not in the shared list does not compile. */
export const useUserSetting = <K extends keyof UserSettings>(name: K): UserSettings[K] =>
  useAccount((s) => s.settings[name]);

/** The groups the current user is in, through subgroups too (for highlighting group mentions). */
export const useOwnUserGroupIds = (): readonly number[] =>
  useAccount((s) => groupsContainingUser(s.userGroups, s.ownUserId));

export function useUsersById(): Readonly<Record<number, User>> {
  return useAccount((s) => s.users.byId);
}

export function useUser(userId: number): User | undefined {
  return useAccount((s) => s.users.byId[userId]);
}

/** Active humans and bots, by name. */
export function useActiveUsers(): User[] {
  const byId = useUsersById();
  return useMemo(
    () =>
      Object.values(byId)
        .filter((u) => u.is_active)
        .sort((a, b) => a.full_name.localeCompare(b.full_name)),
    [byId],
  );
}

export function useStream(streamId: number): Stream | undefined {
  return useAccount(
    (s) => s.subscriptions.subscriptions[streamId] ?? s.subscriptions.streams[streamId],
  );
}

export function useSubscription(streamId: number): Subscription | undefined {
  return useAccount((s) => s.subscriptions.subscriptions[streamId]);
}

/** Subscribed streams: pinned first, then by name. */
export function useSortedSubscriptions(): Subscription[] {
  const subscriptions = useAccount((s) => s.subscriptions.subscriptions);
  return useMemo(
    () =>
      Object.values(subscriptions).sort(
        (a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name),
      ),
    [subscriptions],
  );
}

/** Unread messages in the stream's unmuted topics (muted ones do not count). */
export const useStreamUnreadCount = (streamId: number) =>
  useAccount((s) => unmutedStreamUnreadCount(s, streamId));
/** Direct messages and unmuted conversations: the inbox's count. */
export const useUnmutedUnreadTotal = () => useAccount((s) => unmutedTotalUnreadCount(s));
/** A predicate for lists of conversations; changes when any muting changes. */
export function useTopicMutedPredicate(): (streamId: number, topic: string) => boolean {
  const subscriptions = useAccount((s) => s.subscriptions);
  const userTopics = useAccount((s) => s.userTopics);
  return useMemo(
    () => (streamId: number, topic: string) =>
      isTopicMutedFor({ subscriptions, userTopics }, streamId, topic),
    [subscriptions, userTopics],
  );
}
export const useTopicUnreadCount = (streamId: number, topic: string) =>
  useAccount((s) => topicUnreadCount(s.unreads, streamId, topic));
export const useDmUnreadCount = (participants: readonly number[]) =>
  useAccount((s) => dmUnreadCount(s.unreads, participants));
export const useMentionCount = () => useAccount((s) => s.unreads.mentions.length);
export const useStarredCount = () => useAccount((s) => s.messages.starredIds.length);
export const useUnreads = () => useAccount((s) => s.unreads);
export const useRecentDms = () => useAccount((s) => s.messages.recentDms);
export const useServerDrafts = () => useAccount((s) => s.drafts.byId);
export const useRealmLimits = () => useAccount((s) => s.realm);

/** Ids of unread messages, for marking a stream or topic read locally. */
export function useUnreadIdsIn(narrow: Narrow): readonly number[] {
  const unreads = useUnreads();
  return useMemo(() => {
    if (narrow.kind === 'topic') return unreads.streams[narrow.streamId]?.[narrow.topic] ?? [];
    if (narrow.kind === 'stream')
      return Object.values(unreads.streams[narrow.streamId] ?? {}).flat();
    if (narrow.kind === 'dm') return unreads.dms[narrow.userIds.join(',')] ?? [];
    return [];
  }, [unreads, narrow]);
}

export function useTypists(narrow: Narrow): number[] {
  const typing = useAccount((s) => s.typing);
  // `typing` changes on every start, stop and expiry tick, so recomputing here is enough.
  return useMemo(() => typistsIn(typing, narrow, Date.now()), [typing, narrow]);
}

export const useStreamsById = () => useAccount((s) => s.subscriptions.streams);
export const useSubscriptionsById = () => useAccount((s) => s.subscriptions.subscriptions);

/** Users the own user muted (id → when), for screens that hide them. */
export const useMutedUsers = () => useAccount((s) => s.mutedUsers.byId);

/** The organization's custom emoji by id, deactivated ones included. */
export const useRealmEmojiById = () => useAccount((s) => s.realmEmoji.byId);
/** User groups (system ones included), by id. */
export const useUserGroupsState = () => useAccount((s) => s.userGroups);

/**
 * Everyone's presence as shown now: recomputed when presence changes and, so that people fade to
 * idle and offline without an event, every half minute.
 */
export function usePresenceStatuses(): (userId: number) => PresenceStatus {
  const presence = useAccount((s) => s.presence);
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), 30_000);
    return () => clearInterval(timer);
  }, []);
  return useCallback((userId: number) => presenceStatus(presence, userId, now), [presence, now]);
}

/** The user's own visibility policy for a topic (0 when none). */
export const useTopicVisibility = (streamId: number, topic: string) =>
  useAccount((s) => topicVisibility(s.userTopics, streamId, topic));

/** The organization's user groups, for deciding group-based permissions. */
export const useUserGroups = () => useAccount((s) => s.userGroups);

/** The user's alert words, as the server keeps them. */
export const useAlertWords = () => useAccount((s) => s.alertWords.words);

/** The notification sounds the server offers (the `user_settings` extras of /register). */
export const useAvailableNotificationSounds = (): readonly string[] =>
  useAccount(
    (s) =>
      (s.settings as { available_notification_sounds?: string[] }).available_notification_sounds,
  ) ?? EMPTY_CHOICES;

/** The emoji sets the server offers, with their names. */
export const useEmojisetChoices = (): readonly { key: string; text: string }[] =>
  useAccount(
    (s) => (s.settings as { emojiset_choices?: { key: string; text: string }[] }).emojiset_choices,
  ) ?? EMPTY_CHOICES;

const EMPTY_CHOICES: readonly never[] = [];
/** Bots the user may manage (`realm_bots`), by id: all of them for administrators. */
export const useBotsById = () => useAccount((s) => s.bots.byId);

/** When each user was last seen active (seconds since the epoch; absent: never), for lists. */
export function useLastActiveById(): Readonly<Record<number, number>> {
  const presence = useAccount((s) => s.presence.byUserId);
  return useMemo(() => {
    const out: Record<number, number> = {};
    for (const [id, p] of Object.entries(presence)) {
      const seen = Math.max(p.active_timestamp, p.idle_timestamp);
      if (seen > 0) out[Number(id)] = seen;
    }
    return out;
  }, [presence]);
}
/** Custom profile field definitions, in the organization's display order. */
export const useProfileFields = () => useAccount((s) => s.profileFields.fields);
/** The organization's linkifiers, in the order the server applies them. */
export const useLinkifiers = () => useAccount((s) => s.linkifiers.list);
/** All organization settings (keys without `realm_`), for administration screens. */
export const useRealmSettings = () => useAccount((s) => s.realm.settings);
/** Default channels (ids, ascending) and default channel groups, kept current by events. */
export const useDefaultStreams = () => useAccount((s) => s.defaultStreams);
/** The user's scheduled messages by id (kept up to date by scheduled_messages events). */
export const useScheduledMessages = () => useAccount((s) => s.scheduledMessages.byId);
/** Someone's status (away, text, emoji); an empty object when they set none. */
export const useUserStatus = (userId: number) => useAccount((s) => statusOf(s.userStatus, userId));
/** When the user was last active (seconds), 0 when never seen. */
export const useLastActive = (userId: number) =>
  useAccount((s) => s.presence.byUserId[userId]?.active_timestamp ?? 0);
/** The named groups the user is in directly. */
export function useGroupsOfUser(userId: number) {
  const groups = useAccount((s) => s.userGroups);
  return useMemo(
    () => namedUserGroups(groups).filter((group) => group.members.includes(userId)),
    [groups, userId],
  );
}
