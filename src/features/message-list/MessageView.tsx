import type { ReactNode } from 'react';
import { errorText } from '../../api/errors';
import {
  useOwnUserId,
  useStream,
  useSubscription,
  useTopicVisibility,
  useTypists,
  useUnreadIdsIn,
  useUsersById,
} from '../../model/hooks';
import { narrowKey, type MessageTarget, type Narrow } from '../../narrow';
import {
  useMuteChannel,
  useSetTopicVisibility,
  type TopicVisibility,
} from '../../queries/channels';
import { useMarkNarrowAsRead } from '../../queries/flags';
import { useIsSpectator } from '../app/session-context';
import { ComposeBox } from '../compose/ComposeBox';
import { narrowTitle } from '../search/narrow-title';
import { useSearchDirectory } from '../search/use-search-directory';
import { dmConversationName } from '../sidebar/conversation-names';
import { MessageList } from './MessageList';
import { sanitizeHtml } from './sanitize';
import { stopSpectating } from '../login/credentials';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';

export function MessageView({ narrow, target }: { narrow: Narrow; target?: MessageTarget }) {
  const key = narrowKey(narrow);
  const listKey = target ? `${key}@${target.messageId}` : key;
  const spectator = useIsSpectator();
  const streamId = narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : -1;
  const stream = useStream(streamId);
  const subscription = useSubscription(streamId);
  // Administrators see private channels they are not in, but not their messages, and may not
  // post there: say so rather than offer an empty channel and a compose box that would fail.
  const outsidePrivate = !spectator && !!stream?.invite_only && !subscription;
  return (
    <section className="message-view" aria-labelledby="narrow-title">
      <NarrowHeader narrow={narrow} />
      <MessageList
        key={`list:${listKey}`}
        narrow={narrow}
        target={target}
        emptyText={
          outsidePrivate ? "Only this channel's members see its messages." : emptyTextFor(narrow)
        }
      />
      <TypingIndicator narrow={narrow} />
      {spectator ? (
        <SpectatorNotice />
      ) : outsidePrivate ? (
        <div className="spectator-notice" role="note">
          <span>{OUTSIDE_PRIVATE_TEXT}</span>
        </div>
      ) : (
        <ComposeBox key={`compose:${key}`} narrow={narrow} />
      )}
    </section>
  );
}

const OUTSIDE_PRIVATE_TEXT =
  'You are not in this private channel: only its members read and write here. One of them can add you.';

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
    case 'filter':
      return 'No messages match this search.';
    case 'feed':
      return 'Messages from your channels and conversations will show up here.';
  }
}

function useNarrowTitle(narrow: Narrow): { title: string; subtitle?: string; color?: string } {
  const streamId = narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : -1;
  const stream = useStream(streamId);
  const subscription = useSubscription(streamId);
  const users = useUsersById();
  const directory = useSearchDirectory();
  switch (narrow.kind) {
    case 'feed':
    case 'starred':
    case 'mentions':
    case 'search':
    case 'filter':
      return { title: narrowTitle(narrow, directory) };
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
  const spectator = useIsSpectator();
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
      {!spectator && narrow.kind === 'topic' && (
        <TopicVisibilityControl streamId={narrow.streamId} topic={narrow.topic} />
      )}
      {!spectator && narrow.kind === 'topic' && (
        <TopicActionsMenu
          streamId={narrow.streamId}
          topic={narrow.topic}
          className="narrow-topic-actions"
        />
      )}
      {!spectator && narrow.kind === 'stream' && <ChannelMuteButton streamId={narrow.streamId} />}
    </header>
  );
}

function MarkAsReadButton({ narrow }: { narrow: Narrow }) {
  const unreadIds = useUnreadIdsIn(narrow);
  const markRead = useMarkNarrowAsRead(narrow);
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
  return (
    <HeaderAction
      error={markRead.isError ? errorText(markRead.error, 'Could not mark as read.') : null}
    >
      <button
        type="button"
        className="button button-small"
        onClick={() => markRead.mutate(unreadIds)}
      >
        {label}
      </button>
    </HeaderAction>
  );
}

/** A control in the conversation header, with what went wrong beside it. */
function HeaderAction({ error, children }: { error: string | null; children: ReactNode }) {
  return (
    <div className="narrow-actions">
      {children}
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

/**
 * How the user follows a topic: as its channel says, muted, or followed; in a muted channel the
 * middle choice is "unmuted" instead. Saved at once with POST /user_topics.
 */
function TopicVisibilityControl({ streamId, topic }: { streamId: number; topic: string }) {
  const setVisibility = useSetTopicVisibility(streamId, topic);
  const policy = useTopicVisibility(streamId, topic);
  const channelMuted = useSubscription(streamId)?.is_muted ?? false;
  const choices: [number, string][] = channelMuted
    ? [
        [0, 'Muted with the channel'],
        [2, 'Unmuted'],
        [3, 'Followed'],
      ]
    : [
        [0, 'As the channel'],
        [1, 'Muted'],
        [3, 'Followed'],
      ];
  // A policy that does not apply here (muted in an unmuted channel, say) still shows as itself.
  const shown = choices.some(([v]) => v === policy) ? policy : 0;
  return (
    <HeaderAction error={setVisibility.isError ? errorText(setVisibility.error) : null}>
      <label htmlFor="topic-visibility" className="visually-hidden">
        Topic notifications
      </label>
      <select
        id="topic-visibility"
        className="text-input narrow-select"
        value={shown}
        onChange={(e) => setVisibility.mutate(Number(e.target.value) as TopicVisibility)}
      >
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </HeaderAction>
  );
}

/** Mutes or unmutes a channel you are subscribed to. */
function ChannelMuteButton({ streamId }: { streamId: number }) {
  const subscription = useSubscription(streamId);
  const mute = useMuteChannel(streamId);
  if (!subscription) return null;
  const muted = subscription.is_muted;
  return (
    <HeaderAction error={mute.isError ? errorText(mute.error) : null}>
      <button
        type="button"
        className="button button-small"
        aria-pressed={muted}
        onClick={() => mute.mutate(!muted)}
      >
        {muted ? 'Unmute channel' : 'Mute channel'}
      </button>
    </HeaderAction>
  );
}
