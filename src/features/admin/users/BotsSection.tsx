/**
 * Bots: administrators see every bot (Administration › Bots), everyone else the bots they own
 * (Settings › Bots); both come from `realm_bots`, which realm_bot events keep current. A bot can be
 * created, renamed, given to someone else, given a new API key (with a zuliprc file to download),
 * and deactivated or reactivated after a confirmation.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Bot } from '../../../api/model';
import { ROLE } from '../../../api/model/user';
import { Avatar } from '../../../components/Avatar';
import { RowActions } from '../../../components/RowActions';
import { useActiveUsers, useBotsById, useOwnUserId, useUsersById } from '../../../model/hooks';
import {
  BOT_TYPE,
  useCreateBot,
  useDeactivateBot,
  useReactivateUser,
  useRegenerateBotKey,
  useUpdateBot,
  zuliprc,
} from '../../../queries/admin';
import { SettingsGroup, StatusNote } from '../../settings/controls';
import { AdminDialog } from './Dialog';

function useBotTypeName() {
  const { t } = useTranslation('adminUsers');
  return (type: number | null) =>
    type === BOT_TYPE.INCOMING_WEBHOOK ? t('bots.types.incoming') : t('bots.types.generic');
}

/** A link that downloads the bot's zuliprc, for the API's clients. */
function ZuliprcLink({ bot, apiKey }: { bot: Bot; apiKey: string }) {
  const { t } = useTranslation('adminUsers');
  const text = zuliprc(bot.email, apiKey, window.location.origin);
  return (
    <a
      className="button"
      href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
      download="zuliprc"
    >
      {t('bots.downloadZuliprc')}
    </a>
  );
}

function KeyField({ bot, apiKey }: { bot: Bot; apiKey: string }) {
  const { t } = useTranslation('adminUsers');
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.apiKeyOf', { name: bot.full_name })}</label>
      <input
        id={id}
        className="text-input admin-key"
        readOnly
        value={apiKey}
        onFocus={(e) => e.target.select()}
      />
    </div>
  );
}

