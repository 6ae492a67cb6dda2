/**
 * The browser tab says where you are and how much is waiting, as in the reference app:
 * "(5) #general > lunch - Parley Demo". Which count shows follows the personal setting
 * `desktop_icon_count_display` (all unread messages; direct messages and mentions; none), and the
 * favicon carries the same count as a badge.
 */
import type * as NarrowTitleModule from '../search/narrow-title';
import { useSearchDirectory } from '../search/use-search-directory';
import { useEffect, useMemo, useState } from 'react';
import {
  useMentionCount,
  useMutedUsers,
  useRealmName,
  useStreamsById,
  useUnmutedUnreadTotal,
  useUnreads,
  useUserSetting,
  useUsersById,
} from '../../model/hooks';
import type { Narrow, Place, ViewName } from '../../narrow';
import { i18n } from '../../i18n';
import { useTranslation } from 'react-i18next';
import { dmConversationName } from '../sidebar/conversation-names';
import { setFaviconCount } from './favicon-badge';

export const COUNT_DISPLAY = { ALL: 1, DMS_AND_MENTIONS: 2, NONE: 3 } as const;

export interface TitleCounts {
  /** unread messages, muted conversations excepted */
  unmuted: number;
  directMessages: number;
  mentions: number;
}

/** The count the title and favicon show under the setting; 0 shows none. */
export function titleCount(setting: number | undefined, counts: TitleCounts): number {
  switch (setting) {
    case COUNT_DISPLAY.NONE:
      return 0;
    case COUNT_DISPLAY.DMS_AND_MENTIONS:
      return counts.directMessages + counts.mentions;
    default:
      return counts.unmuted;
  }
}

export function documentTitle(count: number, placeTitle: string, realmName: string): string {
  const prefix = count > 0 ? `(${count}) ` : '';
  const suffix = realmName ? ` - ${realmName}` : '';
  return `${prefix}${placeTitle}${suffix}`;
}

function viewTitle(view: ViewName): string {
  switch (view) {
    case 'inbox':
      return i18n.t('navigation:views.inbox');
    case 'recent':
      return i18n.t('navigation:views.recent');
    case 'drafts':
      return i18n.t('navigation:views.drafts');
    case 'scheduled':
      return i18n.t('navigation:views.scheduled');
    case 'settings':
      return i18n.t('navigation:views.settings');
    case 'organization':
      return i18n.t('navigation:views.organization');
    case 'channels':
      return i18n.t('navigation:views.channels');
    case 'groups':
      return i18n.t('navigation:views.groups');
    case 'user':
      return i18n.t('navigation:views.user');
  }
}

/** "#general > lunch", "Inbox", "Iago, Othello": the place as the title names it. */
export function placeTitle(
  place: Place | null,
  streamName: (streamId: number) => string | undefined,
  dmName: (userIds: number[]) => string,
  /** searches and filters in words ("Messages from Othello in #general") */
  searchName: ((narrow: Narrow) => string) | null = null,
): string {
  if (!place) return i18n.t('navigation:title.nothingHere');
  if (place.kind === 'view') return viewTitle(place.view);
  const { narrow } = place;
  const channelName = (id: number) => streamName(id) ?? i18n.t('navigation:title.unknownChannel');
  switch (narrow.kind) {
    case 'feed':
      return i18n.t('navigation:views.feed');
    case 'starred':
      return i18n.t('navigation:views.starred');
    case 'mentions':
      return i18n.t('navigation:views.mentions');
    case 'search':
    case 'filter':
      return searchName ? searchName(narrow) : i18n.t('navigation:title.searchResults');
    case 'dm':
      return dmName(narrow.userIds);
    case 'stream':
      return i18n.t('navigation:title.channel', { channel: channelName(narrow.streamId) });
    case 'topic':
      return i18n.t('navigation:title.topic', {
        channel: channelName(narrow.streamId),
        topic: narrow.topic || i18n.t('navigation:title.noTopic'),
      });
  }
}

/**
 * A search's title in words ("Messages from Othello in #general") needs the code that says it,
 * which loads with the first search rather than with the first view; "Search results" until then.
 */
function useNarrowTitle(wanted: boolean): typeof NarrowTitleModule.narrowTitle | null {
  const [titles, setTitles] = useState<typeof NarrowTitleModule | null>(null);
  useEffect(() => {
    if (!wanted || titles) return;
    let live = true;
    import('../search/narrow-title').then(
      (loaded) => {
        if (live) setTitles(loaded);
      },
      () => {
        // offline: the title stays "Search results"
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, titles]);
  return titles?.narrowTitle ?? null;
}

export function useDocumentTitle(place: Place | null, spectator: boolean): void {
  useTranslation(); // the title follows the interface language
  const realmName = useRealmName();
  const directory = useSearchDirectory();
  const streams = useStreamsById();
  const users = useUsersById();
  const muted = useMutedUsers();
  const setting = useUserSetting('desktop_icon_count_display');
  const unmuted = useUnmutedUnreadTotal();
  const mentions = useMentionCount();
  const unreads = useUnreads();
  const directMessages = useMemo(
    () => Object.values(unreads.dms).reduce((sum, ids) => sum + ids.length, 0),
    [unreads.dms],
  );
  const count = spectator ? 0 : titleCount(setting, { unmuted, directMessages, mentions });
  const searching =
    place?.kind === 'narrow' && (place.narrow.kind === 'search' || place.narrow.kind === 'filter');
  const narrowTitle = useNarrowTitle(searching);
  const title = documentTitle(
    count,
    placeTitle(
      place,
      (id) => streams[id]?.name,
      (ids) => dmConversationName(ids, users, muted),
      narrowTitle && ((narrow) => narrowTitle(narrow, directory)),
    ),
    realmName,
  );

  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    setFaviconCount(count);
  }, [count]);
  useEffect(
    () => () => {
      document.title = 'Parley';
      setFaviconCount(0);
    },
    [],
  );
}
