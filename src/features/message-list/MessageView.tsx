import { useState } from 'react';
import { describeFailure, ApiRequestError } from '../../api/errors';
import { markStreamAsRead, markTopicAsRead, updateMessageFlags } from '../../api/routes/messages';
import {
  useOwnUserId,
  useStream,
  useSubscription,
  useTypists,
  useUnreadIdsIn,
  useUnreads,
  useUsersById,
} from '../../model/hooks';
import { unreadDetailsFor } from '../../model/unreads';
import { narrowKey, type Narrow } from '../../narrow';
import { applyFlagChangeLocally } from '../app/flag-changes';
import { useSession } from '../app/session-context';
import { ComposeBox } from '../compose/ComposeBox';
import { dmConversationName } from '../sidebar/conversation-names';
import { MessageList } from './MessageList';
import { sanitizeHtml } from './sanitize';
import { useIsSpectator } from '../app/session-context';
import { stopSpectating } from '../login/credentials';

export function MessageView({ narrow }: { narrow: Narrow }) {
  const key = narrowKey(narrow);
  const spectator = useIsSpectator();
  return (
    <section className="message-view" aria-labelledby="narrow-title">
      <NarrowHeader narrow={narrow} />
      <MessageList key={`list:${key}`} narrow={narrow} emptyText={emptyTextFor(narrow)} />
      <TypingIndicator narrow={narrow} />
      {spectator ? <SpectatorNotice /> : <ComposeBox key={`compose:${key}`} narrow={narrow} />}
    </section>
  );
}

function emptyTextFor(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'stream':
      return 'This channel has no messages yet. Start a topic below.';
    case 'topic':
      return 'Nobody has written in this topic yet.';
    case 'dm':
      return 'Say hello: your conversation starts here.';
    case 'starred':
      return 'Star messages to find them here later.';
    case 'mentions':
      return 'Messages that mention you will show up here.';
    case 'search':
      return `No messages match “${narrow.query}”.`;
    case 'feed':
      return 'Messages from your channels and conversations will show up here.';
  }
}

function useNarrowTitle(narrow: Narrow): { title: string; subtitle?: string; color?: string } {
  const streamId = narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : -1;
  const stream = useStream(streamId);
  const subscription = useSubscription(streamId);
  const users = useUsersById();
  switch (narrow.kind) {
    case 'feed':
      return { title: 'Combined feed' };
    case 'starred':
      return { title: 'Starred messages' };
    case 'mentions':
      return { title: 'Mentions' };
    case 'search':
      return { title: `Search: ${narrow.query}` };
    case 'dm':
      return { title: dmConversationName(narrow.userIds, users) };
    case 'stream':
    case 'topic': {
      const name = stream?.name ?? 'Unknown channel';
      return {
        title: narrow.kind === 'topic' ? `${name} › ${narrow.topic || '(no topic)'}` : name,
        subtitle: stream?.rendered_description,
        color: subscription?.color,
      };
    }
  }
}

function NarrowHeader({ narrow }: { narrow: Narrow }) {
  const { title, subtitle, color } = useNarrowTitle(narrow);
  return (
    <header className="narrow-header">
      {color && (
        <span
          className="stream-swatch narrow-swatch"
          style={{ background: color }}
          aria-hidden="true"
        />
      )}
      <div className="narrow-titles">
        <h1 id="narrow-title">{title}</h1>
        {subtitle && (
          <div
            className="narrow-description"
            dangerouslySetInnerHTML={{ __html: sanitizeHtml(subtitle) }}
          />
        )}
      </div>
      <MarkAsReadButton narrow={narrow} />
    </header>
  );
}

function MarkAsReadButton({ narrow }: { narrow: Narrow }) {
  const session = useSession();
  const unreads = useUnreads();
  const ownUserId = useOwnUserId();
  const unreadIds = useUnreadIdsIn(narrow);
  const [error, setError] = useState<string | null>(null);
  if (
    unreadIds.length === 0 ||
    (narrow.kind !== 'stream' && narrow.kind !== 'topic' && narrow.kind !== 'dm')
  )
    return null;

  const label =
    narrow.kind === 'topic'
      ? 'Mark topic as read'
      : narrow.kind === 'stream'
        ? 'Mark channel as read'
        : 'Mark conversation as read';
  const markRead = async () => {
    setError(null);
    const ids = [...unreadIds];
    const details = unreadDetailsFor(unreads, ids, ownUserId);
    applyFlagChangeLocally(session, { op: 'add', flag: 'read', messages: ids, all: false });
    try {
      if (narrow.kind === 'topic')
        await markTopicAsRead(session.connection, {
          stream_id: narrow.streamId,
          topic_name: narrow.topic,
        });
      else if (narrow.kind === 'stream')
        await markStreamAsRead(session.connection, { stream_id: narrow.streamId });
      else await updateMessageFlags(session.connection, { messages: ids, op: 'add', flag: 'read' });
    } catch (e) {
      applyFlagChangeLocally(session, {
        op: 'remove',
        flag: 'read',
        messages: ids,
        all: false,
        message_details: details,
      });
      setError(
        e instanceof ApiRequestError ? describeFailure(e.failure) : 'Could not mark as read.',
      );
    }
  };

  return (
    <div className="narrow-actions">
      <button type="button" className="button button-small" onClick={() => void markRead()}>
        {label}
      </button>
      {error && (
        <span className="narrow-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

function TypingIndicator({ narrow }: { narrow: Narrow }) {
  const typists = useTypists(narrow);
  const users = useUsersById();
  const ownUserId = useOwnUserId();
  const names = typists
    .filter((id) => id !== ownUserId)
    .map((id) => users[id]?.full_name ?? 'Someone');
  return (
    <div className="typing-indicator" aria-live="polite">
      {names.length === 1 && `${names[0]} is typing…`}
      {names.length === 2 && `${names[0]} and ${names[1]} are typing…`}
      {names.length > 2 && 'Several people are typing…'}
    </div>
  );
}

/** In place of the compose box for visitors: how to join in. */
function SpectatorNotice() {
  return (
    <div className="spectator-notice" role="note">
      <span>You are reading as a visitor. Log in to write, react and follow conversations.</span>
      <button type="button" className="button button-primary" onClick={stopSpectating}>
        Log in
      </button>
    </div>
  );
}
