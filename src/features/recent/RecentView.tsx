import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { Avatar } from '../../components/Avatar';
import { QueryState } from '../../components/QueryState';
import { EmptyState } from '../../components/StatePanel';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useMutedUsers,
  useOwnUserId,
  useSubscriptionsById,
  useTopicMutedPredicate,
  useUnreads,
  useUserSetting,
  useUsersById,
} from '../../model/hooks';
import { dmUnreadCount, topicUnreadCount, type UnreadsState } from '../../model/unreads';
import {
  dmMessageParticipants,
  dmNarrow,
  narrowToUrl,
  topicNarrow,
  type Narrow,
} from '../../narrow';
import { recentMessagesQuery } from '../../queries/messages';
import { useConnection } from '../../model/session-context';
import { ConversationList } from '../conversation-list/ConversationList';
import { FilterBar, FilterText, FilterToggle } from '../conversation-list/FilterBar';
import { MarkReadButton } from '../conversation-list/MarkReadButton';
import { isBoolean, useStoredState } from '../conversation-list/stored-state';
import { formatDay, formatTime } from '../message-list/format';
import { dmConversationName } from '../sidebar/conversation-names';
import {
  filterConversations,
  groupConversations,
  type Conversation,
  type RecentFilters,
} from './recent-filter';

const ROW_HEIGHT = 41;

function useRecentMessages() {
  return useQuery(recentMessagesQuery(useConnection()));
}

/** What a row shows and links to, worked out once per conversation. */
interface RecentEntry {
  conversation: Conversation;
  name: string;
  /** for "Mark lunch as read": the topic, or the people */
  shortName: string;
  narrow: Narrow;
  url: string;
  unreadIds: readonly number[];
  color: string | undefined;
}

function useRecentEntries(conversations: Conversation[]): RecentEntry[] {
  const { t } = useTranslation('navigation');
  const users = useUsersById();
  const muted = useMutedUsers();
  const ownUserId = useOwnUserId();
  const unreads = useUnreads();
  const subscriptions = useSubscriptionsById();
  return useMemo(
    () =>
      conversations.map((conversation) => {
        const { latest } = conversation;
        if (latest.type === 'stream') {
          const topic = latest.subject || t('inbox.noTopic');
          const narrow = topicNarrow(latest.stream_id, latest.subject);
          return {
            conversation,
            name: t('recent.rowName', { channel: latest.display_recipient, topic }),
            shortName: topic,
            narrow,
            url: narrowToUrl(narrow, latest.display_recipient),
            unreadIds: unreads.streams[latest.stream_id]?.[latest.subject] ?? [],
            color: subscriptions[latest.stream_id]?.color,
          };
        }
        const participants = dmMessageParticipants(latest, ownUserId) ?? [];
        const name = dmConversationName(participants, users, muted);
        const narrow = dmNarrow(participants);
        return {
          conversation,
          name,
          shortName: name,
          narrow,
          url: narrowToUrl(narrow),
          unreadIds: unreads.dms[participants.join(',')] ?? [],
          color: undefined,
        };
      }),
    [conversations, users, muted, ownUserId, unreads, subscriptions, t],
  );
}

function unreadCountOf(unreads: UnreadsState, conversation: Conversation, ownUserId: number) {
  const { latest } = conversation;
  if (latest.type === 'stream') return topicUnreadCount(unreads, latest.stream_id, latest.subject);
  return dmUnreadCount(unreads, dmMessageParticipants(latest, ownUserId) ?? []);
}

/** The filters, kept in this browser but for the text. */
function useRecentFilters() {
  const [text, setText] = useState('');
  const [unreadOnly, setUnreadOnly] = useStoredState('parley.recent.unreadOnly', false, isBoolean);
  const [includeMuted, setIncludeMuted] = useStoredState(
    'parley.recent.includeMuted',
    false,
    isBoolean,
  );
  const [participated, setParticipated] = useStoredState(
    'parley.recent.participated',
    false,
    isBoolean,
  );
  const filters: RecentFilters = { text, unreadOnly, includeMuted, participated };
  return { filters, setText, setUnreadOnly, setIncludeMuted, setParticipated };
}

