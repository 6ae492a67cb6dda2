import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/errors';
import { i18n } from '../../i18n';
import { serverSettingsQuery, useLogIn } from '../../queries/account';
import { anonymous } from './anonymous';
import { loggedIn, startSpectating, useLinkNeedsAccount } from './credentials';

/** What to tell someone whose login failed; the server's own words when it gave any. */
function loginErrorMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return i18n.t('login:errors.unknown');
  const { failure } = error;
  switch (failure.kind) {
    case 'network':
      return i18n.t('login:errors.network');
    case 'server':
      return i18n.t('login:errors.server');
    case 'malformed':
      return i18n.t('login:errors.malformed');
    case 'api':
      if (failure.code === 'USER_DEACTIVATED') return i18n.t('login:errors.userDeactivated');
      if (failure.code === 'REALM_DEACTIVATED') return i18n.t('login:errors.realmDeactivated');
      if (failure.code === 'RATE_LIMIT_HIT') return tooManyAttempts(failure.extra['retry-after']);
      return failure.msg || i18n.t('login:errors.failed');
  }
}

/** The server locks an account after repeated wrong passwords; say for how long. */
function tooManyAttempts(retryAfter: unknown): string {
  if (typeof retryAfter !== 'number') return i18n.t('login:errors.tooManyLater');
  return i18n.t('login:errors.tooManyMinutes', { count: Math.max(1, Math.ceil(retryAfter / 60)) });
}

/**
 * The login. It keeps the address it was opened at, so that logging in opens what a followed
 * link pointed to; `linkNeedsAccount` says that the link needs an account.
 */
export function LoginScreen({ linkNeedsAccount = false }: { linkNeedsAccount?: boolean }) {
  const { t } = useTranslation('login');
  const needsAccount = useLinkNeedsAccount() || linkNeedsAccount;
  const settings = useQuery(serverSettingsQuery(anonymous));
  const realmName = settings.data?.realm_name ?? 'Parley';
  const passwordLogin = settings.data ? settings.data.email_auth_enabled !== false : true;

  return (
    <main className="login-page">
      <div className="login-card">
        <header className="login-header">
          {settings.data?.realm_icon ? (
            <img
              className="login-icon"
              src={settings.data.realm_icon}
              alt=""
              width={56}
              height={56}
            />
          ) : (
            <img className="login-icon" src="/favicon.svg" alt="" width={56} height={56} />
          )}
          <h1>{t('title', { realm: realmName })}</h1>
          {settings.data?.realm_uri && (
            <p className="login-realm-url">{settings.data.realm_uri.replace(/^https?:\/\//, '')}</p>
          )}
        </header>
        {needsAccount && (
          <p className="login-notice" role="status">
            {t('linkNeedsAccount')}
          </p>
        )}
        {settings.isError && <p className="login-notice">{t('detailsFailed')}</p>}
        {passwordLogin ? <PasswordForm /> : <p className="login-notice">{t('noPassword')}</p>}
        {passwordLogin && (
          <p className="login-forgot">
            {/* The server's own page, as on the reference server (a full page load, not a view). */}
            <a href={passwordResetUrl(settings.data?.realm_uri)}>{t('forgotPassword')}</a>
          </p>
        )}
        {settings.data?.realm_web_public_access_enabled && (
          <p className="login-spectate">
            <button type="button" className="link-button" onClick={startSpectating}>
              {t('spectate')}
            </button>
          </p>
        )}
      </div>
    </main>
  );
}

/** Where a forgotten password is reset: a page of the organization's server. */
export const passwordResetUrl = (realmUri: string | undefined) =>
  `${realmUri ? realmUri.replace(/\/+$/, '') : ''}/accounts/password/reset/`;

/** Email and password; a login that succeeds keeps the credentials and opens the app. */
function PasswordForm() {
  const { t } = useTranslation('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogIn(anonymous);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!login.isPending)
      login.mutate(
        { email, password },
        {
          onSuccess: (result) =>
            loggedIn({ email: result.email, apiKey: result.api_key, userId: result.user_id }),
        },
      );
  };

  return (
    <form className="login-form" onSubmit={onSubmit} noValidate>
      <label htmlFor="login-email">{t('email')}</label>
      <input
        id="login-email"
        className="text-input"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        autoFocus
      />
      <label htmlFor="login-password">{t('password')}</label>
      <input
        id="login-password"
        className="text-input"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
      />
      {login.isError && (
        <p className="login-error" role="alert">
          {loginErrorMessage(login.error)}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary login-submit"
        disabled={login.isPending || !email || !password}
      >
        {login.isPending ? t('loggingIn') : t('logIn')}
      </button>
    </form>
  );
}
