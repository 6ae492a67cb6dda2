/**
 * Bots: administrators see every bot (Administration › Bots), everyone else the bots they own
 * (Settings › Bots); both come from `realm_bots`, which realm_bot events keep current. A bot can be
 * created, renamed, given to someone else, given a new API key (with a zuliprc file to download),
 * and deactivated or reactivated after a confirmation. An outgoing webhook bot also has the URL its
 * mentions and direct messages are sent to, their format and the token sent with them; its owner
 * sets the first two when creating it and may change them later.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Bot } from '../../../api/model';
import { ROLE } from '../../../api/model/user';
import { Avatar } from '../../../components/Avatar';
import { RowActions } from '../../../components/RowActions';
import { useActiveUsers, useBotsById, useOwnUserId, useUsersById } from '../../../model/hooks';
import {
  BOT_INTERFACE,
  BOT_TYPE,
  outgoingWebhookOf,
  useCreateBot,
  useDeactivateBot,
  useReactivateUser,
  useRegenerateBotKey,
  useUpdateBot,
  zuliprc,
} from '../../../queries/admin';
import { SettingsGroup, StatusNote } from '../../settings/controls';
import { ModalDialog } from '../../../components/ModalDialog';

function useBotTypeName() {
  const { t } = useTranslation('adminUsers');
  return (type: number | null) => {
    switch (type) {
      case BOT_TYPE.INCOMING_WEBHOOK:
        return t('bots.types.incoming');
      case BOT_TYPE.OUTGOING_WEBHOOK:
        return t('bots.types.outgoing');
      default:
        return t('bots.types.generic');
    }
  };
}

function useInterfaceName() {
  const { t } = useTranslation('adminUsers');
  return (type: number) =>
    type === BOT_INTERFACE.SLACK ? t('bots.interfaces.slack') : t('bots.interfaces.generic');
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

/** A secret to copy: read-only, selected whole when focused. */
function SecretField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="text-input admin-key"
        readOnly
        value={value}
        onFocus={(e) => e.target.select()}
      />
      {hint && <p className="settings-hint">{hint}</p>}
    </div>
  );
}

function KeyField({ bot, apiKey }: { bot: Bot; apiKey: string }) {
  const { t } = useTranslation('adminUsers');
  return <SecretField label={t('bots.apiKeyOf', { name: bot.full_name })} value={apiKey} />;
}

/** The token an outgoing webhook bot's server is sent, to tell our requests from others'. */
function TokenField({ token }: { token: string }) {
  const { t } = useTranslation('adminUsers');
  return <SecretField label={t('bots.token')} value={token} hint={t('bots.tokenHint')} />;
}

function NameField({ value, onChange }: { value: string; onChange(name: string): void }) {
  const { t } = useTranslation('adminUsers');
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.name')}</label>
      <input
        id={id}
        className="text-input"
        value={value}
        maxLength={60}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function UsernameField({ value, onChange }: { value: string; onChange(name: string): void }) {
  const { t } = useTranslation('adminUsers');
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.username')}</label>
      <input
        id={id}
        className="text-input"
        value={value}
        maxLength={40}
        autoCapitalize="none"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="settings-hint">
        {t('bots.usernameHint', { email: `${value.trim() || '…'}-bot@parley.bots` })}
      </p>
    </div>
  );
}

function EndpointField({ value, onChange }: { value: string; onChange(url: string): void }) {
  const { t } = useTranslation('adminUsers');
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.endpoint')}</label>
      <input
        id={id}
        type="url"
        className="text-input"
        value={value}
        required
        autoCapitalize="none"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="settings-hint">{t('bots.endpointHint')}</p>
    </div>
  );
}

