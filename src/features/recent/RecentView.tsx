import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Message } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { QueryState } from '../../components/QueryState';
import { EmptyState } from '../../components/StatePanel';
import { UnreadBadge, withUnreadLabel } from '../../components/UnreadBadge';
import {
  useOwnUserId,
  useSubscriptionsById,
  useUnreads,
  useUserSetting,
  useUsersById,
  useMutedUsers,
} from '../../model/hooks';
import { dmUnreadCount, topicUnreadCount } from '../../model/unreads';
import { dmMessageParticipants, dmNarrow, narrowToUrl, topicNarrow } from '../../narrow';
import { recentMessagesQuery } from '../../queries/messages';
import { useConnection } from '../app/session-context';
import { conversationKey } from '../message-list/build-rows';
import { formatDay, formatTime } from '../message-list/format';
import { dmConversationName } from '../sidebar/conversation-names';

function useRecentMessages() {
  return useQuery(recentMessagesQuery(useConnection()));
}

interface Conversation {
  key: string;
  latest: Message;
  senders: number[];
}

function groupConversations(messages: readonly Message[]): Conversation[] {
  const byKey = new Map<string, Conversation>();
  for (const message of messages) {
    const key = conversationKey(message);
    const existing = byKey.get(key);
    if (!existing) byKey.set(key, { key, latest: message, senders: [message.sender_id] });
    else {
      if (message.id > existing.latest.id) existing.latest = message;
      if (!existing.senders.includes(message.sender_id)) existing.senders.push(message.sender_id);
    }
  }
  return [...byKey.values()].sort((a, b) => b.latest.id - a.latest.id);
}

export function RecentView() {
  const recent = useRecentMessages();
  const conversations = useMemo(
    () => groupConversations(recent.data?.pages.flatMap((p) => p.messages) ?? []),
    [recent.data],
  );
  const body = (
    <QueryState
      query={recent}
      loadingLabel="Loading recent conversations…"
      errorTitle="Could not load recent conversations"
    >
      {() =>
        conversations.length === 0 ? (
          <EmptyState title="No conversations yet">
            Once people start talking, their conversations show up here.
          </EmptyState>
        ) : (
          <ul className="recent-list">
            {conversations.map((conversation) => (
              <RecentRow key={conversation.key} conversation={conversation} />
            ))}
          </ul>
        )
      }
    </QueryState>
  );

  return (
    <section className="view-page" aria-labelledby="recent-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="recent-title">Recent conversations</h1>
        </div>
      </header>
      <div className="view-scroll">{body}</div>
    </section>
  );
}

function RecentRow({ conversation }: { conversation: Conversation }) {
  const { latest } = conversation;
  const users = useUsersById();
  const muted = useMutedUsers();
  const ownUserId = useOwnUserId();
  const unreads = useUnreads();
  const subscriptions = useSubscriptionsById();
  const twentyFourHour = useUserSetting('twenty_four_hour_time');

  let name: string;
  let url: string;
  let count: number;
  if (latest.type === 'stream') {
    name = `${latest.display_recipient} › ${latest.subject || '(no topic)'}`;
    url = narrowToUrl(topicNarrow(latest.stream_id, latest.subject), latest.display_recipient);
    count = topicUnreadCount(unreads, latest.stream_id, latest.subject);
  } else {
    const participants = dmMessageParticipants(latest, ownUserId) ?? [];
    name = dmConversationName(participants, users, muted);
    url = narrowToUrl(dmNarrow(participants));
    count = dmUnreadCount(unreads, participants);
  }
  const color = latest.type === 'stream' ? subscriptions[latest.stream_id]?.color : undefined;
  return (
    <li>
      <Link className="recent-row" to={url} aria-label={withUnreadLabel(name, count)}>
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
        <UnreadBadge count={count} />
      </Link>
    </li>
  );
}
