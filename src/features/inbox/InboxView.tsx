import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { errorText } from '../../api/errors';
import { EmptyState } from '../../components/StatePanel';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useMutedUsers,
  useSortedSubscriptions,
  useStreamsById,
  useSubscriptionsById,
  useTopicMutedPredicate,
  useUnmutedUnreadTotal,
  useUnreads,
  useUsersById,
} from '../../model/hooks';
import { totalUnreadCount } from '../../model/unreads';
import { dmNarrow, narrowToUrl, streamNarrow, topicNarrow } from '../../narrow';
import { useMarkAllAsRead } from '../../queries/flags';
import { ConversationList } from '../conversation-list/ConversationList';
import { FilterBar, FilterText, FilterToggle } from '../conversation-list/FilterBar';
import { MarkReadButton } from '../conversation-list/MarkReadButton';
import { isBoolean, isStringList, useStoredState } from '../conversation-list/stored-state';
import { dmConversationName } from '../sidebar/conversation-names';
import { buildInboxRows, type InboxRow } from './inbox-rows';

const ROW_HEIGHTS: Record<InboxRow['kind'], number> = {
  'dm-header': 48,
  channel: 48,
  dm: 36,
  topic: 36,
};

/** Every conversation with unread messages, DMs first, then channels and their topics. */
export function InboxView() {
  const { t } = useTranslation('navigation');
  const unreads = useUnreads();
  const total = useUnmutedUnreadTotal();
  const anyUnread = totalUnreadCount(unreads) > 0;
  const [filter, setFilter] = useState('');
  const [includeMuted, setIncludeMuted] = useStoredState(
    'parley.inbox.includeMuted',
    false,
    isBoolean,
  );
  const { rows, toggleCollapsed } = useInboxRows(filter, includeMuted);

  return (
    <section className="view-page" aria-labelledby="inbox-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="inbox-title">{t('views.inbox')}</h1>
          <p className="narrow-description">
            {total > 0
              ? t('inbox.unreadTotal', { count: total })
              : anyUnread
                ? t('inbox.onlyMuted')
                : t('inbox.caughtUp')}
          </p>
        </div>
        {anyUnread && <MarkAllReadButton />}
      </header>
      {!anyUnread ? (
        <div className="view-scroll">
          <EmptyState title={t('inbox.emptyTitle')}>{t('inbox.emptyBody')}</EmptyState>
        </div>
      ) : (
        <>
          <FilterBar label={t('inbox.filters')}>
            <FilterText value={filter} onChange={setFilter} />
            <FilterToggle
              label={t('inbox.includeMuted')}
              checked={includeMuted}
              onChange={setIncludeMuted}
            />
          </FilterBar>
          <InboxList rows={rows} filter={filter} onToggle={toggleCollapsed} />
        </>
      )}
    </section>
  );
}

function useInboxRows(filter: string, includeMuted: boolean) {
  const { t } = useTranslation('navigation');
  const unreads = useUnreads();
  const subscriptions = useSortedSubscriptions();
  const subscriptionsById = useSubscriptionsById();
  const streams = useStreamsById();
  const users = useUsersById();
  const muted = useMutedUsers();
  const isTopicMuted = useTopicMutedPredicate();
  const [collapsedList, setCollapsed] = useStoredState<string[]>(
    'parley.inbox.collapsed',
    [],
    isStringList,
  );
  const collapsed = useMemo(() => new Set(collapsedList), [collapsedList]);
  const toggleCollapsed = (key: string) =>
    setCollapsed(
      collapsed.has(key) ? collapsedList.filter((k) => k !== key) : [...collapsedList, key],
    );
  const rows = useMemo(
    () =>
      buildInboxRows({
        unreads,
        channelOrder: subscriptions.map((s) => s.stream_id),
        channelName: (id) => streams[id]?.name ?? t('inbox.unknownChannel'),
        isChannelMuted: (id) => subscriptionsById[id]?.is_muted ?? false,
        isTopicMuted,
        dmName: (ids) =>
          ids.length === 1 && ids[0]! in muted ? null : dmConversationName(ids, users, muted),
        filter,
        includeMuted,
        collapsed,
      }),
    [
      unreads,
      subscriptions,
      subscriptionsById,
      streams,
      users,
      muted,
      isTopicMuted,
      filter,
      includeMuted,
      collapsed,
      t,
    ],
  );
  return { rows, toggleCollapsed };
}

function InboxList({ rows, filter, onToggle }: InboxListProps) {
  const { t } = useTranslation('navigation');
  return (
    <ConversationList
      rows={rows}
      rowKey={(row) => row.key}
      estimateHeight={(row) => ROW_HEIGHTS[row.kind]}
      renderRow={(row) => <InboxRowView row={row} onToggle={onToggle} />}
      label={t('inbox.listLabel')}
      emptyText={
        filter.trim() ? t('inbox.noMatch', { filter: filter.trim() }) : t('inbox.onlyMutedHere')
      }
      canvasClassName="inbox-canvas"
      slotClassName="inbox-slot"
    />
  );
}

