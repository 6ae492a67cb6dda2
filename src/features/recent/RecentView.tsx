import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Message } from '../../api/model';
import { errorText } from '../../api/errors';
import { getMessages } from '../../api/routes/messages';
import { Avatar } from '../../components/Avatar';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanel';
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
import {
  dmMessageParticipants,
  dmNarrow,
  feedNarrow,
  narrowToUrl,
  topicNarrow,
} from '../../narrow';
import { messageKeys, type MessageListData } from '../../queries/messages';
import { useConnection } from '../app/session-context';
import { conversationKey } from '../message-list/build-rows';
import { formatDay, formatTime } from '../message-list/format';
import { dmConversationName } from '../sidebar/conversation-names';

const RECENT_WINDOW = 400;

/**
 * Kept under the feed narrow's list key, so the event-to-cache function appends new messages to
 * it like to any other list and the view stays live.
 */
const recentKey = [...messageKeys.list(feedNarrow), 'recent'] as const;

function useRecentMessages() {
  const connection = useConnection();
  return useQuery({
    queryKey: recentKey,
    queryFn: async ({ signal }): Promise<MessageListData> => {
      const response = await getMessages(
        connection,
        { anchor: 'newest', num_before: RECENT_WINDOW, num_after: 0, narrow: [] },
        signal,
      );
      const page = {
        messages: response.messages,
        foundOldest: response.found_oldest,
        foundNewest: true,
        anchor: response.anchor,
      };
      return {
        pages: [page],
        pageParams: [
          { anchor: 'newest', numBefore: RECENT_WINDOW, numAfter: 0, includeAnchor: true },
        ],
      };
    },
    staleTime: Infinity,
  });
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
  let body;
  if (recent.isPending) body = <LoadingState label="Loading recent conversations…" />;
  else if (recent.isError) {
    const message = errorText(recent.error, String(recent.error));
    body = (
      <ErrorState
        title="Could not load recent conversations"
        message={message}
        onRetry={() => void recent.refetch()}
      />
    );
  } else if (conversations.length === 0)
    body = (
      <EmptyState title="No conversations yet">
        Once people start talking, their conversations show up here.
      </EmptyState>
    );
  else
    body = (
      <ul className="recent-list">
        {conversations.map((conversation) => (
          <RecentRow key={conversation.key} conversation={conversation} />
        ))}
      </ul>
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
