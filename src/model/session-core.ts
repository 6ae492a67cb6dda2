/**
 * What the helpers a session owns (sending with local echo, flag changes, mutation hooks) use of
 * it. They take this rather than the AccountSession class, which builds them: the class imports
 * them, so their importing it back would close a circle.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiConnection } from '../api/connection';
import type { AccountStore } from './account-store';
import type { OutboxStore } from './outbox';
import type { ConnectionStatus, PollerState } from './poller';

export interface SessionState {
  /** null until the first register succeeds */
  store: AccountStore | null;
  status: ConnectionStatus;
  stopReason: Extract<PollerState, { kind: 'stopped' }>['reason'] | null;
}

export interface SessionCore {
  readonly connection: ApiConnection;
  readonly queryClient: QueryClient;
  readonly state: StoreApi<SessionState>;
  readonly outbox: OutboxStore;
  /** reading web-public channels without an account: no queue, nothing written */
  readonly spectator: boolean;
}

/**
 * The session as the query layer sees it. Provided beside the app's own session context so that
 * mutation hooks in src/queries need nothing from a screen.
 */
export const SessionCoreContext = createContext<SessionCore | null>(null);

export function useSessionCore(): SessionCore {
  const session = useContext(SessionCoreContext);
  if (!session) throw new Error('useSessionCore outside a session');
  return session;
}
