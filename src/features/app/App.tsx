import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { ErrorState, LoadingState } from '../../components/StatePanel';
import {
  loggedOut,
  stopSpectating,
  useLoginChosen,
  useLogoutReason,
  useSpectating,
  currentAccount,
  useStoredAccount,
  type StoredAccount,
} from '../login/credentials';
import { DeactivatedScreen } from '../login/DeactivatedScreen';
import { anonymous } from '../login/anonymous';
import { isDeepLink } from '../login/visitor-link';
import { useLocation } from 'react-router';
import { serverSettingsQuery } from '../../queries/account';
import { AppShell } from './AppShell';
import type { AccountSession } from '../../model/session';
import { createAccountSession } from '../../queries/session-caches';
import { accountCacheKey, offlineCacheFor, preloadKept } from '../../model/offline-cache';
import { SessionProvider } from './SessionProvider';

// What this browser kept of the logged-in account is read while the first render happens.
const startingAccount = currentAccount();
if (startingAccount) preloadKept(accountCacheKey(undefined, startingAccount.email));

// The login form is a chunk of its own, since most page loads are of a logged-in person: without
// an account it starts loading with the page, beside the app's own code.
const loadLogin = () => import('../login/LoginScreen');
if (!startingAccount) void loadLogin();
const LazyLoginScreen = lazy(() => loadLogin().then((m) => ({ default: m.LoginScreen })));

function LoginScreen({ linkNeedsAccount = false }: { linkNeedsAccount?: boolean }) {
  return (
    <Suspense fallback={null}>
      <LazyLoginScreen linkNeedsAccount={linkNeedsAccount} />
    </Suspense>
  );
}

export function App() {
  const account = useStoredAccount();
  const reason = useLogoutReason();
  const spectating = useSpectating();
  const loginChosen = useLoginChosen();
  const location = useLocation();
  if (!account) {
    if (reason) return <DeactivatedScreen reason={reason} />;
    if (spectating) return <SessionRoot key="spectator" account={null} />;
    if (!loginChosen && isDeepLink(location.pathname, location.hash)) return <VisitorLink />;
    return <LoginScreen />;
  }
  return <SessionRoot key={account.email} account={account} />;
}

/**
 * A visitor followed a link into the app: where the organization lets visitors read its
 * web-public channels, the app opens for reading at that address (the view itself asks for a
 * login when the address is not web-public); elsewhere the login keeps the address and opens it.
 */
function VisitorLink() {
  const { t } = useTranslation();
  const settings = useQuery(serverSettingsQuery(anonymous));
  if (settings.isPending) return <LoadingState label={t('connecting')} />;
  if (settings.data?.realm_web_public_access_enabled)
    return <SessionRoot key="spectator" account={null} />;
  return <LoginScreen linkNeedsAccount />;
}

/** Owns one AccountSession for as long as this account is logged in (or the visitor browses). */
function SessionRoot({ account }: { account: StoredAccount | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [session, setSession] = useState<AccountSession | null>(null);

  useEffect(() => {
    const created = account
      ? createAccountSession(account.email, account.apiKey, queryClient, {
          offlineCache: offlineCacheFor(accountCacheKey(undefined, account.email)),
          sharingKey: accountCacheKey(undefined, account.email),
        })
      : createAccountSession('', '', queryClient, { spectator: true });
    created.start();
    setSession(created);
    return () => {
      created.stop();
      queryClient.clear();
    };
  }, [account, queryClient]);

  if (!session) return <LoadingState label={t('connecting')} />;
  return (
    <SessionProvider session={session}>
      <SessionGate session={session} />
    </SessionProvider>
  );
}

function SessionGate({ session }: { session: AccountSession }) {
  const { t } = useTranslation();
  const store = useStore(session.state, (s) => s.store);
  const status = useStore(session.state, (s) => s.status);
  const stopReason = useStore(session.state, (s) => s.stopReason);

  useEffect(() => {
    if (
      stopReason === 'USER_DEACTIVATED' ||
      stopReason === 'REALM_DEACTIVATED' ||
      stopReason === 'INVALID_API_KEY'
    ) {
      void session.logOut();
      loggedOut(stopReason);
    }
  }, [session, stopReason]);

  if (store) return <AppShell />;
  if (stopReason === 'no-queue' && session.spectator) {
    return (
      <div className="connecting-screen">
        <ErrorState
          title={t('spectator.unavailableTitle')}
          message={t('spectator.unavailableMessage')}
          onRetry={() => location.reload()}
        />
        <button type="button" className="button" onClick={() => stopSpectating()}>
          {t('spectator.logInInstead')}
        </button>
      </div>
    );
  }
  if (stopReason === 'no-queue') {
    return (
      <ErrorState
        title={t('noQueue.title')}
        message={t('noQueue.message')}
        onRetry={() => location.reload()}
      />
    );
  }
  return (
    <div className="connecting-screen">
      <LoadingState label={status === 'reconnecting' ? t('stillConnecting') : t('connecting')} />
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          void session.logOut();
          loggedOut();
        }}
      >
        {t('logOut')}
      </button>
    </div>
  );
}
