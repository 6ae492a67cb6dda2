/**
 * Every channel the user can see: open one to read it, join or leave it, or create a new one.
 * Joining and leaving go to the server; the subscription events update this list and the sidebar.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/errors';
import type { Stream } from '../../api/model';
import { LockIcon } from '../../components/icons';
import { useOwnUserId, useStreamsById, useSubscriptionsById, useUser } from '../../model/hooks';
import { narrowToUrl, streamNarrow } from '../../narrow';
import { useCreateChannel, useJoinChannel, useLeaveChannel } from '../../queries/channels';
import { sanitizeHtml } from '../message-list/sanitize';

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

function CreateChannel() {
  const create = useCreateChannel();
  const streams = useStreamsById();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const createdStream = created
    ? Object.values(streams).find((s) => s.name.toLowerCase() === created.toLowerCase())
    : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(
      { name: trimmed, description: description.trim(), isPrivate },
      {
        onSuccess: () => {
          setCreated(trimmed);
          setName('');
          setDescription('');
          setPrivate(false);
        },
      },
    );
  };

  return (
    <form className="channel-create" onSubmit={submit} aria-labelledby="create-channel-title">
      <h2 id="create-channel-title">Create a channel</h2>
      <div className="settings-row">
        <label htmlFor="channel-name">Name</label>
        <input
          id="channel-name"
          className="text-input"
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
          required
        />
      </div>
      <div className="settings-row">
        <label htmlFor="channel-description">Description</label>
        <input
          id="channel-description"
          className="text-input"
          value={description}
          maxLength={1024}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="settings-row">
        <label className="settings-toggle">
          <input
            type="checkbox"
            checked={isPrivate}
            onChange={(e) => setPrivate(e.target.checked)}
          />
          <span>Private: only people added can see it</span>
        </label>
      </div>
      <div className="settings-row">
        <button type="submit" className="button button-primary" disabled={!name.trim()}>
          Create channel
        </button>
        {createdStream && (
          <span className="settings-status" role="status">
            Created{' '}
            <Link to={narrowToUrl(streamNarrow(createdStream.stream_id), createdStream.name)}>
              #{createdStream.name}
            </Link>
          </span>
        )}
        {create.isError && (
          <span className="settings-status settings-status-error" role="alert">
            {errorText(create.error)}
          </span>
        )}
      </div>
    </form>
  );
}

export function ChannelsView() {
  const { mutate: joinChannel } = useJoinChannel();
  const { mutate: leaveChannel } = useLeaveChannel();
  const streams = useStreamsById();
  const subscriptions = useSubscriptionsById();
  const role = useUser(useOwnUserId())?.role;
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const channels = useMemo(
    () => visibleChannels(Object.values(streams), filter),
    [streams, filter],
  );

  const toggle = (stream: Stream, join: boolean) => {
    setBusy(stream.stream_id);
    setError(null);
    const change = join ? joinChannel : leaveChannel;
    change(stream.name, {
      onError: (failure) => setError(errorText(failure)),
      onSettled: () => setBusy(null),
    });
  };

  return (
    <section className="view-page" aria-labelledby="channels-title">
      <header className="narrow-header">
        <div className="narrow-titles">
          <h1 id="channels-title">Channels</h1>
        </div>
      </header>
      <div className="view-scroll">
        <div className="channels-view">
          <label htmlFor="channel-filter" className="visually-hidden">
            Filter channels
          </label>
          <input
            id="channel-filter"
            className="text-input"
            type="search"
            placeholder="Filter channels"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          {error && (
            <p className="settings-status settings-status-error" role="alert">
              {error}
            </p>
          )}
          <ul className="channel-list" aria-label="All channels">
            {channels.map((stream) => {
              const subscribed = stream.stream_id in subscriptions;
              const canJoin = joinability(stream, role);
              return (
                <li key={stream.stream_id} className="channel-row">
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
                  {subscribed || canJoin === 'join' ? (
                    <button
                      type="button"
                      className={
                        subscribed ? 'button button-small' : 'button button-small button-primary'
                      }
                      aria-label={`${subscribed ? 'Leave' : 'Join'} ${stream.name}`}
                      disabled={busy === stream.stream_id}
                      onClick={() => void toggle(stream, !subscribed)}
                    >
                      {subscribed ? 'Leave' : 'Join'}
                    </button>
                  ) : canJoin === 'invitation-only' ? (
                    <span className="channel-note">Members add people</span>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {channels.length === 0 && <p className="sidebar-empty">No channel matches “{filter}”.</p>}
          {role !== undefined && role < GUEST_ROLE && <CreateChannel />}
        </div>
      </div>
    </section>
  );
}