function BotTypeField({ value, onChange }: { value: number; onChange(type: number): void }) {
  const { t } = useTranslation('adminUsers');
  const typeName = useBotTypeName();
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.type')}</label>
      <select
        id={id}
        className="text-input"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {[BOT_TYPE.GENERIC, BOT_TYPE.INCOMING_WEBHOOK].map((b) => (
          <option key={b} value={b}>
            {typeName(b)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The new bot's key, shown once after creating it, with its zuliprc. */
function CreatedBot({ bot, apiKey }: { bot: Bot; apiKey: string }) {
  const { t } = useTranslation('adminUsers');
  return (
    <div className="admin-created" role="status">
      <p className="admin-created-title">{t('bots.created', { name: bot.full_name })}</p>
      <KeyField bot={bot} apiKey={apiKey} />
      <div className="admin-form-actions">
        <ZuliprcLink bot={bot} apiKey={apiKey} />
      </div>
    </div>
  );
}

function CreateBot() {
  const { t } = useTranslation('adminUsers');
  const create = useCreateBot();
  const bots = useBotsById();
  const [type, setType] = useState<number>(BOT_TYPE.GENERIC);
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [createdId, setCreatedId] = useState<number | null>(null);
  const ids = { name: useId(), username: useId() };
  const created = createdId !== null ? bots[createdId] : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !username.trim()) return;
    create.mutate(
      { fullName: name.trim(), shortName: username.trim(), botType: type },
      {
        onSuccess: ({ user_id }) => {
          setCreatedId(user_id);
          setName('');
          setUsername('');
        },
      },
    );
  };
  return (
    <>
      <form className="admin-form" onSubmit={submit}>
        <div className="admin-field-row">
          <BotTypeField value={type} onChange={setType} />
          <div className="admin-field">
            <label htmlFor={ids.name}>{t('bots.name')}</label>
            <input
              id={ids.name}
              className="text-input"
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="admin-field">
            <label htmlFor={ids.username}>{t('bots.username')}</label>
            <input
              id={ids.username}
              className="text-input"
              value={username}
              maxLength={40}
              autoCapitalize="none"
              spellCheck={false}
              onChange={(e) => setUsername(e.target.value)}
            />
            <p className="settings-hint">
              {t('bots.usernameHint', { email: `${username.trim() || '…'}-bot@parley.bots` })}
            </p>
          </div>
        </div>
        <div className="admin-form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!name.trim() || !username.trim() || create.isPending}
          >
            {t('bots.create')}
          </button>
          {create.isError && <StatusNote save={create} />}
        </div>
      </form>
      {created?.api_key && <CreatedBot bot={created} apiKey={created.api_key} />}
    </>
  );
}

type BotDialog = 'key' | 'edit' | 'deactivate' | 'reactivate';

function BotItem({ bot }: { bot: Bot }) {
  const { t } = useTranslation('adminUsers');
  const users = useUsersById();
  const typeName = useBotTypeName();
  const [dialog, setDialog] = useState<BotDialog | null>(null);
  const close = () => setDialog(null);
  const open = (which: BotDialog) => () => setDialog(which);
  const name = bot.full_name;
  const owner = bot.owner_id !== null ? users[bot.owner_id]?.full_name : undefined;
  return (
    <li className="admin-invite admin-bot" data-active={bot.is_active}>
      <div className="admin-person">
        <Avatar url={bot.avatar_url} name={name} size={36} />
        <div className="admin-invite-main">
          <span className="admin-invite-what">
            {name}
            {!bot.is_active && <span className="admin-badge">{t('bots.deactivated')}</span>}
          </span>
          <span className="admin-muted admin-email">{bot.email}</span>
          <span className="admin-muted">
            {owner
              ? t('bots.details', { type: typeName(bot.bot_type), owner })
              : typeName(bot.bot_type)}
          </span>
        </div>
      </div>
      <RowActions
        className="admin-actions"
        actions={
          bot.is_active
            ? [
                { label: t('bots.key'), name: t('bots.keyNamed', { name }), onClick: open('key') },
                {
                  label: t('bots.edit'),
                  name: t('bots.editNamed', { name }),
                  onClick: open('edit'),
                },
                {
                  label: t('bots.deactivate'),
                  name: t('bots.deactivateNamed', { name }),
                  onClick: open('deactivate'),
                },
              ]
            : [
                {
                  label: t('bots.reactivate'),
                  name: t('bots.reactivateNamed', { name }),
                  onClick: open('reactivate'),
                },
              ]
        }
      />
      {dialog === 'key' && <KeyDialog bot={bot} onClose={close} />}
      {dialog === 'edit' && <EditBotDialog bot={bot} onClose={close} />}
      {(dialog === 'deactivate' || dialog === 'reactivate') && (
        <SetBotActiveDialog bot={bot} active={dialog === 'reactivate'} onClose={close} />
      )}
    </li>
  );
}

function KeyDialog({ bot, onClose }: { bot: Bot; onClose(): void }) {
  const { t } = useTranslation('adminUsers');
  const regenerate = useRegenerateBotKey();
  // The new key shows at once; the realm_bot event brings it into the store too.
  const apiKey = regenerate.data?.api_key ?? bot.api_key ?? '';
  return (
    <AdminDialog
      title={t('bots.keyTitle', { name: bot.full_name })}
      onClose={onClose}
      error={regenerate.error}
    >
      <KeyField bot={bot} apiKey={apiKey} />
      <p className="admin-dialog-text">{t('bots.keyHint')}</p>
      <div className="admin-form-actions">
        <ZuliprcLink bot={bot} apiKey={apiKey} />
        <button
          type="button"
          className="button"
          disabled={regenerate.isPending}
          onClick={() => regenerate.mutate(bot.user_id)}
        >
          {t('bots.regenerate')}
        </button>
        {regenerate.isSuccess && (
          <span className="settings-status" role="status">
            {t('bots.regenerated')}
          </span>
        )}
      </div>
    </AdminDialog>
  );
}

function EditBotDialog({ bot, onClose }: { bot: Bot; onClose(): void }) {
  const { t } = useTranslation('adminUsers');
  const update = useUpdateBot();
  const humans = useActiveUsers().filter((u) => !u.is_bot);
  const [name, setName] = useState(bot.full_name);
  const [owner, setOwner] = useState(bot.owner_id ?? 0);
  const ids = { name: useId(), owner: useId() };
  return (
    <AdminDialog
      title={t('bots.editTitle', { name: bot.full_name })}
      confirmLabel={t('bots.save')}
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onConfirm={() => {
        const changes: { full_name?: string; bot_owner_id?: number } = {};
        if (name.trim() && name.trim() !== bot.full_name) changes.full_name = name.trim();
        if (owner && owner !== bot.owner_id) changes.bot_owner_id = owner;
        if (!changes.full_name && !changes.bot_owner_id) return onClose();
        update.mutate({ botId: bot.user_id, ...changes }, { onSuccess: onClose });
      }}
    >
      <div className="admin-field">
        <label htmlFor={ids.name}>{t('bots.name')}</label>
        <input
          id={ids.name}
          className="text-input"
          value={name}
          maxLength={60}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={ids.owner}>{t('bots.owner')}</label>
        <select
          id={ids.owner}
          className="text-input"
          value={owner}
          onChange={(e) => setOwner(Number(e.target.value))}
        >
          {humans.map((u) => (
            <option key={u.user_id} value={u.user_id}>
              {u.full_name}
            </option>
          ))}
        </select>
      </div>
    </AdminDialog>
  );
}

function SetBotActiveDialog({
  bot,
  active,
  onClose,
}: {
  bot: Bot;
  active: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('adminUsers');
  const deactivate = useDeactivateBot();
  const reactivate = useReactivateUser();
  const mutation = active ? reactivate : deactivate;
  const name = bot.full_name;
  return (
    <AdminDialog
      title={active ? t('bots.reactivateTitle', { name }) : t('bots.deactivateTitle', { name })}
      confirmLabel={active ? t('bots.reactivate') : t('bots.deactivate')}
      danger={!active}
      pending={mutation.isPending}
      error={mutation.error}
      onClose={onClose}
      onConfirm={() => mutation.mutate(bot.user_id, { onSuccess: onClose })}
    >
      <p className="admin-dialog-text">
        {active ? t('bots.reactivateText', { name }) : t('bots.deactivateText', { name })}
      </p>
    </AdminDialog>
  );
}

function BotList({ all }: { all: boolean }) {
  const { t } = useTranslation('adminUsers');
  const bots = useBotsById();
  const ownUserId = useOwnUserId();
  const list = useMemo(
    () =>
      Object.values(bots)
        .filter((b) => all || b.owner_id === ownUserId)
        .sort(
          (a, b) =>
            Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name),
        ),
    [bots, all, ownUserId],
  );
  if (list.length === 0)
    return <p className="admin-empty">{all ? t('bots.noneAll') : t('bots.noneOwn')}</p>;
  return (
    <ul className="admin-invites" aria-label={all ? t('bots.allLabel') : t('bots.ownLabel')}>
      {list.map((bot) => (
        <BotItem key={bot.user_id} bot={bot} />
      ))}
    </ul>
  );
}

function Bots({ all }: { all: boolean }) {
  const { t } = useTranslation('adminUsers');
  const role = useUsersById()[useOwnUserId()]?.role ?? ROLE.GUEST;
  return (
    <>
      {role !== ROLE.GUEST && (
        <SettingsGroup title={t('bots.add')}>
          <CreateBot />
        </SettingsGroup>
      )}
      <SettingsGroup title={all ? t('bots.all') : t('bots.own')}>
        <BotList all={all} />
      </SettingsGroup>
    </>
  );
}

/** Administration › Bots: every bot of the organization. */
export function AllBotsSection() {
  return <Bots all />;
}

/** Settings › Bots: the bots the reader owns. */
export function OwnBotsSection() {
  return <Bots all={false} />;
}
