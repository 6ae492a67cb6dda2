import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { ErrorState, LoadingState } from '../../components/StatePanel';
import {
  loggedOut,
  stopSpectating,
  useLogoutReason,
  useSpectating,
  useStoredAccount,
  type StoredAccount,
} from '../login/credentials';
import { DeactivatedScreen } from '../login/DeactivatedScreen';
import { LoginScreen } from '../login/LoginScreen';
import { AppShell } from './AppShell';
import type { AccountSession } from '../../model/session';
import { createAccountSession } from '../../queries/session-caches';
import { SessionProvider } from './SessionProvider';

export function App() {
  const account = useStoredAccount();
  const reason = useLogoutReason();
  const spectating = useSpectating();
  if (!account) {
    if (reason) return <DeactivatedScreen reason={reason} />;
    return spectating ? <SessionRoot key="spectator" account={null} /> : <LoginScreen />;
  }
  return <SessionRoot key={account.email} account={account} />;
}

/** Owns one AccountSession for as long as this account is logged in (or the visitor browses). */
function SessionRoot({ account }: { account: StoredAccount | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [session, setSession] = useState<AccountSession | null>(null);

  useEffect(() => {
    const created = account
      ? createAccountSession(account.email, account.apiKey, queryClient)
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
      loggedOut(stopReason);
    }
  }, [stopReason]);

  if (store) return <AppShell />;
  if (stopReason === 'no-queue' && session.spectator) {
    return (
      <div className="connecting-screen">
        <ErrorState
          title={t('spectator.unavailableTitle')}
          message={t('spectator.unavailableMessage')}
          onRetry={() => location.reload()}
        />
        <button type="button" className="button" onClick={stopSpectating}>
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
          session.stop(true);
          loggedOut();
        }}
      >
        {t('logOut')}
      </button>
    </div>
  );
}
