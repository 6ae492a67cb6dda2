import { Link } from 'react-router';
import { errorText } from '../../api/errors';
import { EmptyState } from '../../components/StatePanel';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useStreamsById,
  useSubscriptionsById,
  useTopicMutedPredicate,
  useUnmutedUnreadTotal,
  useUnreads,
  useUsersById,
  useMutedUsers,
} from '../../model/hooks';
import { totalUnreadCount } from '../../model/unreads';
import { dmNarrow, narrowToUrl, streamNarrow, topicNarrow } from '../../narrow';
import { useMarkAllAsRead } from '../../queries/flags';
import { dmConversationName } from '../sidebar/conversation-names';

/** Muted conversations stay listed, greyed; their unread messages do not count. */
const MUTED_TEXT = { color: 'var(--color-text-muted)' };

/** Every conversation with unread messages, DMs first, then channels and their topics. */
export function InboxView() {
  const unreads = useUnreads();
  const total = useUnmutedUnreadTotal();
  const anyUnread = totalUnreadCount(unreads) > 0;
  return (
    <section className="view-page" aria-labelledby="inbox-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="inbox-title">Inbox</h1>
          <p className="narrow-description">
            {total > 0
              ? `${total} unread ${total === 1 ? 'message' : 'messages'}`
              : anyUnread
                ? 'Unread messages only in muted conversations'
                : 'All caught up'}
          </p>
        </div>
        {anyUnread && <MarkAllReadButton />}
      </header>
      <div className="view-scroll">
        {!anyUnread ? (
          <EmptyState title="You have no unread messages">
            New messages in your channels and direct messages will show up here.
          </EmptyState>
        ) : (
          <>
            <DmSection />
            <StreamSections />
          </>
        )}
      </div>
    </section>
  );
}

function MarkAllReadButton() {
  const markAll = useMarkAllAsRead();
  return (
    <div className="narrow-actions">
      <button type="button" className="button button-small" onClick={() => markAll.mutate()}>
        Mark all as read
      </button>
      {markAll.isError && (
        <span role="alert" className="narrow-error">
          {errorText(markAll.error, 'Could not mark all as read.')}
        </span>
      )}
    </div>
  );
}

function DmSection() {
  const unreads = useUnreads();
  const users = useUsersById();
  const muted = useMutedUsers();
  const entries = Object.entries(unreads.dms);
  if (entries.length === 0) return null;
  return (
    <section className="inbox-group" aria-labelledby="inbox-dms">
      <h2 id="inbox-dms" className="inbox-group-header">
        Direct messages
      </h2>
      <ul className="inbox-list">
        {entries.map(([key, ids]) => {
          const participants = key.split(',').map(Number);
          const name = dmConversationName(participants, users, muted);
          return (
            <li key={key}>
              <Link
                className="inbox-row"
                to={narrowToUrl(dmNarrow(participants))}
                aria-label={withUnreadLabel(name, ids.length)}
              >
                <span className="inbox-name">{name}</span>
                <UnreadBadge count={ids.length} mention />
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function StreamSections() {
  const unreads = useUnreads();
  const streams = useStreamsById();
  const subscriptions = useSubscriptionsById();
  const isMuted = useTopicMutedPredicate();
  const streamIds = Object.keys(unreads.streams)
    .map(Number)
    .sort((a, b) => (streams[a]?.name ?? '').localeCompare(streams[b]?.name ?? ''));
  return (
    <>
      {streamIds.map((streamId) => {
        const name = streams[streamId]?.name ?? 'Unknown channel';
        const topics = Object.entries(unreads.streams[streamId]);
        const count = topics.reduce(
          (sum, [topic, ids]) => (isMuted(streamId, topic) ? sum : sum + ids.length),
          0,
        );
        const allMuted = topics.every(([topic]) => isMuted(streamId, topic));
        return (
          <section key={streamId} className="inbox-group" aria-label={name}>
            <h2
              className="inbox-group-header"
              style={
                { '--stream-color': subscriptions[streamId]?.color ?? 'transparent' } as Record<
                  string,
                  string
                >
              }
            >
              <Link
                to={narrowToUrl(streamNarrow(streamId), name)}
                aria-label={withUnreadLabel(name, count)}
                style={allMuted ? MUTED_TEXT : undefined}
              >
                <span
                  className="stream-swatch"
                  style={{ background: subscriptions[streamId]?.color }}
                  aria-hidden="true"
                />
                {name}
              </Link>
              <UnreadBadge count={count} />
            </h2>
            <ul className="inbox-list">
              {topics.map(([topic, ids]) => {
                const muted = isMuted(streamId, topic);
                return (
                  <li key={topic} className={muted ? 'inbox-muted' : undefined}>
                    <Link
                      className="inbox-row"
                      to={narrowToUrl(topicNarrow(streamId, topic), name)}
                      aria-label={withUnreadLabel(topic, ids.length)}
                    >
                      <span className="inbox-name" style={muted ? MUTED_TEXT : undefined}>
                        {topic || '(no topic)'}
                      </span>
                      <UnreadBadge
                        count={ids.length}
                        mention={ids.some((id) => unreads.mentions.includes(id))}
                      />
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </>
  );
}
