import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { StoreHolderContext } from '../../model/hooks';
import { ErrorState, LoadingState } from '../../components/StatePanel';
import {
  loggedOut,
  useLogoutReason,
  useStoredAccount,
  type StoredAccount,
} from '../login/credentials';
import { DeactivatedScreen } from '../login/DeactivatedScreen';
import { LoginScreen } from '../login/LoginScreen';
import { AppShell } from './AppShell';
import { AccountSession } from './session';
import { SessionContext } from './session-context';

export function App() {
  const account = useStoredAccount();
  const reason = useLogoutReason();
  if (!account) return reason ? <DeactivatedScreen reason={reason} /> : <LoginScreen />;
  return <SessionRoot key={account.email} account={account} />;
}

/** Owns one AccountSession for as long as this account is logged in. */
function SessionRoot({ account }: { account: StoredAccount }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<AccountSession | null>(null);

  useEffect(() => {
    const created = new AccountSession(account.email, account.apiKey, queryClient);
    created.start();
    setSession(created);
    return () => {
      created.stop();
      queryClient.clear();
    };
  }, [account, queryClient]);

  if (!session) return <LoadingState label="Connecting…" />;
  return (
    <SessionContext.Provider value={session}>
      <StoreHolderContext.Provider value={session.state}>
        <SessionGate session={session} />
      </StoreHolderContext.Provider>
    </SessionContext.Provider>
  );
}

function SessionGate({ session }: { session: AccountSession }) {
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
  if (stopReason === 'no-queue') {
    return (
      <ErrorState
        title="Cannot connect"
        message="The server did not open an event queue for this account."
        onRetry={() => location.reload()}
      />
    );
  }
  return (
    <div className="connecting-screen">
      <LoadingState
        label={status === 'reconnecting' ? 'Still trying to reach the server…' : 'Connecting…'}
      />
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          session.stop(true);
          loggedOut();
        }}
      >
        Log out
      </button>
    </div>
  );
}
