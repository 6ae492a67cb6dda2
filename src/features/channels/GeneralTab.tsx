/**
 * A channel's general settings. Those who administer channels change them here (each control
 * saves on its own and shows the server's answer beside it); everyone else reads the same values.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/errors';
import type { Stream } from '../../api/model';
import { useOwnUserId, useRealmSetting, useUser } from '../../model/hooks';
import { viewToUrl } from '../../narrow';
import { useArchiveChannel, useUpdateChannel } from '../../queries/channels';
import { sanitizeHtml } from '../message-list/sanitize';
import { SelectRow, SettingsGroup, StatusNote } from '../settings/controls';
import {
  allowedPrivacies,
  mayAdministerChannels,
  mayChangeRetention,
  privacyOf,
  privacyParams,
  retentionChoice,
  type Privacy,
} from './privacy';
import { ModalDialog } from '../../components/ModalDialog';
import { TextField } from '../../components/TextField';
import { useNameAndDescriptionDraft } from './use-name-and-description-draft';
import { useRealmSettings } from './use-realm-settings';

export const POST_POLICIES = [1, 3, 4, 2] as const;

export function GeneralTab({ stream }: { stream: Stream }) {
  const role = useUser(useOwnUserId())?.role;
  return mayAdministerChannels(role) ? (
    <EditableGeneral stream={stream} role={role!} />
  ) : (
    <ReadOnlyGeneral stream={stream} />
  );
}

function useRetentionText(days: number | null) {
  const { t } = useTranslation('channels');
  const realmDays = useRealmSetting('message_retention_days');
  const describe = (value: unknown) =>
    typeof value === 'number' && value > 0
      ? t('general.retentionDays', { count: value })
      : t('general.retentionForever');
  if (days === null) return t('general.retentionRealm', { value: describe(realmDays) });
  return describe(days);
}

function RenderedDescription({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  if (!stream.rendered_description)
    return <p className="channel-muted">{t('general.noDescription')}</p>;
  return (
    <div
      className="channel-description rendered-markdown"
      dangerouslySetInnerHTML={{ __html: sanitizeHtml(stream.rendered_description) }}
    />
  );
}

function ReadOnlyGeneral({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  const retention = useRetentionText(stream.message_retention_days);
  const privacy = privacyOf(stream);
  return (
    <SettingsGroup title={t('general.title')}>
      <p className="settings-hint-block channel-muted">{t('general.readOnly')}</p>
      <dl className="channel-facts">
        <dt>{t('general.name')}</dt>
        <dd>{stream.name}</dd>
        <dt>{t('general.description')}</dt>
        <dd>
          <RenderedDescription stream={stream} />
        </dd>
        <dt>{t('general.privacy')}</dt>
        <dd>{t(`privacy.${privacy}`)}</dd>
        <dt>{t('general.history')}</dt>
        <dd>
          {stream.history_public_to_subscribers
            ? t('general.historyShared')
            : t('general.historyProtected')}
        </dd>
        <dt>{t('general.postPolicy')}</dt>
        <dd>{t(`postPolicy.${stream.stream_post_policy}` as 'postPolicy.1')}</dd>
        <dt>{t('general.retention')}</dt>
        <dd>{retention}</dd>
      </dl>
    </SettingsGroup>
  );
}

function EditableGeneral({ stream, role }: { stream: Stream; role: number }) {
  const { t } = useTranslation('channels');
  return (
    <>
      <NameAndDescription stream={stream} />
      <SettingsGroup title={t('general.permissions')}>
        <PrivacyRow stream={stream} role={role} />
        <HistoryRow stream={stream} />
        <PostPolicyRow stream={stream} />
        <RetentionRow stream={stream} role={role} />
      </SettingsGroup>
      <ArchiveGroup stream={stream} />
    </>
  );
}

function NameAndDescription({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  const {
    save,
    name,
    setName,
    description,
    setDescription,
    changed,
    startEditing,
    submit,
    discard,
  } = useNameAndDescriptionDraft(stream);

  return (
    <SettingsGroup title={t('general.title')}>
      <form onSubmit={submit} onChange={startEditing}>
        <TextField
          label={t('general.name')}
          value={name}
          onChange={setName}
          maxLength={60}
          required
          inputClassName="text-input channel-input"
        />
        <TextField
          label={t('general.description')}
          value={description}
          onChange={setDescription}
          maxLength={1024}
          multiline
          inputClassName="text-input channel-input channel-textarea"
          hint={t('general.markdownHint')}
        />
        <div className="settings-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={!changed || !name.trim() || save.isPending}
          >
            {t('general.save')}
          </button>
          {changed && (
            <button type="button" className="button" onClick={discard}>
              {t('general.discard')}
            </button>
          )}
          <StatusNote save={save} />
        </div>
      </form>
      <div className="channel-description-preview">
        <h4>{t('general.shownAs')}</h4>
        <RenderedDescription stream={stream} />
      </div>
    </SettingsGroup>
  );
}

function PrivacyRow({ stream, role }: { stream: Stream; role: number }) {
  const { t } = useTranslation('channels');
  const settings = useRealmSettings();
  const save = useUpdateChannel(stream.stream_id);
  const current = privacyOf(stream);
  const kind = (p: Privacy) => (p === 'private-protected' ? 'private-shared' : p);
  // A change asks first (who gains or loses access, what happens to the history); cancelling
  // puts the select back, through a new key.
  const [asked, setAsked] = useState<Privacy | null>(null);
  const [resets, setResets] = useState(0);
  const offered = allowedPrivacies(settings, role)
    .filter((p) => p !== 'private-protected')
    .concat(kind(current))
    .filter((p, i, all) => all.indexOf(p) === i);
  const options = (['web-public', 'public', 'private-shared'] as const)
    .filter((p) => offered.includes(p))
    .map((p) => [p, t(`privacyShort.${p}`)] as const);
  const apply = (next: Privacy) => {
    const { invite_only, is_web_public } = privacyParams(next);
    save.mutate(
      {
        is_private: invite_only,
        is_web_public,
        history_public_to_subscribers: invite_only ? stream.history_public_to_subscribers : true,
      },
      { onSettled: () => setAsked(null) },
    );
  };
  return (
    <>
      <SelectRow
        key={resets}
        label={t('general.privacy')}
        value={kind(current)}
        options={options}
        onChange={(next) => (next === kind(current) ? undefined : setAsked(next))}
        save={save}
      />
      {asked && (
        <ModalDialog
          title={t('privacyConfirm.title', { name: stream.name })}
          confirmLabel={t('privacyConfirm.confirm')}
          danger={asked !== 'web-public' && kind(current) !== 'private-shared'}
          pending={save.isPending}
          onClose={() => {
            setAsked(null);
            setResets((n) => n + 1);
          }}
          onConfirm={() => apply(asked)}
        >
          {privacyConsequences(current, asked, stream).map((key) => (
            <p key={key} className="admin-dialog-text">
              {t(`privacyConfirm.${key}`, { name: stream.name })}
            </p>
          ))}
        </ModalDialog>
      )}
    </>
  );
}

type Consequence =
  | 'toWebPublic'
  | 'toPublic'
  | 'toPrivate'
  | 'noVisitors'
  | 'historyOpens'
  | 'historyStaysProtected';

/**
 * What a privacy change does, as sentences (keys of privacyConfirm): who gains access, who loses
 * it, and what becomes of the history.
 */
