/**
 * Creating a group: its name, a description, and the people in it (the creator first, as the
 * reference app does, so that they may go on managing it). Once the group's event arrives the
 * screen moves to its panel.
 */
import {
  useEffect,
  useId,
  useState,
  type Dispatch,
  type FormEvent,
  type SetStateAction,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Link } from '../../components/Link';
import { errorText } from '../../api/errors';
import { EmptyState } from '../../components/StatePanel';
import { useOwnUserId, useUserGroups } from '../../model/hooks';
import { useCreateUserGroup } from '../../queries/groups';
import { ChosenPeople } from './ChosenPeople';
import { GroupFields } from './GroupFields';
import { PersonPicker } from './PersonPicker';
import { useMayCreateGroups } from './use-group-permissions';

/** Creates the group, then opens its panel once the group itself has arrived. */
function useCreateAndOpenGroup() {
  const create = useCreateUserGroup();
  const groups = useUserGroups();
  const navigate = useNavigate();
  const [createdName, setCreatedName] = useState<string | null>(null);

  // The server's reply may come before or after the group's event: wait for the group itself.
  const created =
    createdName === null
      ? undefined
      : Object.values(groups.byId).find(
          (g) => !g.is_system_group && g.name.toLowerCase() === createdName.toLowerCase(),
        );
  useEffect(() => {
    if (created) void navigate(`/groups/${created.id}`, { replace: true });
  }, [created, navigate]);

  const createGroup = (group: { name: string; description: string; members: number[] }) =>
    create.mutate(group, { onSuccess: () => setCreatedName(group.name) });
  return { create, createGroup, sent: createdName !== null };
}

export function CreateGroup() {
  const { t } = useTranslation('groups');
  const ids = useId();
  const ownUserId = useOwnUserId();
  const mayCreate = useMayCreateGroups();
  const { create, createGroup, sent } = useCreateAndOpenGroup();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [members, setMembers] = useState<number[]>([ownUserId]);

  if (!mayCreate)
    return (
      <EmptyState title={t('create.notAllowedTitle')}>
        <Link to="/groups">{t('panel.backToList')}</Link>
      </EmptyState>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    createGroup({ name: trimmed, description: description.trim(), members });
  };

  return (
    <section className="groups-page" aria-labelledby={`${ids}-title`}>
      <Link className="groups-back" to="/groups">
        {t('panel.backToList')}
      </Link>
      <form className="groups-card groups-form" onSubmit={submit}>
        <h1 id={`${ids}-title`}>{t('create.title')}</h1>
        <GroupFields
          name={name}
          description={description}
          onName={setName}
          onDescription={setDescription}
        />
        <ChooseMembers id={`${ids}-members`} members={members} setMembers={setMembers} />
        <div className="groups-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!name.trim() || create.isPending || sent}
          >
            {create.isPending ? t('create.creating') : t('create.submit')}
          </button>
          <Link className="button" to="/groups">
            {t('create.cancel')}
          </Link>
          {create.isError && (
            <span className="settings-status settings-status-error" role="alert">
              {errorText(create.error)}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

/** The people chosen so far, and a typeahead to choose more. */
function ChooseMembers({
  id,
  members,
  setMembers,
}: {
  id: string;
  members: number[];
  setMembers: Dispatch<SetStateAction<number[]>>;
}) {
  const { t } = useTranslation('groups');
  return (
    <div className="groups-field">
      <PersonPicker
        id={id}
        label={t('create.members')}
        placeholder={t('picker.placeholder')}
        exclude={members}
        onPick={(userId) => setMembers((chosen) => [...chosen, userId])}
      />
      <ChosenPeople
        userIds={members}
        label={t('create.chosenLabel')}
        onRemove={(userId) => setMembers((chosen) => chosen.filter((id) => id !== userId))}
      />
    </div>
  );
}
