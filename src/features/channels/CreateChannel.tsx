/**
 * Creating a channel with the reference's fields: name, description, privacy and history, who may
 * post, its first subscribers (the creator is always one) and whether to announce it.
 */
import {
  useId,
  useMemo,
  useState,
  type Dispatch,
  type FormEvent,
  type SetStateAction,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/Link';
import { errorText } from '../../api/errors';
import { Avatar } from '../../components/Avatar';
import { Combobox, type Suggestion } from '../../components/Combobox';
import { useActiveUsers, useOwnUserId, useStreamsById, useUsersById } from '../../model/hooks';
import { narrowToUrl, streamNarrow } from '../../narrow';
import { useCreateChannelWithSettings } from '../../queries/channels';
import { channelSettingsUrl } from './channel-settings-url';
import { POST_POLICIES } from './GeneralTab';
import { allowedPrivacies, privacyParams, type Privacy } from './privacy';
import { matchingPeople } from './SubscribersTab';
import { useRealmSettings } from './use-realm-settings';

/** The form's fields, and a submit that creates the channel and clears them once it exists. */
function useNewChannelForm(role: number) {
  const create = useCreateChannelWithSettings();
  const settings = useRealmSettings();
  const ownId = useOwnUserId();
  const privacies = allowedPrivacies(settings, role);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<Privacy>(
    privacies.includes('public') ? 'public' : (privacies[0] ?? 'public'),
  );
  const [postPolicy, setPostPolicy] = useState(1);
  const [people, setPeople] = useState<number[]>([]);
  const [announce, setAnnounce] = useState(false);
  const [created, setCreated] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(
      {
        name: trimmed,
        description: description.trim(),
        privacy: privacyParams(privacy),
        postPolicy,
        subscriberIds: people.length ? [ownId, ...people] : [],
        announce,
      },
      {
        onSuccess: () => {
          setCreated(trimmed);
          setName('');
          setDescription('');
          setPeople([]);
          setAnnounce(false);
        },
      },
    );
  };

  return {
    create,
    submit,
    privacies,
    created,
    fields: { name, description, privacy, postPolicy, people, announce },
    set: { setName, setDescription, setPrivacy, setPostPolicy, setPeople, setAnnounce },
  };
}

export function CreateChannel({ role }: { role: number }) {
  const { t } = useTranslation('channels');
  const { create, submit, privacies, created, fields, set } = useNewChannelForm(role);
  const ids = { name: useId(), description: useId(), policy: useId() };

  return (
    <form className="channel-create" onSubmit={submit} aria-labelledby="create-channel-title">
      <h2 id="create-channel-title">{t('create.title')}</h2>
      <div className="settings-row">
        <label htmlFor={ids.name}>{t('general.name')}</label>
        <input
          id={ids.name}
          className="text-input channel-input"
          value={fields.name}
          maxLength={60}
          onChange={(e) => set.setName(e.target.value)}
          required
        />
      </div>
      <div className="settings-row">
        <label htmlFor={ids.description}>{t('general.description')}</label>
        <textarea
          id={ids.description}
          className="text-input channel-input channel-textarea"
          value={fields.description}
          maxLength={1024}
          rows={2}
          onChange={(e) => set.setDescription(e.target.value)}
        />
        <p className="settings-hint">{t('general.markdownHint')}</p>
      </div>
      <PrivacyChoice privacies={privacies} privacy={fields.privacy} onChange={set.setPrivacy} />
      <div className="settings-row">
        <label htmlFor={ids.policy}>{t('general.postPolicy')}</label>
        <select
          id={ids.policy}
          className="text-input"
          value={fields.postPolicy}
          onChange={(e) => set.setPostPolicy(Number(e.target.value))}
        >
          {POST_POLICIES.map((p) => (
            <option key={p} value={p}>
              {t(`postPolicy.${p}`)}
            </option>
          ))}
        </select>
      </div>
      <FirstSubscribers people={fields.people} setPeople={set.setPeople} />
      <div className="settings-row">
        <label className="settings-toggle">
          <input
            type="checkbox"
            checked={fields.announce}
            onChange={(e) => set.setAnnounce(e.target.checked)}
          />
          <span>{t('create.announce')}</span>
        </label>
      </div>
      <div className="settings-row">
        <button type="submit" className="button button-primary" disabled={!fields.name.trim()}>
          {t('create.submit')}
        </button>
        <CreatedNotice created={created} />
        {create.isError && (
          <span className="settings-status settings-status-error" role="alert">
            {errorText(create.error)}
          </span>
        )}
      </div>
    </form>
  );
}

