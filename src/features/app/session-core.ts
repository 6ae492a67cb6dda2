/**
 * What the helpers a session owns (sending with local echo, flag changes) use of it. They take
 * this rather than the AccountSession class, which builds them: the class imports them, so their
 * importing it back would close a circle.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiConnection } from '../../api/connection';
import type { AccountStore } from '../../model/account-store';
import type { OutboxStore } from '../../model/outbox';
import type { ConnectionStatus, PollerState } from '../../model/poller';

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