interface InboxListProps {
  rows: InboxRow[];
  filter: string;
  onToggle(sectionKey: string): void;
}

function InboxRowView({ row, onToggle }: { row: InboxRow; onToggle(key: string): void }) {
  const { t } = useTranslation('navigation');
  switch (row.kind) {
    case 'dm-header':
      return (
        <div className="inbox-section-header">
          <CollapseToggle
            name={t('inbox.directMessages')}
            collapsed={row.collapsed}
            onToggle={() => onToggle('dm')}
            rowFocus
          />
          <h2 className="inbox-section-name">{t('inbox.directMessagesHeading')}</h2>
          <UnreadBadge count={row.count} mention />
        </div>
      );
    case 'dm':
      return (
        <div className="inbox-item">
          <Link
            className="inbox-row"
            data-row-focus
            to={narrowToUrl(dmNarrow(row.userIds))}
            aria-label={withUnreadLabel(row.name, row.ids.length)}
          >
            <span className="inbox-name">{row.name}</span>
            <UnreadBadge count={row.ids.length} mention />
          </Link>
          <MarkReadButton narrow={dmNarrow(row.userIds)} ids={row.ids} name={row.name} />
        </div>
      );
    case 'channel':
      return <ChannelHeader row={row} onToggle={onToggle} />;
    case 'topic':
      return (
        <div className={row.muted ? 'inbox-item inbox-muted' : 'inbox-item'}>
          <Link
            className="inbox-row"
            data-row-focus
            to={narrowToUrl(topicNarrow(row.streamId, row.topic), row.streamName)}
            aria-label={withUnreadLabel(row.topic, row.ids.length)}
          >
            <span className="inbox-name">{row.topic || t('inbox.noTopic')}</span>
            <UnreadBadge count={row.ids.length} mention={row.mention} />
          </Link>
          <MarkReadButton
            narrow={topicNarrow(row.streamId, row.topic)}
            ids={row.ids}
            name={row.topic || t('inbox.noTopic')}
          />
        </div>
      );
  }
}

/** A channel's row: collapse its topics, open it, or mark it all as read. */
function ChannelHeader({
  row,
  onToggle,
}: {
  row: Extract<InboxRow, { kind: 'channel' }>;
  onToggle(key: string): void;
}) {
  const subscriptions = useSubscriptionsById();
  const unreads = useUnreads();
  const color = subscriptions[row.streamId]?.color;
  return (
    <div
      className={row.muted ? 'inbox-section-header inbox-muted' : 'inbox-section-header'}
      style={{ '--stream-color': color ?? 'transparent' } as Record<string, string>}
    >
      <CollapseToggle
        name={row.name}
        collapsed={row.collapsed}
        onToggle={() => onToggle(row.key)}
      />
      <Link
        className="inbox-section-name"
        data-row-focus
        to={narrowToUrl(streamNarrow(row.streamId), row.name)}
        aria-label={withUnreadLabel(row.name, row.count)}
      >
        <span className="stream-swatch" style={{ background: color }} aria-hidden="true" />
        <h2>{row.name}</h2>
      </Link>
      <UnreadBadge count={row.count} mention={row.mention} />
      <MarkReadButton
        narrow={streamNarrow(row.streamId)}
        ids={Object.values(unreads.streams[row.streamId] ?? {}).flat()}
        name={row.name}
      />
    </div>
  );
}

function CollapseToggle({
  name,
  collapsed,
  onToggle,
  rowFocus = false,
}: {
  name: string;
  collapsed: boolean;
  onToggle(): void;
  /** the row's keyboard stop (a header without a link) */
  rowFocus?: boolean;
}) {
  const { t } = useTranslation('navigation');
  return (
    <button
      type="button"
      className="icon-button inbox-collapse"
      aria-expanded={!collapsed}
      aria-label={collapsed ? t('inbox.expand', { name }) : t('inbox.collapse', { name })}
      data-row-focus={rowFocus || undefined}
      onClick={onToggle}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d={collapsed ? 'M9 6l6 6-6 6' : 'M6 9l6 6 6-6'}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

function MarkAllReadButton() {
  const { t } = useTranslation('navigation');
  const markAll = useMarkAllAsRead();
  return (
    <div className="narrow-actions">
      <button type="button" className="button button-small" onClick={() => markAll.mutate()}>
        {t('inbox.markAllRead')}
      </button>
      {markAll.isError && (
        <span role="alert" className="narrow-error">
          {errorText(markAll.error, t('inbox.markAllReadFailed'))}
        </span>
      )}
    </div>
  );
}