export function privacyConsequences(
  from: Privacy,
  to: Privacy,
  stream: Pick<Stream, 'history_public_to_subscribers'>,
): Consequence[] {
  const out: Consequence[] = [];
  if (to === 'web-public') out.push('toWebPublic');
  if (to === 'public') out.push(from === 'web-public' ? 'noVisitors' : 'toPublic');
  if (to === 'private-shared' || to === 'private-protected') {
    out.push('toPrivate');
    if (from === 'web-public') out.push('noVisitors');
  }
  // Leaving a private channel with protected history makes its whole history readable.
  if (from === 'private-protected' && (to === 'public' || to === 'web-public'))
    out.push('historyOpens');
  else if (to === 'private-shared' && !stream.history_public_to_subscribers)
    out.push('historyStaysProtected');
  return out;
}

function HistoryRow({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  const save = useUpdateChannel(stream.stream_id);
  return (
    <SelectRow
      label={t('general.history')}
      hint={stream.invite_only ? undefined : t('general.historyPublicHint')}
      value={stream.history_public_to_subscribers ? 'shared' : 'protected'}
      disabled={!stream.invite_only}
      options={[
        ['shared', t('general.historyShared')],
        ['protected', t('general.historyProtected')],
      ]}
      onChange={(next) => save.mutate({ history_public_to_subscribers: next === 'shared' })}
      save={save}
    />
  );
}

function PostPolicyRow({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  const save = useUpdateChannel(stream.stream_id);
  return (
    <SelectRow
      label={t('general.postPolicy')}
      value={stream.stream_post_policy}
      options={POST_POLICIES.map((p) => [p, t(`postPolicy.${p}`)] as const)}
      onChange={(next) => save.mutate({ stream_post_policy: next })}
      save={save}
    />
  );
}

function RetentionRow({ stream, role }: { stream: Stream; role: number }) {
  const { t } = useTranslation('channels');
  const save = useUpdateChannel(stream.stream_id);
  const text = useRetentionText(stream.message_retention_days);
  const selectId = useId();
  const daysId = useId();
  const stored = retentionChoice(stream.message_retention_days);
  const [choice, setChoice] = useState(stored);
  const [days, setDays] = useState(
    stream.message_retention_days && stream.message_retention_days > 0
      ? String(stream.message_retention_days)
      : '30',
  );
  useEffect(() => setChoice(stored), [stored]);
  if (!mayChangeRetention(role))
    return (
      <div className="settings-row">
        <span className="channel-row-label">{t('general.retention')}</span>
        <span>{text}</span>
        <p className="settings-hint">{t('general.retentionOwners')}</p>
      </div>
    );
  const dayCount = Number(days);
  const valid = choice !== 'days' || (Number.isInteger(dayCount) && dayCount > 0);
  const unchanged =
    choice === stored && (choice !== 'days' || dayCount === stream.message_retention_days);
  return (
    <div className="settings-row">
      <label htmlFor={selectId}>{t('general.retention')}</label>
      <select
        id={selectId}
        className="text-input"
        value={choice}
        onChange={(e) => setChoice(e.target.value as typeof choice)}
      >
        <option value="realm_default">{t('general.retentionRealmOption')}</option>
        <option value="unlimited">{t('general.retentionForever')}</option>
        <option value="days">{t('general.retentionCustom')}</option>
      </select>
      {choice === 'days' && (
        <>
          <label htmlFor={daysId} className="visually-hidden">
            {t('general.retentionDaysLabel')}
          </label>
          <input
            id={daysId}
            className="text-input channel-days"
            type="number"
            min={1}
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </>
      )}
      <button
        type="button"
        className="button button-small"
        disabled={!valid || unchanged || save.isPending}
        onClick={() =>
          save.mutate({ message_retention_days: choice === 'days' ? dayCount : choice })
        }
      >
        {t('general.apply')}
      </button>
      <StatusNote save={save} />
      <p className="settings-hint">{t('general.retentionNow', { value: text })}</p>
    </div>
  );
}

function ArchiveGroup({ stream }: { stream: Stream }) {
  const { t } = useTranslation('channels');
  const navigate = useNavigate();
  const archive = useArchiveChannel(stream.stream_id, () => void navigate(viewToUrl('channels')));
  const [confirming, setConfirming] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);
  const close = () => {
    setConfirming(false);
    archive.reset();
    opener.current?.focus();
  };
  return (
    <SettingsGroup title={t('archive.title')}>
      <p className="settings-hint-block channel-muted">{t('archive.explain')}</p>
      <button
        ref={opener}
        type="button"
        className="button button-danger"
        onClick={() => setConfirming(true)}
        disabled={confirming}
      >
        {t('archive.button')}
      </button>
      {confirming && (
        <div
          className="channel-confirm"
          role="alertdialog"
          aria-labelledby={titleId}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
        >
          <p id={titleId}>{t('archive.confirm', { name: stream.name })}</p>
          <div className="settings-row">
            <button
              type="button"
              className="button button-danger"
              disabled={archive.isPending}
              onClick={() => archive.mutate()}
            >
              {t('archive.yes')}
            </button>
            <button ref={cancel} type="button" className="button" onClick={close}>
              {t('archive.cancel')}
            </button>
            {archive.isError && (
              <span className="settings-status settings-status-error" role="alert">
                {errorText(archive.error)}
              </span>
            )}
          </div>
        </div>
      )}
    </SettingsGroup>
  );
}
