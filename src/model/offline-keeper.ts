/**
 * Keeps a session's state in the browser (offline-cache.ts) and brings it back at the next visit:
 *
 *  - at start, the kept state and message pages are shown at once, while the event queue is
 *    still being registered (or cannot be, without the server); the first snapshot then replaces
 *    them, and the pages are fetched again behind what is on screen (AccountSession);
 *  - while connected, the state and pages are written a few seconds after they change, and at
 *    once when the page is hidden or closed;
 *  - waiting messages are written as they change, and taken back at start. Each is marked with
 *    the tab that owns it; a tab takes over only the messages of tabs that are gone (each holds
 *    a Web Lock named after itself while it lives), so two open tabs never send one message.
 */
import type { StoreApi } from 'zustand/vanilla';
import { accountStoreFrom, keptState } from './account-store';
import type { OfflineCache, StoredOutboxMessage } from './offline-cache';
import type { OutboxMessage, OutboxStore } from './outbox';
import type { ServerDataCaches, SessionState } from './session-core';
import { THIS_TAB as TAB } from './this-tab';

const SAVE_DELAY_MS = 3000;
const TAB_LOCK_PREFIX = 'parley-tab:';

/** This page's lock, held for its lifetime, so that other tabs can tell it is alive. */
let tabLock: Promise<void> | null = null;
function holdTabLock(): Promise<void> {
  tabLock ??= new Promise<void>((acquired) => {
    void navigator.locks
      .request(TAB_LOCK_PREFIX + TAB, () => {
        acquired();
        return new Promise<void>(() => {}); // held until the page goes
      })
      .catch(() => acquired());
  });
  return tabLock;
}

const webLocks = () => typeof navigator !== 'undefined' && 'locks' in navigator;

export class OfflineKeeper {
  private stopped = false;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly cleanups: (() => void)[] = [];
  /** the outbox as last written, to write only what changed */
  private written = new Map<string, OutboxMessage>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly cache: OfflineCache,
    private readonly state: StoreApi<SessionState>,
    private readonly outbox: OutboxStore,
    private readonly caches: ServerDataCaches,
  ) {}

  start(): void {
    void this.restore();
    void this.restoreOutbox();
    this.watch();
  }

  stop(): void {
    this.stopped = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    for (const cleanup of this.cleanups) cleanup();
  }

  /**
   * The kept state, if the server has not answered first. The kept pages either way: where the
   * server's snapshot came first, they fill the conversations not fetched yet, and are fetched
   * again behind them at once (events since they were kept were not applied to them).
   */
  private async restore() {
    const [kept, pages] = await Promise.all([this.cache.loadState(), this.cache.loadQueries()]);
    if (this.stopped) return;
    const serverFirst = this.state.getState().store !== null;
    if (pages) this.caches.restore(pages, serverFirst);
    if (kept && !serverFirst)
      this.state.setState({ store: accountStoreFrom(kept), restored: true });
  }

  /** Takes over the waiting messages of this account that no open tab owns. */
  private async restoreOutbox() {
    const claim = async () => {
      const kept = await this.cache.loadOutbox();
      if (kept.length === 0) return;
      const alive = webLocks()
        ? new Set(
            ((await navigator.locks.query()).held ?? []).flatMap((lock) =>
              lock.name?.startsWith(TAB_LOCK_PREFIX)
                ? [lock.name.slice(TAB_LOCK_PREFIX.length)]
                : [],
            ),
          )
        : new Set<string>();
      const orphaned = kept.filter((m) => m.tab === TAB || !alive.has(m.tab));
      if (orphaned.length === 0 || this.stopped) return;
      const taken = orphaned.map(({ tab, ...message }): OutboxMessage => {
        void tab;
        // A request that was out when the page went may have reached the server.
        return message.status === 'sending'
          ? { ...message, status: 'waiting', mayHaveArrived: true }
          : message;
      });
      // Written as this tab's inside the claim, before another tab can look.
      for (const message of taken) await this.cache.putOutbox({ ...message, tab: TAB });
      this.outbox.getState().restored(taken.filter((m) => m.status !== 'sent'));
    };
    if (webLocks()) {
      await holdTabLock();
      await navigator.locks.request('parley-outbox-claim', claim).catch(() => {});
    } else await claim();
  }

  private watch() {
    let unwatchStore: (() => void) | null = null;
    const watchStore = (state: SessionState) => {
      unwatchStore?.();
      unwatchStore = state.store?.subscribe(() => this.scheduleSave()) ?? null;
    };
    watchStore(this.state.getState());
    this.cleanups.push(
      this.state.subscribe((state, previous) => {
        if (state.store !== previous.store) watchStore(state);
        this.scheduleSave();
      }),
      () => unwatchStore?.(),
      this.caches.subscribe(() => this.scheduleSave()),
      this.outbox.subscribe((state) => void this.writeOutbox(state.messages)),
    );
    if (typeof window !== 'undefined') {
      const flush = () => this.saveNow();
      const hidden = () => {
        if (document.visibilityState === 'hidden') flush();
      };
      window.addEventListener('pagehide', flush);
      document.addEventListener('visibilitychange', hidden);
      this.cleanups.push(() => {
        window.removeEventListener('pagehide', flush);
        document.removeEventListener('visibilitychange', hidden);
      });
    }
  }

  private scheduleSave() {
    if (this.saveTimer || this.stopped) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.saveNow();
    }, SAVE_DELAY_MS);
  }

  /** Writes the state and pages, when they are the server's (not the kept ones shown before). */
  saveNow(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const { store, status, restored } = this.state.getState();
    if (this.stopped || !store || restored || status !== 'connected') return;
    void this.cache.saveState(keptState(store.getState()));
    void this.cache.saveQueries(this.caches.keep());
  }

  /**
   * The waiting messages as they are now: new and changed ones written, gone ones dropped. The
   * writes of one change follow those of the change before, never overtake them.
   */
  private writeOutbox(messages: readonly OutboxMessage[]) {
    if (this.stopped) return this.writing;
    const now = new Map(
      messages.filter((m) => m.status !== 'sent').map((m) => [m.localId, m] as const),
    );
    const gone = [...this.written.keys()].filter((id) => !now.has(id));
    const changed = [...now.values()].filter((m) => this.written.get(m.localId) !== m);
    this.written = now;
    this.writing = this.writing.then(async () => {
      if (gone.length > 0) await this.cache.deleteOutbox(gone);
      for (const message of changed) {
        const kept: StoredOutboxMessage = { ...message, tab: TAB };
        await this.cache.putOutbox(kept);
      }
    });
    return this.writing;
  }

  /** Resolves once every write of the outbox so far is done (tests). */
  outboxWritten(): Promise<void> {
    return this.writing;
  }
}
