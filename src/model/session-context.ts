import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AccountSession } from './session';
import type { SessionState } from './session-core';

export const SessionContext = createContext<AccountSession | null>(null);

export function useSession(): AccountSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a session');
  return session;
}

export function useSessionState<T>(selector: (state: SessionState) => T): T {
  return useStore(useSession().state, selector);
}

export const useConnection = () => useSession().connection;

/** Reading web-public channels without an account: everything is read-only. */
export const useIsSpectator = () => useSession().spectator;