/** The conversations that pass the filters, newest first. */
function useShownConversations(conversations: Conversation[], filters: RecentFilters) {
  const users = useUsersById();
  const muted = useMutedUsers();
  const ownUserId = useOwnUserId();
  const unreads = useUnreads();
  const isTopicMuted = useTopicMutedPredicate();
  const { text, unreadOnly, includeMuted, participated } = filters;
  return useMemo(
    () =>
      filterConversations(
        conversations,
        { text, unreadOnly, includeMuted, participated },
        {
          ownUserId,
          name: ({ latest }) =>
            latest.type === 'stream'
              ? `${latest.display_recipient} ${latest.subject}`
              : dmConversationName(dmMessageParticipants(latest, ownUserId) ?? [], users, muted),
          senderName: (id) => users[id]?.full_name ?? '',
          unreadCount: (conversation) => unreadCountOf(unreads, conversation, ownUserId),
          isMuted: ({ latest }) => {
            if (latest.type === 'stream') return isTopicMuted(latest.stream_id, latest.subject);
            const others = (dmMessageParticipants(latest, ownUserId) ?? []).filter(
              (id) => id !== ownUserId,
            );
            return others.length === 1 && others[0]! in muted;
          },
        },
      ),
    [
      conversations,
      text,
      unreadOnly,
      includeMuted,
      participated,
      ownUserId,
      users,
      muted,
      unreads,
      isTopicMuted,
    ],
  );
}

export function RecentView() {
  const { t } = useTranslation('navigation');
  const recent = useRecentMessages();
  const { filters, setText, setUnreadOnly, setIncludeMuted, setParticipated } = useRecentFilters();
  const conversations = useMemo(
    () => groupConversations(recent.data?.pages.flatMap((p) => p.messages) ?? []),
    [recent.data],
  );
  const entries = useRecentEntries(useShownConversations(conversations, filters));

  return (
    <section className="view-page" aria-labelledby="recent-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="recent-title">{t('views.recent')}</h1>
        </div>
      </header>
      <FilterBar label={t('recent.filters')}>
        <FilterText value={filters.text} onChange={setText} />
        <FilterToggle
          label={t('recent.unreadOnly')}
          checked={filters.unreadOnly}
          onChange={setUnreadOnly}
        />
        <FilterToggle
          label={t('recent.participated')}
          checked={filters.participated}
          onChange={setParticipated}
        />
        <FilterToggle
          label={t('recent.includeMuted')}
          checked={filters.includeMuted}
          onChange={setIncludeMuted}
        />
      </FilterBar>
      <QueryState
        query={recent}
        loadingLabel={t('recent.loading')}
        errorTitle={t('recent.loadFailed')}
      >
        {() =>
          conversations.length === 0 ? (
            <div className="view-scroll">
              <EmptyState title={t('recent.emptyTitle')}>{t('recent.emptyBody')}</EmptyState>
            </div>
          ) : (
            <RecentList entries={entries} filters={filters} />
          )
        }
      </QueryState>
    </section>
  );
}

function RecentList({ entries, filters }: { entries: RecentEntry[]; filters: RecentFilters }) {
  const { t } = useTranslation('navigation');
  const filtered =
    filters.text.trim() || filters.unreadOnly || filters.participated || !filters.includeMuted;
  return (
    <ConversationList
      rows={entries}
      rowKey={(entry) => entry.conversation.key}
      estimateHeight={() => ROW_HEIGHT}
      renderRow={(entry) => <RecentRow entry={entry} />}
      label={t('views.recent')}
      emptyText={filtered ? t('recent.noMatch') : t('recent.none')}
      canvasClassName="recent-canvas"
      slotClassName="recent-slot"
    />
  );
}

function RecentRow({ entry }: { entry: RecentEntry }) {
  const { conversation, name, url, unreadIds, color } = entry;
  const { latest } = conversation;
  useTranslation('navigation'); // the day and time follow the interface language
  const users = useUsersById();
  const twentyFourHour = useUserSetting('twenty_four_hour_time');
  const count = unreadIds.length;
  return (
    <div className="recent-item">
      <Link
        className="recent-row"
        data-row-focus
        to={url}
        aria-label={withUnreadLabel(name, count)}
      >
        <span
          className="stream-swatch"
          style={{ background: color ?? 'var(--color-recipient-dm)' }}
          aria-hidden="true"
        />
        <span className="recent-name">{name}</span>
        <span className="recent-senders" aria-hidden="true">
          {conversation.senders.slice(0, 4).map((id) => (
            <Avatar
              key={id}
              url={users[id]?.avatar_url}
              name={users[id]?.full_name ?? '?'}
              size={22}
            />
          ))}
        </span>
        <span className="recent-time">
          {formatDay(latest.timestamp)} {formatTime(latest.timestamp, twentyFourHour)}
        </span>
        <span className="recent-count">
          <UnreadBadge count={count} />
        </span>
      </Link>
      {count > 0 ? (
        <MarkReadButton narrow={entry.narrow} ids={unreadIds} name={entry.shortName} />
      ) : (
        <span className="row-action-placeholder" aria-hidden="true" />
      )}
    </div>
  );
}
