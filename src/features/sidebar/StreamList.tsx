import { useQuery } from '@tanstack/react-query';
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
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
import { useConnection, useIsSpectator } from '../../model/session-context';
import { ChannelMenu } from '../channels/ChannelMenu';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';
import { sidebarTopics } from './sidebar-topics';

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

/** Rows of the full topic list rendered at a time. */
const TOPICS_PAGE = 100;

/**
 * The end of a page of the full topic list: shows the next page when it scrolls into view, or
 * when pressed.
 */
function NextPage({ onShow, count }: { onShow(): void; count: number }) {
  const { t } = useTranslation('channels');
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = button.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onShow();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onShow]);
  return (
    <button
      ref={button}
      type="button"
      className="sidebar-row topic-row topic-more"
      onClick={onShow}
    >
      <span className="sidebar-name">{t('sidebar.nextTopics', { count })}</span>
    </button>
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
  const expansion = useMoreTopics();
  const { more, filter, limit } = expansion;

  const list = useMemo(
    () =>
      sidebarTopics(
        (topics.data ?? []).map((t) => t.name),
        Object.keys(unreadTopics ?? {}),
        (name) => unreadTopics?.[name]?.length ?? 0,
        (name) => isMuted(subscription.stream_id, name),
        openTopic,
      ),
    [topics.data, unreadTopics, isMuted, subscription.stream_id, openTopic],
  );
  const matching = useMemo(() => {
    if (!more) return list.shown;
    const needle = filter.trim().toLowerCase();
    return needle ? list.all.filter((name) => name.toLowerCase().includes(needle)) : list.all;
  }, [more, filter, list]);
  const rows = more ? matching.slice(0, limit) : matching;

  if (topics.isPending && list.all.length === 0)
    return <p className="sidebar-topics-loading">{t('sidebar.loadingTopics')}</p>;
  if (topics.isError && list.all.length === 0)
    return (
      <LoadError
        compact
        title={t('sidebar.topicsError')}
        error={topics.error}
        retry={() => void topics.refetch()}
      />
    );
  if (list.all.length === 0)
    return <p className="sidebar-topics-loading">{t('sidebar.noTopics')}</p>;
  return (
    <div className="topic-list-block">
      {more && <TopicFilter expansion={expansion} />}
      {more && matching.length === 0 && (
        <p className="sidebar-topics-loading">{t('sidebar.noTopicMatch', { filter })}</p>
      )}
      <ul
        className="sidebar-list topic-list"
        aria-label={t('sidebar.topicsIn', { name: subscription.name })}
      >
        {rows.map((topic) => (
          <TopicRow
            key={topic}
            subscription={subscription}
            topic={topic}
            count={unreadTopics?.[topic]?.length ?? 0}
            muted={isMuted(subscription.stream_id, topic)}
            openTopic={openTopic}
          />
        ))}
      </ul>
      {rows.length < matching.length && (
        <NextPage onShow={expansion.showMore} count={matching.length - rows.length} />
      )}
      {(list.hidden > 0 || more) && (
        <MoreTopicsToggle
          expansion={expansion}
          hidden={list.hidden}
          hiddenUnread={list.hiddenUnread}
        />
      )}
    </div>
  );
}

/** "More topics": every topic of the channel, with a filter, rendered a page at a time. */
function useMoreTopics() {
  const [more, setMore] = useState(false);
  const [filter, setFilter] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (more) filterInput.current?.focus();
  }, [more]);
  // The whole list is rendered a page at a time: 2,000 rows at once would take a second.
  const [limit, setLimit] = useState(TOPICS_PAGE);
  const showMore = useCallback(() => setLimit((l) => l + TOPICS_PAGE), []);
  const toggle = () => {
    setMore((m) => !m);
    setFilter('');
    setLimit(TOPICS_PAGE);
  };
  const changeFilter = (text: string) => {
    setFilter(text);
    setLimit(TOPICS_PAGE);
  };
  return { more, filter, limit, filterInput, showMore, toggle, changeFilter };
}

type MoreTopics = ReturnType<typeof useMoreTopics>;

function TopicFilter({ expansion }: { expansion: MoreTopics }) {
  const { t } = useTranslation('channels');
  const filterId = useId();
  return (
    <>
      <label htmlFor={filterId} className="visually-hidden">
        {t('sidebar.filterTopics')}
      </label>
      <input
        id={filterId}
        ref={expansion.filterInput}
        className="text-input topic-filter"
        type="search"
        placeholder={t('sidebar.filterTopics')}
        value={expansion.filter}
        onChange={(e) => expansion.changeFilter(e.target.value)}
        autoComplete="off"
      />
    </>
  );
}

function TopicRow({
  subscription,
  topic,
  count,
  muted,
  openTopic,
}: {
  subscription: Subscription;
  topic: string;
  count: number;
  muted: boolean;
  openTopic: string | null;
}) {
  const { t } = useTranslation('channels');
  return (
    <li className={muted ? 'topic-row-item topic-muted' : 'topic-row-item'}>
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
}

function MoreTopicsToggle({
  expansion,
  hidden,
  hiddenUnread,
}: {
  expansion: MoreTopics;
  hidden: number;
  hiddenUnread: number;
}) {
  const { t } = useTranslation('channels');
  const { more } = expansion;
  return (
    <button
      type="button"
      className="sidebar-row topic-row topic-more"
      aria-expanded={more}
      onClick={expansion.toggle}
    >
      <span className="sidebar-name">
        {more ? t('sidebar.fewerTopics') : t('sidebar.moreTopics', { count: hidden })}
      </span>
      {!more && <UnreadBadge count={hiddenUnread} />}
    </button>
  );
}
