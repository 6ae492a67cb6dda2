/**
 * Who is in a channel: search them, add people (a typeahead of those not yet in it) and remove
 * them where the person may. Peer events keep the list current for channels the person is in.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import type { Stream, Subscription, User } from '../../api/model';
import { Avatar } from '../../components/Avatar';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { ErrorState, LoadingState } from '../../components/StatePanel';
import {
  useActiveUsers,
  useOwnUserId,
  useUser,
  useUserGroups,
  useUsersById,
} from '../../model/hooks';
import { useChangeSubscribers, useChannelSubscribers } from '../../queries/channels';
import { SettingsGroup } from '../settings/controls';
import { groupSettingIncludes } from '../topics/permissions';
import { mayAddSubscribers, mayAdministerChannels, mayRemoveSubscribers } from './privacy';
import { useRealmSettings } from './use-realm-settings';

/** People matching a search by name or email, by name. */
export function matchingPeople(people: readonly User[], search: string): User[] {
  const needle = search.trim().toLowerCase();
  return people
    .filter(
      (u) =>
        !needle ||
        u.full_name.toLowerCase().includes(needle) ||
        u.email.toLowerCase().includes(needle),
    )
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}

export function SubscribersTab({ stream }: { stream: Stream | Subscription }) {
  const { t } = useTranslation('channels');
  const known = 'subscribers' in stream ? stream.subscribers : undefined;
  const fetched = useChannelSubscribers(stream.stream_id, known === undefined);
  const ids = known ?? fetched.data;
  if (ids === undefined) {
    if (fetched.isError)
      return (
        <ErrorState
          title={t('subscribers.loadError')}
          message={errorText(fetched.error)}
          onRetry={() => void fetched.refetch()}
        />
      );
    return <LoadingState label={t('subscribers.loading')} />;
  }
  return <SubscriberList stream={stream} ids={ids} />;
}

/** What the person may do to this channel's subscribers, as the server decides it. */
function useSubscriberPermissions(stream: Stream, ids: readonly number[]) {
  const ownId = useOwnUserId();
  const role = useUser(ownId)?.role;
  const groups = useUserGroups();
  const settings = useRealmSettings();
  const subscribed = ids.includes(ownId);
  const canRemove = mayRemoveSubscribers(
    role,
    groupSettingIncludes(stream.can_remove_subscribers_group, ownId, groups),
  );
  const canAdd =
    mayAddSubscribers(settings, role) &&
    (!stream.invite_only || subscribed || mayAdministerChannels(role));
  return { ownId, canAdd, canRemove };
}

function SubscriberList({ stream, ids }: { stream: Stream; ids: readonly number[] }) {
  const { t } = useTranslation('channels');
  const usersById = useUsersById();
  const change = useChangeSubscribers(stream.name, stream.stream_id);
  const { ownId, canAdd, canRemove } = useSubscriberPermissions(stream, ids);
  const [search, setSearch] = useState('');
  const searchId = useId();

  const members = useMemo(
    () => ids.map((id) => usersById[id]).filter((u): u is User => u !== undefined),
    [ids, usersById],
  );
  const shown = useMemo(() => matchingPeople(members, search), [members, search]);

  return (
    <SettingsGroup title={t('subscribers.title', { count: ids.length })}>
      {canAdd && (
        <AddSubscriber
          id={`${searchId}-add`}
          ids={ids}
          onAdd={(userId) => change.mutate({ userIds: [userId], add: true })}
        />
      )}
      {change.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(change.error)}
        </p>
      )}
      <div className="settings-row">
        <label htmlFor={searchId}>{t('subscribers.search')}</label>
        <input
          id={searchId}
          type="search"
          className="text-input channel-input"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {shown.length === 0 ? (
        <p className="channel-muted">
          {ids.length === 0 ? t('subscribers.none') : t('subscribers.noMatch', { search })}
        </p>
      ) : (
        <ul className="channel-people" aria-label={t('subscribers.listLabel')}>
          {shown.map((user) => (
            <li key={user.user_id} className="channel-person">
              <Avatar url={user.avatar_url} name={user.full_name} size={28} />
              <span className="channel-person-name">
                {user.full_name}
                <span className="channel-person-email">{user.email}</span>
              </span>
              {(canRemove || user.user_id === ownId) && (
                <button
                  type="button"
                  className="button button-small"
                  disabled={change.isPending}
                  aria-label={t('subscribers.removeLabel', { name: user.full_name })}
                  onClick={() => change.mutate({ userIds: [user.user_id], add: false })}
                >
                  {user.user_id === ownId ? t('subscribers.leave') : t('subscribers.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </SettingsGroup>
  );
}

/** A typeahead of the active people not yet in the channel; picking one adds them. */
function AddSubscriber({
  id,
  ids,
  onAdd,
}: {
  id: string;
  ids: readonly number[];
  onAdd: (userId: number) => void;
}) {
  const { t } = useTranslation('channels');
  const everyone = useActiveUsers();
  const [adding, setAdding] = useState('');
  const suggestions: Suggestion[] = useMemo(() => {
    if (!adding.trim()) return [];
    const inside = new Set(ids);
    return matchingPeople(
      everyone.filter((u) => !inside.has(u.user_id)),
      adding,
    )
      .slice(0, 8)
      .map((u) => ({
        key: String(u.user_id),
        label: u.full_name,
        detail: u.email,
        decoration: <Avatar url={u.avatar_url} name={u.full_name} size={20} />,
      }));
  }, [adding, everyone, ids]);

  return (
    <div className="settings-row channel-add-person">
      <Combobox
        id={id}
        label={t('subscribers.add')}
        placeholder={t('subscribers.addPlaceholder')}
        value={adding}
        onChange={setAdding}
        suggestions={suggestions}
        onPick={(s) => {
          setAdding('');
          onAdd(Number(s.key));
        }}
      />
    </div>
  );
}
