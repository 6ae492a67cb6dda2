/**
 * Administration › Invitations: invite people by email or with a reusable link, and manage the
 * invitations still pending (revoke; mail again). The list refetches when an `invites_changed`
 * event says it changed, so two administrators see each other's invitations come and go.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ROLE } from '../../../api/model/user';
import type { PendingInvite } from '../../../api/routes/invitations';
import { useOwnUserId, useSortedSubscriptions, useUsersById } from '../../../model/hooks';
import {
  useCreateInviteLink,
  useInviteByEmail,
  useInvites,
  useResendInvite,
  useRevokeInvite,
} from '../../../queries/admin';
import { RowActions } from '../../../components/RowActions';
import { EmptyState, ErrorState, LoadingState } from '../../../components/StatePanel';
import { SettingsGroup, StatusNote } from '../../settings/controls';
import { ModalDialog } from '../../../components/ModalDialog';
import { formatMoment } from './format';
import { roleName } from './roles';

/** Who may be invited as what: one's own role or a more restricted one, owners only by owners. */
function invitableRoles(ownRole: number): number[] {
  return [ROLE.MEMBER, ROLE.MODERATOR, ROLE.ADMINISTRATOR, ROLE.OWNER, ROLE.GUEST].filter(
    (r) => r >= ownRole,
  );
}

const EXPIRY_MINUTES = [60 * 24, 60 * 24 * 7, 60 * 24 * 30, null] as const;

function useExpiryChoices(): [number | null, string][] {
  const { t } = useTranslation('adminUsers');
  return EXPIRY_MINUTES.map((m) => [
    m,
    m === null ? t('invites.expiry.never') : t('invites.expiry.days', { count: m / (60 * 24) }),
  ]);
}

function useOwnRole() {
  return useUsersById()[useOwnUserId()]?.role ?? ROLE.MEMBER;
}

function ExpirySelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number | null;
  onChange(value: number | null): void;
}) {
  const choices = useExpiryChoices();
  return (
    <select
      id={id}
      className="text-input"
      value={String(value)}
      onChange={(e) => onChange(e.target.value === 'null' ? null : Number(e.target.value))}
    >
      {choices.map(([minutes, text]) => (
        <option key={String(minutes)} value={String(minutes)}>
          {text}
        </option>
      ))}
    </select>
  );
}

function RoleSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange(role: number): void;
}) {
  const ownRole = useOwnRole();
  return (
    <select
      id={id}
      className="text-input"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {invitableRoles(ownRole).map((r) => (
        <option key={r} value={r}>
          {roleName(r)}
        </option>
      ))}
    </select>
  );
}

