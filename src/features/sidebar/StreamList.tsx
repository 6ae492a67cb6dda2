import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
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
import { TopicActionsMenu } from '../topics/TopicActionsMenu';

const TOPICS_SHOWN = 8;
/** Muted topics stay listed, greyed; their unread messages do not count for the stream. */
const MUTED_TEXT = { color: 'var(--color-text-muted)' };

export function StreamList({ place }: { place: Place | null }) {
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
          Channels
        </h2>
        {!spectator && (
          <Link className="sidebar-heading-link" to={viewToUrl('channels')}>
            Browse
          </Link>
        )}
      </div>
      {allSubscriptions.length > 0 && (
        <>
          <label htmlFor="channel-filter" className="visually-hidden">
            Filter channels
          </label>
          <input
            id="channel-filter"
            className="text-input channel-filter"
            type="search"
            placeholder="Filter channels"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            autoComplete="off"
          />
        </>
      )}
      {allSubscriptions.length === 0 ? (
        <p className="sidebar-empty">You are not subscribed to any channel yet.</p>
      ) : subscriptions.length === 0 ? (
        <p className="sidebar-empty">No channel matches “{filter}”.</p>
      ) : (
        <ul className="sidebar-list">
          {subscriptions.map((sub) => (
            <StreamItem
              key={sub.stream_id}
              subscription={sub}
              open={sub.stream_id === openStreamId}
              streamCurrent={sub.stream_id === openStreamId && openTopic === null}
              openTopic={sub.stream_id === openStreamId ? openTopic : null}
            />
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
  return (
    <li className={subscription.is_muted ? 'stream-item stream-muted' : 'stream-item'}>
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
    return <p className="sidebar-topics-loading">Loading topics…</p>;
  if (topics.isError && rows.length === 0)
    return (
      <LoadError
        compact
        title="Could not load topics"
        error={topics.error}
        retry={() => void topics.refetch()}
      />
    );
  if (rows.length === 0) return <p className="sidebar-topics-loading">No topics yet.</p>;
  return (
    <ul className="sidebar-list topic-list" aria-label={`Topics in ${subscription.name}`}>
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
                {topic || '(no topic)'}
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
