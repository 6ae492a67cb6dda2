/**
 * Administration: the default channels new people join, and the default channel groups offered
 * when they sign up. The default_streams and default_stream_groups events keep both lists current.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import type { Stream } from '../../api/model';
import type { DefaultStreamGroup } from '../../model/default-streams';
import { useDefaultStreams, useStreamsById } from '../../model/hooks';
import {
  useCreateDefaultChannelGroup,
  useDeleteDefaultChannelGroup,
  useEditDefaultChannelGroup,
  useSetDefaultChannel,
} from '../../queries/channels';
import { ActionButton, RowActions } from '../../components/RowActions';
import { EmptyState } from '../../components/StatePanel';
import { TextField } from '../../components/TextField';
import { SettingsGroup, StatusNote } from '../settings/controls';

const byName = (a: Stream, b: Stream) => a.name.localeCompare(b.name);

/** Channels that may be made default: active and public (the server refuses private ones). */
export function defaultCandidates(streams: readonly Stream[], taken: readonly number[]): Stream[] {
  return streams
    .filter((s) => !s.is_archived && !s.invite_only && !taken.includes(s.stream_id))
    .sort(byName);
}

export function DefaultChannelsSection() {
  const { t } = useTranslation('channels');
  return (
    <>
      <p className="settings-hint-block channel-muted">{t('defaults.explain')}</p>
      <DefaultChannels />
      <DefaultGroups />
      <NewGroup />
    </>
  );
}

function DefaultChannels() {
  const { t } = useTranslation('channels');
  const { streamIds } = useDefaultStreams();
  const streams = useStreamsById();
  const change = useSetDefaultChannel();
  const selectId = useId();
  const [chosen, setChosen] = useState('');
  const listed = streamIds
    .map((id) => streams[id])
    .filter((s): s is Stream => s !== undefined)
    .sort(byName);
  const candidates = defaultCandidates(Object.values(streams), streamIds);
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    change.mutate(
      { streamId: Number(chosen), isDefault: true },
      { onSuccess: () => setChosen('') },
    );
  };
  return (
    <SettingsGroup title={t('defaults.channels')}>
      {listed.length === 0 ? (
        <p className="channel-muted">{t('defaults.noChannels')}</p>
      ) : (
        <ul className="channel-people" aria-label={t('defaults.channels')}>
          {listed.map((stream) => (
            <li key={stream.stream_id} className="channel-person">
              <span className="channel-person-name">#{stream.name}</span>
              <ActionButton
                action={{
                  label: t('defaults.remove'),
                  name: t('defaults.removeLabel', { name: stream.name }),
                  disabled: change.isPending,
                  onClick: () => change.mutate({ streamId: stream.stream_id, isDefault: false }),
                }}
              />
            </li>
          ))}
        </ul>
      )}
      <form className="settings-row" onSubmit={add}>
        <label htmlFor={selectId}>{t('defaults.addLabel')}</label>
        <ChannelSelect id={selectId} value={chosen} onChange={setChosen} candidates={candidates} />
        <button type="submit" className="button button-primary" disabled={!chosen}>
          {t('defaults.add')}
        </button>
        <StatusNote save={change} />
      </form>
    </SettingsGroup>
  );
}

function DefaultGroups() {
  const { t } = useTranslation('channels');
  const { groups } = useDefaultStreams();
  const list = Object.values(groups).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <SettingsGroup title={t('defaults.groups')}>
      {list.length === 0 ? (
        <EmptyState title={t('defaults.noGroups')}>{t('defaults.noGroupsHint')}</EmptyState>
      ) : (
        list.map((group) => <GroupCard key={group.id} group={group} />)
      )}
    </SettingsGroup>
  );
}

type GroupEdit = ReturnType<typeof useEditDefaultChannelGroup>;
type GroupDelete = ReturnType<typeof useDeleteDefaultChannelGroup>;

function GroupCard({ group }: { group: DefaultStreamGroup }) {
  const edit = useEditDefaultChannelGroup(group.id);
  const remove = useDeleteDefaultChannelGroup();
  const [editing, setEditing] = useState(false);
  return (
    <article className="channel-group-card" aria-label={group.name}>
      {editing ? (
        <GroupInfoForm group={group} edit={edit} onDone={() => setEditing(false)} />
      ) : (
        <GroupHead group={group} remove={remove} onEdit={() => setEditing(true)} />
      )}
      <GroupChannels group={group} edit={edit} remove={remove} />
    </article>
  );
}

function GroupHead({
  group,
  remove,
  onEdit,
}: {
  group: DefaultStreamGroup;
  remove: GroupDelete;
  onEdit(): void;
}) {
  const { t } = useTranslation('channels');
  return (
    <div className="channel-group-head">
      <div>
        <h4>{group.name}</h4>
        <p className="channel-muted">{group.description}</p>
      </div>
      <RowActions
        className="channel-group-actions"
        actions={[
          {
            label: t('defaults.edit'),
            name: t('defaults.editLabel', { name: group.name }),
            onClick: onEdit,
          },
          {
            label: t('defaults.delete'),
            name: t('defaults.deleteLabel', { name: group.name }),
            danger: true,
            disabled: remove.isPending,
            onClick: () => remove.mutate(group.id),
          },
        ]}
      />
    </div>
  );
}

