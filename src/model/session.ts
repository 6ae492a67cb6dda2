/**
 * One logged-in account: its connection, its event poller, the current per-queue store, and the
 * state that outlives a queue (outbox, compose drafts). Wires events into the store and into
 * the server-data caches it is given (src/queries builds them). No React here.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiConnection } from '../api/connection';
import type { RegisterResponse } from '../api/model';
import { deleteQueue } from '../api/routes/real-time-events';
// Only visitors use these: loaded as a chunk of their own when a visitor's page starts.
import type { Spectating } from './spectating';
import type { VisitorFeedApi, VisitorFeedOptions } from './visitor-feed';
import type { ParsedEvent } from '../api/parse-event';
import {
  accountStoreFrom,
  createAccountStore,
  sharedState,
  type AccountStore,
} from './account-store';
import type { QueueSharing, SharingHost } from './queue-sharing';
import { queueSharingSupported } from './this-tab';
import { createComposeDraftsStore, type ComposeDraftsStore } from './compose-drafts';
import { createOutboxStore, type OutboxStore } from './outbox';
import {
  connectionStatus,
  EventPoller,
  pollerApiFor,
  type PollerApi,
  type PollerState,
} from './poller';
import type { OfflineCache } from './offline-cache';
import { OfflineKeeper } from './offline-keeper';
import { retrySend, sendWhenWaiting } from './send';
import { stopOutboxSender } from './sender-registry';
import { ReadBatcher } from './flag-changes';
import type { ServerDataCaches, SessionCore, SessionState } from './session-core';

const TYPING_TICK_MS = 1000;

export class AccountSession implements SessionCore {
  readonly connection: ApiConnection;
  readonly state: StoreApi<SessionState>;
  readonly outbox: OutboxStore = createOutboxStore();
  readonly composeDrafts: ComposeDraftsStore;
  private readonly poller: EventPoller;
  readonly readBatcher: ReadBatcher = new ReadBatcher(this);
  /** stops watching the outbox for a waiting message (sendWhenWaiting) */
  private readonly stopSendWatch: () => void;
  /** keeps the account in the browser between visits, where there is a cache */
  private readonly keeper: OfflineKeeper | null;
  private readonly offlineCache: OfflineCache | null;
  private everConnected = false;
  private stopped = false;
  private ticker: ReturnType<typeof setInterval> | null = null;

  /** reading web-public channels without an account: no queue, nothing written */
  readonly spectator: boolean;
  /** a visitor's live stream, or the polling that stands in for it */
  private spectating: Spectating | null = null;
  private readonly visitorFeedApi: VisitorFeedApi | undefined;
  private readonly visitorFeedOptions: VisitorFeedOptions;

  constructor(
    readonly email: string,
    apiKey: string,
    readonly queryClient: QueryClient,
    readonly caches: ServerDataCaches,
    options: {
      baseUrl?: string;
      pollerApi?: PollerApi;
      storage?: Storage | null;
      spectator?: boolean;
      /** where the account is kept between visits (offline-cache.ts); none: nothing kept */
      offlineCache?: OfflineCache | null;
      /**
       * the account's name for sharing one event queue among its tabs (queue-sharing.ts);
       * none: this page polls a queue of its own
       */
      sharingKey?: string | null;
      visitorFeedApi?: VisitorFeedApi;
      visitorFeedOptions?: VisitorFeedOptions;
    } = {},
  ) {
    this.spectator = options.spectator ?? false;
    this.connection = new ApiConnection({
      baseUrl: options.baseUrl,
      credentials: this.spectator ? undefined : { email, apiKey },
    });
    this.visitorFeedApi = options.visitorFeedApi;
    this.visitorFeedOptions = options.visitorFeedOptions ?? {};
    this.state = createStore<SessionState>()(() => ({
      store: null,
      status: 'connecting',
      stopReason: null,
      restored: false,
    }));
    this.composeDrafts = createComposeDraftsStore(
      email,
      options.storage === undefined ? safeLocalStorage() : options.storage,
    );
    this.poller = new EventPoller(options.pollerApi ?? pollerApiFor(this.connection), {
      snapshotReceived: (register) => {
        this.snapshotReceived(register);
        this.sharing?.shareSnapshot();
      },
      eventsReceived: (events) => {
        this.eventsReceived(events);
        const queueId = this.state.getState().store?.getState().queueId;
        if (queueId) this.sharing?.shareEvents(queueId, events);
      },
    });
    this.poller.subscribe((pollerState) => this.pollerChanged(pollerState));
    this.stopSendWatch = sendWhenWaiting(this);
    this.offlineCache = this.spectator ? null : (options.offlineCache ?? null);
    this.keeper = this.offlineCache
      ? new OfflineKeeper(this.offlineCache, this.state, this.outbox, this.caches)
      : null;
    this.sharingKey =
      !this.spectator && options.sharingKey && queueSharingSupported() ? options.sharingKey : null;
  }

  /** shares one event queue with the account's other tabs, where the browser can */
  private sharing: QueueSharing | null = null;
  /** the account's name among its tabs, where the browser lets them share a queue */
  private readonly sharingKey: string | null;
  /** the id of the last event this page took in, from its queue or the leading tab's */
  private lastEventId = -1;

  /**
   * Whether this page is the one to notify the person of a new message: of all the account's
   * tabs, only the one that owns the queue, and only when none of them is in front.
   */
  shouldNotifyHere(): boolean {
    if (!this.sharing) return !(document.visibilityState === 'visible' && document.hasFocus());
    // (a page still loading the sharing code counts as alone)
    return this.sharing.isLeader && !this.sharing.anyInFront();
  }

  /**
   * Joins the account's other tabs (queue-sharing.ts, a chunk of its own: loaded from the
   * service worker's copy, it costs the start a few milliseconds, and the first view nothing).
   */
  private async startSharing(key: string) {
    try {
      const { QueueSharing } = await import('./queue-sharing');
      if (this.stopped) return;
      this.sharing = new QueueSharing(key, this.sharingHost());
      this.sharing.start();
    } catch {
      if (!this.stopped) void this.poller.start(); // no chunk (offline, first visit): alone
    }
  }

  private sharingHost(): SharingHost {
    return {
      becameLeader: () => {
        const { store, restored } = this.state.getState();
        const queueId = restored ? null : store?.getState().queueId;
        // Another tab's queue, taken over from the last event this page took in.
        void this.poller.start(
          queueId && this.lastEventId >= 0 ? { id: queueId, lastEventId: this.lastEventId } : null,
        );
      },
      snapshot: () => {
        const store = this.state.getState().store?.getState();
        if (!store?.queueId || this.state.getState().restored) return null;
        return { queueId: store.queueId, lastEventId: this.lastEventId, state: sharedState(store) };
      },
      snapshotShared: (snapshot) => {
        const { store, restored } = this.state.getState();
        const current = restored ? null : store?.getState().queueId;
        if (current === snapshot.queueId && this.lastEventId >= snapshot.lastEventId) return;
        this.lastEventId = snapshot.lastEventId;
        this.storeReplaced(accountStoreFrom(snapshot.state), current === snapshot.queueId);
      },
      eventsShared: (queueId, events) => {
        const store = this.state.getState().store?.getState();
        if (!store || this.state.getState().restored) return;
        if (store.queueId !== queueId) {
          this.sharing?.resync();
          return;
        }
        const fresh = events.filter((e) => e.id > this.lastEventId);
        if (fresh.length > 0) this.eventsReceived(fresh);
      },
      statusShared: (status, stopReason) => {
        if (this.poller.state.kind !== 'polling') this.state.setState({ status, stopReason });
      },
    };
  }

  readonly retrySend = (localId: string) => retrySend(this, localId);
  readonly cancelSend = (localId: string) => this.outbox.getState().sendCancelled(localId);

  start(): void {
    if (this.spectator) {
      void this.startSpectating();
      return;
    }
    if (this.sharingKey) void this.startSharing(this.sharingKey);
    else void this.poller.start();
    this.keeper?.start();
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', this.pageClosing);
    }
    this.ticker = setInterval(
      () => this.state.getState().store?.getState().clockTicked(Date.now()),
      TYPING_TICK_MS,
    );
  }

  /** A visitor's page: no event queue, the visitors' feed instead (spectating.ts). */
  private async startSpectating() {
    const { Spectating } = await import('./spectating');
    if (this.stopped) return;
    this.spectating = new Spectating({
      connection: this.connection,
      state: this.state,
      caches: this.caches,
      eventsReceived: (events) => this.eventsReceived(events),
      feedApi: this.visitorFeedApi,
      feedOptions: this.visitorFeedOptions,
    });
    await this.spectating.start();
  }

  /** Stops polling; with `deleteServerQueue`, also frees the queue on the server (log out). */
  stop(deleteServerQueue = false): void {
    this.stopped = true;
    this.spectating?.stop();
    const queueId = this.state.getState().store?.getState().queueId;
    this.poller.stop();
    this.sharing?.stop();
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', this.pageClosing);
    this.keeper?.stop();
    this.stopSendWatch();
    stopOutboxSender(this);
    this.readBatcher.dispose();
    if (this.ticker) clearInterval(this.ticker);
    if (deleteServerQueue && queueId)
      void deleteQueue(this.connection, { queue_id: queueId }).catch(() => {});
  }

  /**
   * Logging out: the server's queue is freed and everything this browser kept of the account
   * (state, message pages, waiting messages) is erased.
   */
  logOut(): Promise<void> {
    this.stop(true);
    return this.offlineCache?.erase() ?? Promise.resolve();
  }

  /** Writes what is kept of the account now (tests; pages going away do it by themselves). */
  keepNow(): void {
    this.keeper?.saveNow();
  }

  /**
   * The last tab of the account to close frees its queue on the server; with others open, the
   * queue is theirs (one of them takes it over).
   */
  private readonly pageClosing = (event: PageTransitionEvent) => {
    if (event.persisted) return; // kept in the back-forward cache: it may come back
    const queueId = this.state.getState().store?.getState().queueId;
    if (!queueId || this.state.getState().restored) return;
    if (this.sharing && (!this.sharing.isLeader || this.sharing.hasOthers)) return;
    void deleteQueue(this.connection, { queue_id: queueId }, { keepalive: true }).catch(() => {});
  };

  private snapshotReceived(register: RegisterResponse) {
    this.lastEventId = register.last_event_id;
    this.storeReplaced(createAccountStore(register), false);
  }

  /** A new store for a new queue (or the same queue, caught up: `sameQueue`). */
  private storeReplaced(store: AccountStore, sameQueue: boolean) {
    const previous = this.state.getState();
    const isReplacement = previous.store !== null;
    this.state.setState({ store, restored: false });
    if (isReplacement && !sameQueue) {
      // Events were missed while the queue was gone (or since the kept state was written):
      // history must come from the server again, behind the kept pages if those are shown.
      this.outbox.getState().queueReplaced();
      this.caches.queueReplaced(previous.restored);
    }
  }

  private eventsReceived(events: ParsedEvent[]) {
    const store = this.state.getState().store;
    if (!store) return;
    for (const event of events) if (event.id > this.lastEventId) this.lastEventId = event.id;
    store.getState().eventsReceived(events);
    this.caches.eventsReceived(events, store.getState().ownUserId);
    const echoed = events.flatMap((e) =>
      e.type === 'message' && e.local_id !== undefined ? [e.local_id] : [],
    );
    if (echoed.length > 0) this.outbox.getState().echoesArrived(echoed);
    for (const listener of this.eventListeners) listener(events);
  }

  private readonly eventListeners = new Set<(events: ParsedEvent[]) => void>();

  /** Calls `listener` with each batch of events after the state has taken them in. */
  onEvents(listener: (events: ParsedEvent[]) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private pollerChanged(pollerState: PollerState) {
    if (pollerState.kind === 'polling') this.everConnected = true;
    const status = connectionStatus(pollerState, this.everConnected);
    const stopReason = pollerState.kind === 'stopped' ? pollerState.reason : null;
    this.state.setState({ status, stopReason });
    // A page that leaves says nothing of the connection to the tabs that stay.
    if (stopReason !== 'requested') this.sharing?.shareStatus(status, stopReason);
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
