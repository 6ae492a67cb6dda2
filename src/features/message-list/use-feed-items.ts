import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { Message } from '../../api/model';
import { useMutedUsers, useOwnUserId, useStreamsById, useUsersById } from '../../model/hooks';
import { dmMessageParticipants } from '../../narrow';
import type { MessageTarget, Narrow } from '../../narrow';
import { allMessages, messageListQuery, reachesNewest } from '../../queries/messages';
import { useSession } from '../../model/session-context';
import { echoesIn } from '../compose/echo';
import { buildRows } from './build-rows';

/** The loaded history of a narrow plus its local echoes, as feed rows. */
export function useFeedRows(narrow: Narrow, target?: MessageTarget) {
  const session = useSession();
  const query = useInfiniteQuery(messageListQuery(session.connection, narrow, target));
  const queued = useStore(session.outbox, (s) => s.messages);
  const connected = useStore(session.state, (s) => s.status === 'connected');
  // Connected, a message waiting its turn is as good as on its way.
  const outbox = useMemo(
    () =>
      connected
        ? queued.map((m) => (m.status === 'waiting' ? { ...m, status: 'sending' as const } : m))
        : queued,
    [queued, connected],
  );
  const ownUserId = useOwnUserId();
  const users = useUsersById();
  const streams = useStreamsById();
  const muted = useMutedUsers();

  const rows = useMemo(() => {
    // One-on-one conversations with someone you muted are hidden everywhere.
    const withMuted = (message: Parameters<typeof dmMessageParticipants>[0]) => {
      if (message.type !== 'private') return false;
      const others = (dmMessageParticipants(message, ownUserId) ?? []).filter(
        (id) => id !== ownUserId,
      );
      return others.length === 1 && others[0]! in muted;
    };
    const items = allMessages(query.data)
      .filter((message) => !withMuted(message))
      .map((message) => ({ message: withSearchHighlights(message) }));
    // Echoes sit after history, and only once history reaches the present.
    const echoes =
      query.data && reachesNewest(query.data)
        ? echoesIn(narrow, outbox, ownUserId, users, streams)
        : [];
    return buildRows([...items, ...echoes]);
  }, [query.data, outbox, narrow, ownUserId, users, streams, muted]);

  return { query, rows };
}

/**
 * A search result shows the server's highlighted copy of its content (match_content, sanitised
 * like any content where it is rendered); the topic's copy is shown by the recipient bar.
 */
function withSearchHighlights(message: Message): Message {
  return message.match_content === undefined
    ? message
    : { ...message, content: message.match_content };
}