function PrivacyChoice({
  privacies,
  privacy,
  onChange,
}: {
  privacies: readonly Privacy[];
  privacy: Privacy;
  onChange: (privacy: Privacy) => void;
}) {
  const { t } = useTranslation('channels');
  return (
    <fieldset className="channel-fieldset">
      <legend>{t('general.privacy')}</legend>
      {privacies.map((p) => (
        <label key={p} className="channel-radio">
          <input
            type="radio"
            name="channel-privacy"
            value={p}
            checked={privacy === p}
            onChange={() => onChange(p)}
          />
          <span>
            <strong>{t(`privacy.${p}`)}</strong>
            <span className="channel-radio-hint">{t(`privacyHint.${p}`)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** People to subscribe besides the creator: a search that suggests them and chips that unchoose them. */
function FirstSubscribers({
  people,
  setPeople,
}: {
  people: number[];
  setPeople: Dispatch<SetStateAction<number[]>>;
}) {
  const { t } = useTranslation('channels');
  const ownId = useOwnUserId();
  const usersById = useUsersById();
  const everyone = useActiveUsers();
  const [search, setSearch] = useState('');
  const searchId = useId();

  const suggestions: Suggestion[] = useMemo(() => {
    if (!search.trim()) return [];
    return matchingPeople(
      everyone.filter((u) => u.user_id !== ownId && !people.includes(u.user_id)),
      search,
    )
      .slice(0, 8)
      .map((u) => ({
        key: String(u.user_id),
        label: u.full_name,
        detail: u.email,
        decoration: <Avatar url={u.avatar_url} name={u.full_name} size={20} />,
      }));
  }, [search, everyone, ownId, people]);

  return (
    <div className="settings-row channel-add-person">
      <Combobox
        id={searchId}
        label={t('create.people')}
        placeholder={t('subscribers.addPlaceholder')}
        value={search}
        onChange={setSearch}
        suggestions={suggestions}
        onPick={(s) => {
          setSearch('');
          setPeople((now) => [...now, Number(s.key)]);
        }}
      />
      <p className="settings-hint">{t('create.peopleHint')}</p>
      {people.length > 0 && (
        <ul className="channel-chips" aria-label={t('create.chosen')}>
          {people.map((id) => (
            <li key={id} className="channel-chip">
              {usersById[id]?.full_name}
              <button
                type="button"
                className="channel-chip-remove"
                aria-label={t('create.unchoose', { name: usersById[id]?.full_name ?? '' })}
                onClick={() => setPeople((now) => now.filter((p) => p !== id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Links to the channel just created, once its creation event has brought it into the store. */
function CreatedNotice({ created }: { created: string | null }) {
  const { t } = useTranslation('channels');
  const streams = useStreamsById();
  const createdStream = created
    ? Object.values(streams).find((s) => s.name.toLowerCase() === created.toLowerCase())
    : undefined;
  if (!createdStream) return null;
  return (
    <span className="settings-status" role="status">
      {t('create.done')}{' '}
      <Link to={narrowToUrl(streamNarrow(createdStream.stream_id), createdStream.name)}>
        #{createdStream.name}
      </Link>{' '}
      <Link to={channelSettingsUrl(createdStream.stream_id)}>{t('create.openSettings')}</Link>
    </span>
  );
}