function InterfaceField({ value, onChange }: { value: number; onChange(type: number): void }) {
  const { t } = useTranslation('adminUsers');
  const interfaceName = useInterfaceName();
  const id = useId();
  return (
    <div className="admin-field">
      <label htmlFor={id}>{t('bots.interface')}</label>
      <select
        id={id}
        className="text-input"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {[BOT_INTERFACE.GENERIC, BOT_INTERFACE.SLACK].map((i) => (
          <option key={i} value={i}>
            {interfaceName(i)}
          </option>
        ))}
      </select>
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
        {[BOT_TYPE.GENERIC, BOT_TYPE.INCOMING_WEBHOOK, BOT_TYPE.OUTGOING_WEBHOOK].map((b) => (
          <option key={b} value={b}>
            {typeName(b)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The new bot's key, shown once after creating it, with its zuliprc (and webhook token). */
function CreatedBot({ bot, apiKey }: { bot: Bot; apiKey: string }) {
  const { t } = useTranslation('adminUsers');
  const service = outgoingWebhookOf(bot);
  return (
    <div className="admin-created" role="status">
      <p className="admin-created-title">{t('bots.created', { name: bot.full_name })}</p>
      <KeyField bot={bot} apiKey={apiKey} />
      {service && <TokenField token={service.token} />}
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
  const [payloadUrl, setPayloadUrl] = useState('');
  const [interfaceType, setInterfaceType] = useState<number>(BOT_INTERFACE.GENERIC);
  const [createdId, setCreatedId] = useState<number | null>(null);
  const created = createdId !== null ? bots[createdId] : undefined;
  const outgoing = type === BOT_TYPE.OUTGOING_WEBHOOK;
  const ready = !!name.trim() && !!username.trim() && (!outgoing || !!payloadUrl.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    create.mutate(
      {
        fullName: name.trim(),
        shortName: username.trim(),
        botType: type,
        ...(outgoing && { payloadUrl: payloadUrl.trim(), interfaceType }),
      },
      {
        onSuccess: ({ user_id }) => {
          setCreatedId(user_id);
          setName('');
          setUsername('');
          setPayloadUrl('');
        },
      },
    );
  };
  return (
    <>
      <form className="admin-form" onSubmit={submit}>
        <div className="admin-field-row">
          <BotTypeField value={type} onChange={setType} />
          <NameField value={name} onChange={setName} />
          <UsernameField value={username} onChange={setUsername} />
        </div>
        {outgoing && (
          <div className="admin-field-row">
            <EndpointField value={payloadUrl} onChange={setPayloadUrl} />
            <InterfaceField value={interfaceType} onChange={setInterfaceType} />
          </div>
        )}
        <div className="admin-form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!ready || create.isPending}
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
  const interfaceName = useInterfaceName();
  const service = outgoingWebhookOf(bot);
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
          {service && (
            <span className="admin-muted admin-email">
              {t('bots.endpointDetails', {
                url: service.base_url,
                interface: interfaceName(service.interface),
              })}
            </span>
          )}
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
  const service = outgoingWebhookOf(bot);
  return (
    <ModalDialog
      title={t('bots.keyTitle', { name: bot.full_name })}
      onClose={onClose}
      error={regenerate.error}
    >
      <KeyField bot={bot} apiKey={apiKey} />
      <p className="admin-dialog-text">{t('bots.keyHint')}</p>
      {service && <TokenField token={service.token} />}
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
    </ModalDialog>
  );
}

function EditBotDialog({ bot, onClose }: { bot: Bot; onClose(): void }) {
  const { t } = useTranslation('adminUsers');
  const update = useUpdateBot();
  const humans = useActiveUsers().filter((u) => !u.is_bot);
  const [name, setName] = useState(bot.full_name);
  const [owner, setOwner] = useState(bot.owner_id ?? 0);
  const service = outgoingWebhookOf(bot);
  const [payloadUrl, setPayloadUrl] = useState(service?.base_url ?? '');
  const [interfaceType, setInterfaceType] = useState<number>(
    service?.interface ?? BOT_INTERFACE.GENERIC,
  );
  const ids = { owner: useId() };
  return (
    <ModalDialog
      title={t('bots.editTitle', { name: bot.full_name })}
      confirmLabel={t('bots.save')}
      pending={update.isPending}
      error={update.error}
      onClose={onClose}
      onConfirm={() => {
        const changes: {
          full_name?: string;
          bot_owner_id?: number;
          service_payload_url?: string;
          service_interface?: number;
        } = {};
        if (name.trim() && name.trim() !== bot.full_name) changes.full_name = name.trim();
        if (owner && owner !== bot.owner_id) changes.bot_owner_id = owner;
        if (service) {
          const url = payloadUrl.trim();
          if (url && url !== service.base_url) changes.service_payload_url = url;
          if (interfaceType !== service.interface) changes.service_interface = interfaceType;
        }
        if (Object.keys(changes).length === 0) return onClose();
        update.mutate({ botId: bot.user_id, ...changes }, { onSuccess: onClose });
      }}
    >
      <NameField value={name} onChange={setName} />
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
      {service && (
        <>
          <EndpointField value={payloadUrl} onChange={setPayloadUrl} />
          <InterfaceField value={interfaceType} onChange={setInterfaceType} />
          <TokenField token={service.token} />
        </>
      )}
    </ModalDialog>
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
    <ModalDialog
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
    </ModalDialog>
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
