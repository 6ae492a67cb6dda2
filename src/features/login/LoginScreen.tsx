import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiConnection } from '../../api/connection';
import { ApiRequestError } from '../../api/errors';
import { serverSettingsQuery, useLogIn } from '../../queries/account';
import { loggedIn, startSpectating } from './credentials';

const anonymous = new ApiConnection();

/** What to tell someone whose login failed; the server's own words when it gave any. */
function loginErrorMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return 'Something went wrong. Please try again.';
  const { failure } = error;
  switch (failure.kind) {
    case 'network':
      return 'Could not reach the server. Check your connection and try again.';
    case 'server':
      return 'The server had a problem. Please try again in a moment.';
    case 'malformed':
      return 'The server answered in a way Parley does not understand.';
    case 'api':
      if (failure.code === 'USER_DEACTIVATED') return 'Your account has been deactivated.';
      if (failure.code === 'REALM_DEACTIVATED') return 'This organization has been deactivated.';
      if (failure.code === 'RATE_LIMIT_HIT') return tooManyAttempts(failure.extra['retry-after']);
      return failure.msg || 'Login failed.';
  }
}

/** The server locks an account after repeated wrong passwords; say for how long. */
function tooManyAttempts(retryAfter: unknown): string {
  const minutes = typeof retryAfter === 'number' ? Math.max(1, Math.ceil(retryAfter / 60)) : null;
  const wait = minutes === null ? 'later' : `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed attempts to log in to this account. Try again ${wait}.`;
}

export function LoginScreen() {
  const settings = useQuery(serverSettingsQuery(anonymous));
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
          <h1>Log in to {realmName}</h1>
          {settings.data?.realm_uri && (
            <p className="login-realm-url">{settings.data.realm_uri.replace(/^https?:\/\//, '')}</p>
          )}
        </header>
        {settings.isError && (
          <p className="login-notice">
            Could not load this organization’s details; you can still try to log in.
          </p>
        )}
        {passwordLogin ? (
          <form className="login-form" onSubmit={onSubmit} noValidate>
            <label htmlFor="login-email">Email</label>
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
            <label htmlFor="login-password">Password</label>
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
              {login.isPending ? 'Logging in…' : 'Log in'}
            </button>
          </form>
        ) : (
          <p className="login-notice">
            This organization does not allow logging in with a password.
          </p>
        )}
        {settings.data?.realm_web_public_access_enabled && (
          <p className="login-spectate">
            <button type="button" className="link-button" onClick={startSpectating}>
              Browse the public channels without an account
            </button>
          </p>
        )}
      </div>
    </main>
  );
}
