/**
 * Account: the email address (a change is confirmed by a link mailed to the new address), the
 * password, and leaving the organization (deactivating the own account, after a confirmation).
 */
import { useContext, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';
import { useOwnUserId, useRealmSetting, useUser } from '../../model/hooks';
import { useDeactivateOwnAccount, useRequestEmailChange } from '../../queries/personal-settings';
import { useChangePassword } from '../../queries/settings';
import { loggedOut } from '../login/credentials';
import { SessionContext } from '../../model/session-context';
import { ROLE } from '../../api/model/user';
import { SettingsGroup, StatusNote } from './controls';

function EmailForm() {
  const { t } = useTranslation('settings');
  const me = useUser(useOwnUserId());
  const disabled = useRealmSetting('email_changes_disabled') === true;
  const mayChange = !disabled || (me?.role ?? ROLE.GUEST) <= ROLE.ADMINISTRATOR;
  const change = useRequestEmailChange();
  const [draft, setDraft] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const current = me?.delivery_email ?? me?.email ?? '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    if (!email) return;
    setSentTo(null);
    change.mutate(email, {
      onSuccess: () => {
        setSentTo(email);
        setDraft('');
      },
    });
  };
  return (
    <>
      <div className="settings-row">
        <span className="settings-label">{t('account.currentEmail')}</span>
        <span className="settings-value">{current}</span>
      </div>
      {mayChange ? (
        <form className="settings-row settings-inline-form" onSubmit={submit}>
          <label htmlFor="setting-new-email">{t('account.newEmail')}</label>
          <input
            id="setting-new-email"
            className="text-input"
            inputMode="email"
            value={draft}
            autoComplete="email"
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="button" disabled={!draft.trim() || change.isPending}>
            {t('account.changeEmail')}
          </button>
          {change.isError ? (
            <StatusNote save={change} />
          ) : sentTo ? (
            <p className="settings-status settings-note" role="status">
              {t('account.emailSent', { email: sentTo })}
            </p>
          ) : (
            <StatusNote save={change} />
          )}
        </form>
      ) : (
        <p className="settings-hint settings-hint-block">{t('account.emailLocked')}</p>
      )}
    </>
  );
}

function PasswordForm() {
  const { t } = useTranslation('settings');
  const change = useChangePassword();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { oldPassword, newPassword },
      {
        onSuccess: () => {
          setOld('');
          setNew('');
        },
      },
    );
  };
  return (
    <form className="settings-row settings-password" onSubmit={submit}>
      <label htmlFor="setting-old-password">{t('account.oldPassword')}</label>
      <input
        className="text-input"
        id="setting-old-password"
        type="password"
        value={oldPassword}
        onChange={(e) => setOld(e.target.value)}
        autoComplete="current-password"
      />
      <label htmlFor="setting-new-password">{t('account.newPassword')}</label>
      <input
        className="text-input"
        id="setting-new-password"
        type="password"
        value={newPassword}
        onChange={(e) => setNew(e.target.value)}
        autoComplete="new-password"
      />
      <button type="submit" className="button" disabled={!oldPassword || !newPassword}>
        {t('account.changePassword')}
      </button>
      <StatusNote save={change} />
    </form>
  );
}

/** A modal question with a safe default: Cancel has the focus, Escape cancels. */
function ConfirmDeactivation({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('settings');
  // Absent only where the section is shown outside the app (its tests).
  const session = useContext(SessionContext);
  const deactivate = useDeactivateOwnAccount();
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    return () => opener?.focus();
  }, []);
  // Escape cancels wherever the focus is (a disabled button lets it go while saving).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const confirm = () =>
    deactivate.mutate(undefined, {
      onSuccess: () => {
        void session?.logOut();
        loggedOut();
      },
    });
  return (
    <div className="settings-dialog-backdrop">
      <div
        className="settings-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <h2 id={titleId}>{t('account.deactivateTitle')}</h2>
        <p id={textId}>{t('account.deactivateText')}</p>
        {deactivate.isError && (
          <p className="settings-status settings-status-error" role="alert">
            {errorText(deactivate.error)}
          </p>
        )}
        <div className="settings-dialog-actions">
          <button ref={cancelRef} type="button" className="button" onClick={onClose}>
            {t('account.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={deactivate.isPending}
            onClick={confirm}
          >
            {t('account.deactivateConfirm')}
          </button>
        </div>
      </div>
    </div>
  );
}

function Deactivate() {
  const { t } = useTranslation('settings');
  const [asking, setAsking] = useState(false);
  return (
    <>
      <p className="settings-hint settings-hint-block">{t('account.deactivateHint')}</p>
      <div className="settings-row">
        <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
          {t('account.deactivate')}
        </button>
      </div>
      {asking && <ConfirmDeactivation onClose={() => setAsking(false)} />}
    </>
  );
}

export function AccountSection() {
  const { t } = useTranslation('settings');
  return (
    <>
      <SettingsGroup title={t('account.email')}>
        <EmailForm />
      </SettingsGroup>
      <SettingsGroup title={t('account.password')}>
        <PasswordForm />
      </SettingsGroup>
      <SettingsGroup title={t('account.deactivateGroup')}>
        <Deactivate />
      </SettingsGroup>
    </>
  );
}
