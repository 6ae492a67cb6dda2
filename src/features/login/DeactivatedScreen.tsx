import type { LogoutReason } from './credentials';
import { deactivationAcknowledged } from './credentials';

const COPY: Record<Exclude<LogoutReason, null>, { title: string; body: string }> = {
  USER_DEACTIVATED: {
    title: 'Your account has been deactivated',
    body: 'An administrator of this organization deactivated your account. If you think this is a mistake, contact them.',
  },
  REALM_DEACTIVATED: {
    title: 'This organization has been deactivated',
    body: 'The organization no longer accepts logins. Its administrators can tell you more.',
  },
  INVALID_API_KEY: {
    title: 'You have been logged out',
    body: 'Your login is no longer valid, perhaps because your password or API key changed. Please log in again.',
  },
};

export function DeactivatedScreen({ reason }: { reason: Exclude<LogoutReason, null> }) {
  const copy = COPY[reason];
  return (
    <main className="login-page">
      <div className="login-card" role="alert">
        <header className="login-header">
          <img className="login-icon" src="/favicon.svg" alt="" width={56} height={56} />
          <h1>{copy.title}</h1>
        </header>
        <p className="login-notice">{copy.body}</p>
        <button
          type="button"
          className="button button-primary login-submit"
          onClick={deactivationAcknowledged}
        >
          Back to login
        </button>
      </div>
    </main>
  );
}
