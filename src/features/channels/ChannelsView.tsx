/**
 * Every channel the user can see: open one to read it, join or leave it, or create a new one.
 * Joining and leaving go to the server; the subscription events update this list and the sidebar.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { errorText } from '../../api/errors';
import type { Stream } from '../../api/model';
import { LockIcon } from '../../components/icons';
import { useOwnUserId, useStreamsById, useSubscriptionsById, useUser } from '../../model/hooks';
import { narrowToUrl, streamNarrow } from '../../narrow';
import { useJoinChannel, useLeaveChannel } from '../../queries/channels';
import { sanitizeHtml } from '../message-list/sanitize';
import { channelSettingsUrl } from './channel-settings-url';
import { CreateChannel } from './CreateChannel';

/** Channels matching a filter, by name; archived ones are left out. */
export function visibleChannels(streams: readonly Stream[], filter: string): Stream[] {
  const needle = filter.trim().toLowerCase();
  return streams
    .filter((s) => !s.is_archived)
    .filter(
      (s) =>
        !needle ||
        s.name.toLowerCase().includes(needle) ||
        s.description.toLowerCase().includes(needle),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
}

const GUEST_ROLE = 600;

/**
 * What the user may do with a channel they are not in, as the server decides it: guests join
 * nothing by themselves, and nobody joins a private channel without being added by a member.
 */
export function joinability(
  stream: Stream,
  role: number | undefined,
): 'join' | 'invitation-only' | 'none' {
  if (role === undefined || role >= GUEST_ROLE) return 'none';
  return stream.invite_only ? 'invitation-only' : 'join';
}

/** Joins or leaves one channel at a time, remembering which is on its way and the last failure. */
function useJoinOrLeave() {
  const { mutate: joinChannel } = useJoinChannel();
  const { mutate: leaveChannel } = useLeaveChannel();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const toggle = (stream: Stream, join: boolean) => {
    setBusy(stream.stream_id);
    setError(null);
    const change = join ? joinChannel : leaveChannel;
    change(stream.name, {
      onError: (failure) => setError(errorText(failure)),
      onSettled: () => setBusy(null),
    });
  };
  return { toggle, error, busy };
}

export function ChannelsView() {
  const { t } = useTranslation('channels');
  const streams = useStreamsById();
  const subscriptions = useSubscriptionsById();
  const role = useUser(useOwnUserId())?.role;
  const [filter, setFilter] = useState('');
  const { toggle, error, busy } = useJoinOrLeave();
  const channels = useMemo(
    () => visibleChannels(Object.values(streams), filter),
    [streams, filter],
  );

  return (
    // Named apart from the sidebar's "Channels" section: landmarks with one name cannot be told apart.
    <section className="view-page" aria-label={t('browse.list')}>
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="channels-title">{t('browse.title')}</h1>
        </div>
      </header>
      <div className="view-scroll">
        <div className="channels-view">
          <label htmlFor="channel-filter" className="visually-hidden">
            {t('sidebar.filter')}
          </label>
          <input
            id="channel-filter"
            className="text-input"
            type="search"
            placeholder={t('sidebar.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          {error && (
            <p className="settings-status settings-status-error" role="alert">
              {error}
            </p>
          )}
          <ul className="channel-list" aria-label={t('browse.list')}>
            {channels.map((stream) => (
              <ChannelRow
                key={stream.stream_id}
                stream={stream}
                subscribed={stream.stream_id in subscriptions}
                canJoin={joinability(stream, role)}
                busy={busy === stream.stream_id}
                onToggle={(join) => void toggle(stream, join)}
              />
            ))}
          </ul>
          {channels.length === 0 && (
            <p className="sidebar-empty">{t('sidebar.noMatch', { filter })}</p>
          )}
          {role !== undefined && role < GUEST_ROLE && <CreateChannel role={role} />}
        </div>
      </div>
    </section>
  );
}

function ChannelRow({
  stream,
  subscribed,
  canJoin,
  busy,
  onToggle,
}: {
  stream: Stream;
  subscribed: boolean;
  canJoin: ReturnType<typeof joinability>;
  busy: boolean;
  onToggle: (join: boolean) => void;
}) {
  const { t } = useTranslation('channels');
  return (
    <li className="channel-row">
      <div className="channel-main">
        <Link
          className="channel-name"
          to={narrowToUrl(streamNarrow(stream.stream_id), stream.name)}
        >
          {stream.invite_only ? <LockIcon /> : <span aria-hidden="true">#</span>}
          {stream.name}
        </Link>
        {stream.rendered_description && (
          <div
            className="channel-description rendered-markdown"
            dangerouslySetInnerHTML={{
              __html: sanitizeHtml(stream.rendered_description),
            }}
          />
        )}
      </div>
      <Link
        className="button button-small"
        to={channelSettingsUrl(stream.stream_id, subscribed ? 'personal' : 'general')}
        aria-label={t('browse.settingsLabel', { name: stream.name })}
      >
        {t('browse.settings')}
      </Link>
      {subscribed || canJoin === 'join' ? (
        <button
          type="button"
          className={subscribed ? 'button button-small' : 'button button-small button-primary'}
          aria-label={
            subscribed
              ? t('browse.leaveLabel', { name: stream.name })
              : t('browse.joinLabel', { name: stream.name })
          }
          disabled={busy}
          onClick={() => onToggle(!subscribed)}
        >
          {subscribed ? t('browse.leave') : t('browse.join')}
        </button>
      ) : canJoin === 'invitation-only' ? (
        <span className="channel-note">{t('browse.invitationOnly')}</span>
      ) : null}
    </li>
  );
}
