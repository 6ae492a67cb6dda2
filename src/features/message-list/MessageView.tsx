import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n';
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
import { useIsSpectator } from '../../model/session-context';
import { ComposeBox } from '../compose/ComposeBox';
import { narrowTitle } from '../search/narrow-title';
import { useSearchDirectory } from '../search/use-search-directory';
import { dmConversationName } from '../sidebar/conversation-names';
import { MessageList } from './MessageList';
import { sanitizeHtml } from './sanitize';
import { stopSpectating } from '../login/credentials';
import { TopicActionsMenu } from '../topics/TopicActionsMenu';

export function MessageView({ narrow, target }: { narrow: Narrow; target?: MessageTarget }) {
  const { t } = useTranslation('messages');
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
        emptyText={outsidePrivate ? t('view.outsidePrivateEmpty') : emptyTextFor(narrow)}
      />
      <TypingIndicator narrow={narrow} />
      {spectator ? (
        <SpectatorNotice />
      ) : outsidePrivate ? (
        <div className="spectator-notice" role="note">
          <span>{t('view.outsidePrivate')}</span>
        </div>
      ) : (
        <ComposeBox key={`compose:${key}`} narrow={narrow} />
      )}
    </section>
  );
}

function emptyTextFor(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'stream':
    case 'topic':
    case 'dm':
    case 'starred':
    case 'mentions':
    case 'filter':
    case 'feed':
      return i18n.t(`messages:empty.${narrow.kind}`);
    case 'search':
      return i18n.t('messages:empty.search', { query: narrow.query });
  }
}

function useNarrowTitle(narrow: Narrow): { title: string; subtitle?: string; color?: string } {
  const streamId = narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : -1;
  const stream = useStream(streamId);
  const subscription = useSubscription(streamId);
  const users = useUsersById();
  const directory = useSearchDirectory();
  const { t } = useTranslation('messages');
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
      const name = stream?.name ?? t('view.unknownChannel');
      return {
        title:
          narrow.kind === 'topic'
            ? t('view.topicTitle', { channel: name, topic: narrow.topic || t('view.noTopic') })
            : name,
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
  const { t } = useTranslation('messages');
  const unreadIds = useUnreadIdsIn(narrow);
  const markRead = useMarkNarrowAsRead(narrow);
  if (
    unreadIds.length === 0 ||
    (narrow.kind !== 'stream' && narrow.kind !== 'topic' && narrow.kind !== 'dm')
  )
    return null;

  const label =
    narrow.kind === 'topic'
      ? t('view.markTopicRead')
      : narrow.kind === 'stream'
        ? t('view.markChannelRead')
        : t('view.markConversationRead');
  return (
    <HeaderAction
      error={markRead.isError ? errorText(markRead.error, t('view.markReadFailed')) : null}
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
  const { t } = useTranslation('messages');
  const typists = useTypists(narrow);
  const users = useUsersById();
  const ownUserId = useOwnUserId();
  const names = typists
    .filter((id) => id !== ownUserId)
    .map((id) => users[id]?.full_name ?? t('typing.someone'));
  return (
    <div className="typing-indicator" aria-live="polite">
      {names.length === 1 && t('typing.one', { name: names[0] })}
      {names.length === 2 && t('typing.two', { first: names[0], second: names[1] })}
      {names.length > 2 && t('typing.several')}
    </div>
  );
}

/** In place of the compose box for visitors: how to join in. */
function SpectatorNotice() {
  const { t } = useTranslation('messages');
  return (
    <div className="spectator-notice" role="note">
      <span>{t('spectator.notice')}</span>
      <button type="button" className="button button-primary" onClick={() => stopSpectating()}>
        {t('spectator.logIn')}
      </button>
    </div>
  );
}

/**
 * How the user follows a topic: as its channel says, muted, or followed; in a muted channel the
 * middle choice is "unmuted" instead. Saved at once with POST /user_topics.
 */
function TopicVisibilityControl({ streamId, topic }: { streamId: number; topic: string }) {
  const { t } = useTranslation('messages');
  const setVisibility = useSetTopicVisibility(streamId, topic);
  const policy = useTopicVisibility(streamId, topic);
  const channelMuted = useSubscription(streamId)?.is_muted ?? false;
  const choices: [number, string][] = channelMuted
    ? [
        [0, t('visibility.mutedWithChannel')],
        [2, t('visibility.unmuted')],
        [3, t('visibility.followed')],
      ]
    : [
        [0, t('visibility.asChannel')],
        [1, t('visibility.muted')],
        [3, t('visibility.followed')],
      ];
  // A policy that does not apply here (muted in an unmuted channel, say) still shows as itself.
  const shown = choices.some(([v]) => v === policy) ? policy : 0;
  return (
    <HeaderAction error={setVisibility.isError ? errorText(setVisibility.error) : null}>
      <label htmlFor="topic-visibility" className="visually-hidden">
        {t('visibility.label')}
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
  const { t } = useTranslation('messages');
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
        {muted ? t('channelMute.unmute') : t('channelMute.mute')}
      </button>
    </HeaderAction>
  );
}