/** The channels the invited join: the default ones, and any others chosen. */
function InviteChannels({
  defaults,
  onDefaults,
  streamIds,
  onStreamIds,
}: {
  defaults: boolean;
  onDefaults(on: boolean): void;
  streamIds: readonly number[];
  onStreamIds(update: (list: number[]) => number[]): void;
}) {
  const { t } = useTranslation('adminUsers');
  const channels = useSortedSubscriptions();
  const toggle = (id: number, on: boolean) =>
    onStreamIds((list) => (on ? [...list, id] : list.filter((x) => x !== id)));
  return (
    <fieldset className="admin-channels">
      <legend>{t('invites.channels')}</legend>
      <label className="settings-toggle">
        <input type="checkbox" checked={defaults} onChange={(e) => onDefaults(e.target.checked)} />
        <span>{t('invites.defaultChannels')}</span>
      </label>
      {channels.map((c) => (
        <label key={c.stream_id} className="settings-toggle">
          <input
            type="checkbox"
            checked={streamIds.includes(c.stream_id)}
            onChange={(e) => toggle(c.stream_id, e.target.checked)}
          />
          <span>#{c.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

function EmailInvites() {
  const { t } = useTranslation('adminUsers');
  const invite = useInviteByEmail();
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<number>(ROLE.MEMBER);
  const [defaults, setDefaults] = useState(true);
  const [streamIds, setStreamIds] = useState<number[]>([]);
  const [expiry, setExpiry] = useState<number | null>(60 * 24 * 7);
  const ids = { emails: useId(), role: useId(), expiry: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!emails.trim()) return;
    invite.mutate(
      { emails, role, streamIds, defaultChannels: defaults, expiresInMinutes: expiry },
      { onSuccess: () => setEmails('') },
    );
  };
  return (
    <form className="admin-form" onSubmit={submit}>
      <div className="admin-field">
        <label htmlFor={ids.emails}>{t('invites.emails')}</label>
        <textarea
          id={ids.emails}
          className="text-input admin-textarea"
          rows={3}
          value={emails}
          placeholder={t('invites.emailsPlaceholder')}
          onChange={(e) => setEmails(e.target.value)}
        />
        <p className="settings-hint">{t('invites.emailsHint')}</p>
      </div>
      <div className="admin-field-row">
        <div className="admin-field">
          <label htmlFor={ids.role}>{t('invites.inviteAs')}</label>
          <RoleSelect id={ids.role} value={role} onChange={setRole} />
        </div>
        <div className="admin-field">
          <label htmlFor={ids.expiry}>{t('invites.expiresIn')}</label>
          <ExpirySelect id={ids.expiry} value={expiry} onChange={setExpiry} />
        </div>
      </div>
      <InviteChannels
        defaults={defaults}
        onDefaults={setDefaults}
        streamIds={streamIds}
        onStreamIds={setStreamIds}
      />
      <div className="admin-form-actions">
        <button type="submit" className="button button-primary" disabled={!emails.trim()}>
          {t('invites.send')}
        </button>
        {invite.isSuccess ? (
          <span className="settings-status" role="status">
            {t('invites.sent')}
          </span>
        ) : (
          <StatusNote save={invite} />
        )}
      </div>
    </form>
  );
}

function InviteLink() {
  const { t } = useTranslation('adminUsers');
  const createLink = useCreateInviteLink();
  const [role, setRole] = useState<number>(ROLE.MEMBER);
  const [expiry, setExpiry] = useState<number | null>(60 * 24 * 7);
  // Kept apart from the mutation's data so the last link stays on screen while a new one is made.
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = () => {
    setCopied(false);
    createLink.mutate(
      { role, expiresInMinutes: expiry },
      { onSuccess: ({ invite_link }) => setLink(invite_link) },
    );
  };
  return (
    <div className="admin-form">
      <div className="admin-field-row">
        <div className="admin-field">
          <label htmlFor="invite-role">{t('invites.joinAs')}</label>
          <RoleSelect id="invite-role" value={role} onChange={setRole} />
        </div>
        <div className="admin-field">
          <label htmlFor="invite-expiry">{t('invites.linkExpiresIn')}</label>
          <ExpirySelect id="invite-expiry" value={expiry} onChange={setExpiry} />
        </div>
      </div>
      <div className="admin-form-actions">
        <button type="button" className="button button-primary" onClick={create}>
          {t('invites.createLink')}
        </button>
      </div>
      {link && (
        <div className="admin-field">
          <label htmlFor="invite-link">{t('invites.link')}</label>
          <div className="admin-copy">
            <input
              id="invite-link"
              className="text-input"
              readOnly
              value={link}
              onFocus={(e) => e.target.select()}
            />
            <button
              type="button"
              className="button"
              onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
            >
              {copied ? t('invites.copied') : t('invites.copy')}
            </button>
          </div>
        </div>
      )}
      {createLink.isError && (
        <p className="settings-status settings-status-error" role="alert">
          {errorText(createLink.error)}
        </p>
      )}
    </div>
  );
}

function PendingInvites() {
  const { t } = useTranslation('adminUsers');
  const invites = useInvites();
  const users = useUsersById();
  const [confirm, setConfirm] = useState<{
    invite: PendingInvite;
    action: InviteAction;
  } | null>(null);
  if (invites.isPending) return <LoadingState label={t('invites.loading')} />;
  if (invites.isError)
    return (
      <ErrorState
        title={t('invites.loadFailed')}
        message={errorText(invites.error)}
        onRetry={() => void invites.refetch()}
      />
    );
  const list = [...invites.data].sort((a, b) => b.invited - a.invited);
  if (list.length === 0)
    return <EmptyState title={t('invites.noneTitle')}>{t('invites.none')}</EmptyState>;
  const what = (i: PendingInvite) =>
    i.is_multiuse
      ? t('invites.linkBy', { name: users[i.invited_by_user_id]?.full_name ?? '' })
      : (i.email ?? '');
  return (
    <>
      <ul className="admin-invites" aria-label={t('invites.pendingLabel')}>
        {list.map((i) => (
          <PendingInviteRow
            key={`${i.is_multiuse}-${i.id}`}
            invite={i}
            what={what(i)}
            onConfirm={(action) => setConfirm({ invite: i, action })}
          />
        ))}
      </ul>
      {confirm && (
        <ConfirmInvite
          invite={confirm.invite}
          action={confirm.action}
          what={what(confirm.invite)}
          onClose={() => setConfirm(null)}
        />
      )}
    </>
  );
}

type InviteAction = 'revoke' | 'resend';

function PendingInviteRow({
  invite,
  what,
  onConfirm,
}: {
  invite: PendingInvite;
  /** the invited address, or whose link it is */
  what: string;
  onConfirm(action: InviteAction): void;
}) {
  const { t } = useTranslation('adminUsers');
  const users = useUsersById();
  return (
    <li className="admin-invite">
      <div className="admin-invite-main">
        <span className="admin-invite-what">
          {invite.is_multiuse ? t('invites.reusableLink') : invite.email}
        </span>
        <span className="admin-muted">
          {t('invites.details', {
            role: roleName(invite.invited_as),
            name: users[invite.invited_by_user_id]?.full_name ?? t('invites.someone'),
            date: formatMoment(invite.invited),
          })}
        </span>
        <span className="admin-muted">
          {invite.expiry_date === null
            ? t('invites.neverExpires')
            : t('invites.expires', { date: formatMoment(invite.expiry_date) })}
        </span>
      </div>
      <RowActions
        className="admin-actions"
        actions={[
          !invite.is_multiuse && {
            label: t('invites.resend'),
            name: t('invites.resendNamed', { what }),
            onClick: () => onConfirm('resend'),
          },
          {
            label: t('invites.revoke'),
            name: t('invites.revokeNamed', { what }),
            onClick: () => onConfirm('revoke'),
          },
        ]}
      />
    </li>
  );
}

function ConfirmInvite({
  invite,
  action,
  what,
  onClose,
}: {
  invite: PendingInvite;
  action: 'revoke' | 'resend';
  what: string;
  onClose(): void;
}) {
  const { t } = useTranslation('adminUsers');
  const revoke = useRevokeInvite();
  const resend = useResendInvite();
  if (action === 'resend')
    return (
      <ModalDialog
        title={t('invites.resendTitle', { what })}
        confirmLabel={t('invites.resend')}
        pending={resend.isPending}
        error={resend.error}
        onClose={onClose}
        onConfirm={() => resend.mutate(invite.id, { onSuccess: onClose })}
      >
        <p className="admin-dialog-text">{t('invites.resendText', { what })}</p>
      </ModalDialog>
    );
  return (
    <ModalDialog
      title={t('invites.revokeTitle', { what })}
      confirmLabel={t('invites.revoke')}
      danger
      pending={revoke.isPending}
      error={revoke.error}
      onClose={onClose}
      onConfirm={() => revoke.mutate(invite, { onSuccess: onClose })}
    >
      <p className="admin-dialog-text">
        {invite.is_multiuse ? t('invites.revokeLinkText') : t('invites.revokeText', { what })}
      </p>
    </ModalDialog>
  );
}

export function InvitationsSection() {
  const { t } = useTranslation('adminUsers');
  return (
    <>
      <SettingsGroup title={t('invites.byEmail')}>
        <EmailInvites />
      </SettingsGroup>
      <SettingsGroup title={t('invites.byLink')}>
        <p className="settings-hint settings-hint-block">{t('invites.linkHint')}</p>
        <InviteLink />
      </SettingsGroup>
      <SettingsGroup title={t('invites.pending')}>
        <PendingInvites />
      </SettingsGroup>
    </>
  );
}
