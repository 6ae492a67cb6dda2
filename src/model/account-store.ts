/**
 * The per-account zustand store. One store per event queue: when the queue is lost, a new
 * store is built from the new snapshot rather than patched. Actions are named after what
 * happened, not after what they do to the state.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RegisterResponse, UpdateMessageFlagsEvent } from '../api/model';
import type { ParsedEvent } from '../api/parse-event';
import {
  accountStateFromSnapshot,
  reduceAccountEvent,
  reduceAccountEvents,
  type AccountState,
} from './account-state';
import { emptyTyping, expireTyping } from './typing';

export interface AccountActions {
  eventsReceived(events: readonly ParsedEvent[]): void;
  /** the user read or un-read messages here, before the server confirms (optimistic) */
  flagsChangedLocally(change: Omit<UpdateMessageFlagsEvent, 'id' | 'type'>): void;
  clockTicked(now: number): void;
}

export type AccountStore = StoreApi<AccountState & AccountActions>;

export function createAccountStore(
  register: RegisterResponse,
  clock: () => number = Date.now,
): AccountStore {
  return accountStoreFrom(accountStateFromSnapshot(register), clock);
}

/** A store that starts from a state kept earlier (offline-cache.ts) rather than a snapshot. */
export function accountStoreFrom(
  initial: AccountState,
  clock: () => number = Date.now,
): AccountStore {
  return createStore<AccountState & AccountActions>()((set, get) => ({
    ...initial,
    eventsReceived(events) {
      const state = get();
      const next = reduceAccountEvents(state, events, clock());
      if (next !== state) set(next);
    },
    flagsChangedLocally(change) {
      const state = get();
      const next = reduceAccountEvent(
        state,
        { id: -1, type: 'update_message_flags', ...change },
        clock(),
      );
      if (next !== state) set(next);
    },
    clockTicked(now) {
      const typing = expireTyping(get().typing, now);
      if (typing !== get().typing) set({ typing });
    },
  }));
}

/** The state alone, for another tab on the same queue (queue-sharing.ts): nobody typing. */
export function sharedState(state: AccountState & AccountActions): AccountState {
  return { ...keptState(state), queueId: state.queueId, serverRestarted: state.serverRestarted };
}

/**
 * The state alone, as kept between visits: no actions, no queue (it is the server's, and gone by
 * the next visit), nobody typing.
 */
export function keptState(state: AccountState & Partial<AccountActions>): AccountState {
  const { eventsReceived, flagsChangedLocally, clockTicked, ...data } = state;
  void eventsReceived;
  void flagsChangedLocally;
  void clockTicked;
  return { ...data, queueId: null, typing: emptyTyping, serverRestarted: null };
}
