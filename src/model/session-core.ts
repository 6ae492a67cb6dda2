/**
 * What the helpers a session owns (sending with local echo, flag changes, mutation hooks) use of
 * it. They take this rather than the AccountSession class, which builds them: the class imports
 * them, so their importing it back would close a circle.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiConnection } from '../api/connection';
import type { ParsedEvent } from '../api/parse-event';
import type { AccountStore } from './account-store';
import type { OutboxStore } from './outbox';
import type { ConnectionStatus, PollerState } from './poller';

export interface SessionState {
  /** null until the first register succeeds */
  store: AccountStore | null;
  status: ConnectionStatus;
  stopReason: Extract<PollerState, { kind: 'stopped' }>['reason'] | null;
  /**
   * The store shows what this browser kept from an earlier visit (offline-keeper.ts), not yet
   * the server's: true from then until the first snapshot arrives.
   */
  restored: boolean;
}

/**
 * What the session tells the caches of fetched server data. src/queries keeps those caches and
 * implements this; the model sits beneath it and reaches them only through this interface.
 */
export interface ServerDataCaches {
  /** a batch of events (or a local change shaped as one), taken in as the store takes it in */
  eventsReceived(events: readonly ParsedEvent[], ownUserId: number): void;
  /**
   * a new queue: events were missed, so history and topic lists must come from the server;
   * `keepShown` fetches them behind what is on screen (it came from the kept cache) instead of
   * dropping them first
   */
  queueReplaced(keepShown?: boolean): void;
  /** a spectator has no queue: what it reads is fetched again from time to time */
  refreshMessages(): void;
  /** what to keep of the fetched data between visits (the message pages), as a plain value */
  keep(): unknown;
  /**
   * brings back what `keep` gave at an earlier visit, where nothing newer is there; with
   * `refetch`, what it brought back is fetched again at once
   */
  restore(kept: unknown, refetch?: boolean): void;
  /** calls `listener` after the fetched data changed */
  subscribe(listener: () => void): () => void;
}

export interface SessionCore {
  readonly connection: ApiConnection;
  readonly queryClient: QueryClient;
  readonly caches: ServerDataCaches;
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
