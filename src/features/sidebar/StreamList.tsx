import { useQuery } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Subscription } from '../../api/model';
import { LockIcon } from '../../components/icons';
import { LoadError } from '../../components/QueryState';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useSortedSubscriptions,
  useStreamUnreadCount,
  useTopicMutedPredicate,
  useUnreads,
} from '../../model/hooks';
import {
  narrowToUrl,
  sameTopic,
  streamNarrow,
  topicNarrow,
  viewToUrl,
  type Place,
} from '../../narrow';
import { streamTopicsQuery } from '../../queries/topics';
import { useConnection, useIsSpectator } from '../app/session-context';
import { ChannelMenu } from '../channels/ChannelMenu';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';

const TOPICS_SHOWN = 8;
/** Muted topics stay listed, greyed; their unread messages do not count for the stream. */
const MUTED_TEXT = { color: 'var(--color-text-muted)' };

export function StreamList({ place }: { place: Place | null }) {
  const { t } = useTranslation('channels');
  const allSubscriptions = useSortedSubscriptions();
  // "Filter channels" (the q shortcut focuses it).
  const [filter, setFilter] = useState('');
  const subscriptions = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle
      ? allSubscriptions.filter((s) => s.name.toLowerCase().includes(needle))
      : allSubscriptions;
  }, [allSubscriptions, filter]);
  const spectator = useIsSpectator();
  const openStreamId =
    place?.kind === 'narrow' && (place.narrow.kind === 'stream' || place.narrow.kind === 'topic')
      ? place.narrow.streamId
      : null;
  const openTopic =
    place?.kind === 'narrow' && place.narrow.kind === 'topic' ? place.narrow.topic : null;

  return (
    <section className="sidebar-section" aria-labelledby="streams-heading">
      <div className="sidebar-heading-row">
        <h2 id="streams-heading" className="sidebar-heading">
          {t('sidebar.heading')}
        </h2>
        {!spectator && (
          <Link className="sidebar-heading-link" to={viewToUrl('channels')}>
            {t('sidebar.browse')}
          </Link>
        )}
      </div>
      {allSubscriptions.length > 0 && (
        <>
          <label htmlFor="channel-filter" className="visually-hidden">
            {t('sidebar.filter')}
          </label>
          <input
            id="channel-filter"
            className="text-input channel-filter"
            type="search"
            placeholder={t('sidebar.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            autoComplete="off"
          />
        </>
      )}
      {allSubscriptions.length === 0 ? (
        <p className="sidebar-empty">{t('sidebar.none')}</p>
      ) : subscriptions.length === 0 ? (
        <p className="sidebar-empty">{t('sidebar.noMatch', { filter })}</p>
      ) : (
        <ul className="sidebar-list">
          {subscriptions.map((sub, index) => (
            <Fragment key={sub.stream_id}>
              {index > 0 && subscriptions[index - 1].pin_to_top && !sub.pin_to_top && (
                <li className="stream-pinned-divider" role="separator" />
              )}
              <StreamItem
                subscription={sub}
                open={sub.stream_id === openStreamId}
                streamCurrent={sub.stream_id === openStreamId && openTopic === null}
                openTopic={sub.stream_id === openStreamId ? openTopic : null}
              />
            </Fragment>
          ))}
        </ul>
      )}
    </section>
  );
}

interface StreamItemProps {
  subscription: Subscription;
  open: boolean;
  streamCurrent: boolean;
  openTopic: string | null;
}

function StreamItem({ subscription, open, streamCurrent, openTopic }: StreamItemProps) {
  const count = useStreamUnreadCount(subscription.stream_id);
  const spectator = useIsSpectator();
  const classes = ['stream-item', 'channel-sidebar-item'];
  if (subscription.is_muted) classes.push('stream-muted');
  if (subscription.pin_to_top) classes.push('stream-pinned');
  return (
    <li className={classes.join(' ')}>
      <Link
        to={narrowToUrl(streamNarrow(subscription.stream_id), subscription.name)}
        className="sidebar-row"
        aria-label={withUnreadLabel(subscription.name, count)}
        aria-current={streamCurrent ? 'page' : undefined}
      >
        <span
          className="stream-swatch"
          style={{ background: subscription.color }}
          aria-hidden="true"
        >
          {subscription.invite_only && <LockIcon />}
        </span>
        <span className="sidebar-name">{subscription.name}</span>
        <UnreadBadge count={count} />
      </Link>
      {!spectator && <ChannelMenu subscription={subscription} />}
      {open && <TopicList subscription={subscription} openTopic={openTopic} />}
    </li>
  );
}

function TopicList({
  subscription,
  openTopic,
}: {
  subscription: Subscription;
  openTopic: string | null;
}) {
  const { t } = useTranslation('channels');
  const connection = useConnection();
  const topics = useQuery(streamTopicsQuery(connection, subscription.stream_id));
  const unreads = useUnreads();
  const unreadTopics = unreads.streams[subscription.stream_id];
  const isMuted = useTopicMutedPredicate();

  const rows = useMemo(() => {
    const names = (topics.data ?? []).map((t) => t.name);
    // Unread topics always show, even beyond the first few or before the list loads.
    const unreadNames = Object.keys(unreadTopics ?? {}).filter(
      (name) => !names.some((n) => sameTopic(n, name)),
    );
    const shown = names.filter(
      (name, index) =>
        index < TOPICS_SHOWN || (unreadTopics?.[name]?.length ?? 0) > 0 || name === openTopic,
    );
    if (
      openTopic &&
      !shown.some((n) => sameTopic(n, openTopic)) &&
      !unreadNames.includes(openTopic)
    )
      shown.unshift(openTopic);
    return [...unreadNames, ...shown];
  }, [topics.data, unreadTopics, openTopic]);

  if (topics.isPending && rows.length === 0)
    return <p className="sidebar-topics-loading">{t('sidebar.loadingTopics')}</p>;
  if (topics.isError && rows.length === 0)
    return (
      <LoadError
        compact
        title={t('sidebar.topicsError')}
        error={topics.error}
        retry={() => void topics.refetch()}
      />
    );
  if (rows.length === 0) return <p className="sidebar-topics-loading">{t('sidebar.noTopics')}</p>;
  return (
    <ul
      className="sidebar-list topic-list"
      aria-label={t('sidebar.topicsIn', { name: subscription.name })}
    >
      {rows.map((topic) => {
        const count = unreadTopics?.[topic]?.length ?? 0;
        const muted = isMuted(subscription.stream_id, topic);
        return (
          <li key={topic} className={muted ? 'topic-row-item topic-muted' : 'topic-row-item'}>
            <Link
              to={narrowToUrl(topicNarrow(subscription.stream_id, topic), subscription.name)}
              className="sidebar-row topic-row"
              aria-label={withUnreadLabel(topic, count)}
              aria-current={openTopic !== null && sameTopic(topic, openTopic) ? 'page' : undefined}
            >
              <span className="sidebar-name" style={muted ? MUTED_TEXT : undefined}>
                {topic || t('sidebar.noTopic')}
              </span>
              <UnreadBadge count={count} />
            </Link>
            <TopicActionsMenu
              streamId={subscription.stream_id}
              topic={topic}
              className="sidebar-topic-actions"
            />
          </li>
        );
      })}
    </ul>
  );
}