/** The group's name and description, being edited (from their current values). */
function GroupInfoForm({
  group,
  edit,
  onDone,
}: {
  group: DefaultStreamGroup;
  edit: GroupEdit;
  onDone(): void;
}) {
  const { t } = useTranslation('channels');
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const saveInfo = (event: FormEvent) => {
    event.preventDefault();
    edit.mutate(
      {
        name: name.trim() !== group.name ? name.trim() : undefined,
        description: description.trim() !== group.description ? description.trim() : undefined,
      },
      { onSuccess: onDone },
    );
  };
  return (
    <form onSubmit={saveInfo}>
      <GroupFields
        name={name}
        description={description}
        onName={setName}
        onDescription={setDescription}
      />
      <div className="settings-row">
        <button type="submit" className="button button-primary" disabled={!name.trim()}>
          {t('defaults.saveGroup')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('archive.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The group's channels as chips, and the picker adding one more. */
function GroupChannels({
  group,
  edit,
  remove,
}: {
  group: DefaultStreamGroup;
  edit: GroupEdit;
  remove: GroupDelete;
}) {
  const { t } = useTranslation('channels');
  const streams = useStreamsById();
  const [chosen, setChosen] = useState('');
  const addId = useId();
  const members = group.streamIds
    .map((id) => streams[id])
    .filter((s): s is Stream => s !== undefined)
    .sort(byName);
  const candidates = useMemo(
    () => defaultCandidates(Object.values(streams), group.streamIds),
    [streams, group.streamIds],
  );
  return (
    <>
      <ul className="channel-chips" aria-label={t('defaults.groupChannels', { name: group.name })}>
        {members.map((stream) => (
          <li key={stream.stream_id} className="channel-chip">
            #{stream.name}
            <button
              type="button"
              className="channel-chip-remove"
              aria-label={t('defaults.removeFromGroup', { name: stream.name, group: group.name })}
              disabled={edit.isPending || members.length === 1}
              onClick={() => edit.mutate({ remove: [stream.name] })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        className="settings-row"
        onSubmit={(event) => {
          event.preventDefault();
          const stream = streams[Number(chosen)];
          if (stream) edit.mutate({ add: [stream.name] }, { onSuccess: () => setChosen('') });
        }}
      >
        <label htmlFor={addId} className="visually-hidden">
          {t('defaults.addToGroup', { group: group.name })}
        </label>
        <ChannelSelect id={addId} value={chosen} onChange={setChosen} candidates={candidates} />
        <button type="submit" className="button button-small" disabled={!chosen}>
          {t('defaults.add')}
        </button>
        <StatusNote save={edit} />
        {remove.isError && (
          <span className="settings-status settings-status-error" role="alert">
            {errorText(remove.error)}
          </span>
        )}
      </form>
    </>
  );
}

/** A default channel group's name and description, in the new-group and the edit forms. */
function GroupFields({
  name,
  description,
  onName,
  onDescription,
}: {
  name: string;
  description: string;
  onName(value: string): void;
  onDescription(value: string): void;
}) {
  const { t } = useTranslation('channels');
  return (
    <>
      <TextField
        label={t('defaults.groupName')}
        value={name}
        onChange={onName}
        maxLength={60}
        required
        inputClassName="text-input channel-input"
      />
      <TextField
        label={t('defaults.groupDescription')}
        value={description}
        onChange={onDescription}
        maxLength={1024}
        required
        inputClassName="text-input channel-input"
      />
    </>
  );
}

/** A choice among channels, starting at "Choose a channel". */
function ChannelSelect({
  id,
  value,
  onChange,
  candidates,
}: {
  id: string;
  value: string;
  onChange(value: string): void;
  candidates: readonly Stream[];
}) {
  const { t } = useTranslation('channels');
  return (
    <select id={id} className="text-input" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('defaults.choose')}</option>
      {candidates.map((s) => (
        <option key={s.stream_id} value={s.stream_id}>
          {s.name}
        </option>
      ))}
    </select>
  );
}

function NewGroup() {
  const { t } = useTranslation('channels');
  const streams = useStreamsById();
  const create = useCreateDefaultChannelGroup();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const candidates = defaultCandidates(Object.values(streams), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name: name.trim(),
        description: description.trim(),
        channelNames: picked.map((id) => streams[id]?.name).filter((n): n is string => !!n),
      },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
          setPicked([]);
        },
      },
    );
  };
  return (
    <SettingsGroup title={t('defaults.newGroup')}>
      <form onSubmit={submit}>
        <GroupFields
          name={name}
          description={description}
          onName={setName}
          onDescription={setDescription}
        />
        <ChannelChecks candidates={candidates} picked={picked} onPicked={setPicked} />
        <div className="settings-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={!name.trim() || !description.trim() || picked.length === 0}
          >
            {t('defaults.createGroup')}
          </button>
          <StatusNote save={create} />
        </div>
      </form>
    </SettingsGroup>
  );
}

/** The channels a new group starts with, one checkbox each. */
function ChannelChecks({
  candidates,
  picked,
  onPicked,
}: {
  candidates: readonly Stream[];
  picked: readonly number[];
  onPicked(update: (now: number[]) => number[]): void;
}) {
  const { t } = useTranslation('channels');
  return (
    <fieldset className="channel-fieldset">
      <legend>{t('defaults.groupPick')}</legend>
      <div className="channel-checks">
        {candidates.map((s) => (
          <label key={s.stream_id} className="settings-toggle">
            <input
              type="checkbox"
              checked={picked.includes(s.stream_id)}
              onChange={(e) =>
                onPicked((now) =>
                  e.target.checked ? [...now, s.stream_id] : now.filter((id) => id !== s.stream_id),
                )
              }
            />
            <span>{s.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
