/**
 * One event queue for all tabs of an account in one browser. The tabs elect a leader through a
 * Web Lock: the tab holding it owns the queue (registers, long-polls) and passes what it gets to
 * the others over a BroadcastChannel; the others make their other requests as usual. When the
 * leader goes (closed, crashed: the browser frees its lock either way), the next tab waiting
 * for the lock takes over the same queue from the last event it applied, and registers a new one
 * only if the server has dropped it.
 *
 * Messages on the channel, all structured-cloned:
 *  - hello / here: a tab arrived, and the answer of each tab already there; bye: a tab left;
 *  - snapshot: the leader's state with its queue and last event id, to one tab that said hello
 *    or to all after a new queue;
 *  - events: a batch the leader took in, for its queue;
 *  - status: the leader's connection, which every tab shows;
 *  - front: whether a tab is in front, so that a notification shows only when none is.
 *
 * Browsers without Web Locks or BroadcastChannel keep one queue per tab (`supported`).
 */
import type { ParsedEvent } from '../api/parse-event';
import type { AccountState } from './account-state';
import type { SessionState } from './session-core';
import { queueSharingSupported, THIS_TAB } from './this-tab';

export interface SharedSnapshot {
  queueId: string;
  lastEventId: number;
  state: AccountState;
}

type TabMessage =
  | { kind: 'hello' | 'here' | 'bye'; from: string }
  | ({ kind: 'snapshot'; to: string | null } & SharedSnapshot)
  | { kind: 'events'; queueId: string; events: ParsedEvent[] }
  | { kind: 'status'; status: SessionState['status']; stopReason: SessionState['stopReason'] }
  | { kind: 'front'; from: string; front: boolean };

/** What the sharing needs of the session it serves. */
export interface SharingHost {
  /** this tab now owns the queue: poll it (from `resume` where there is one) */
  becameLeader(): void;
  /** the state to hand a tab, once there is a queue */
  snapshot(): SharedSnapshot | null;
  snapshotShared(snapshot: SharedSnapshot): void;
  eventsShared(queueId: string, events: ParsedEvent[]): void;
  statusShared(status: SessionState['status'], stopReason: SessionState['stopReason']): void;
}

const inFront = () =>
  typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus();

export class QueueSharing {
  private readonly channel: BroadcastChannel;
  private leader = false;
  private stopped = false;
  private releaseLock: (() => void) | null = null;
  /** the other tabs of the account, as they said hello or answered one */
  private readonly others = new Set<string>();
  private readonly othersInFront = new Set<string>();
  private readonly cleanups: (() => void)[] = [];

  static supported(): boolean {
    return queueSharingSupported();
  }

  constructor(
    private readonly key: string,
    private readonly host: SharingHost,
    private readonly tab: string = THIS_TAB,
  ) {
    this.channel = new BroadcastChannel(`parley-queue:${key}`);
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Whether another tab of the account is open, as far as this one knows. */
  get hasOthers(): boolean {
    return this.others.size > 0;
  }

  /** Whether this tab or another of the account is in front of the person. */
  anyInFront(): boolean {
    return inFront() || this.othersInFront.size > 0;
  }

  start(): void {
    this.channel.onmessage = (event: MessageEvent<TabMessage>) => this.received(event.data);
    this.post({ kind: 'hello', from: this.tab });
    this.watchFront();
    void navigator.locks
      .request(`parley-queue:${this.key}`, () => {
        if (this.stopped) return undefined;
        this.leader = true;
        this.host.becameLeader();
        return new Promise<void>((release) => (this.releaseLock = release));
      })
      .catch(() => {
        // no lock to be had (an opaque origin): this tab polls for itself
        if (!this.stopped && !this.leader) {
          this.leader = true;
          this.host.becameLeader();
        }
      });
  }

  /** Leaves: another tab takes the queue over. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.post({ kind: 'bye', from: this.tab });
    this.releaseLock?.();
    for (const cleanup of this.cleanups) cleanup();
    this.channel.close();
  }

  /** Leader: the state, to one tab or (after a new queue) to all. */
  shareSnapshot(to: string | null = null): void {
    if (!this.leader) return;
    const snapshot = this.host.snapshot();
    if (snapshot) this.post({ kind: 'snapshot', to, ...snapshot });
  }

  shareEvents(queueId: string, events: ParsedEvent[]): void {
    if (this.leader) this.post({ kind: 'events', queueId, events });
  }

  shareStatus(status: SessionState['status'], stopReason: SessionState['stopReason']): void {
    if (this.leader) this.post({ kind: 'status', status, stopReason });
  }

  private received(message: TabMessage) {
    switch (message.kind) {
      case 'hello':
        this.others.add(message.from);
        this.post({ kind: 'here', from: this.tab });
        this.post({ kind: 'front', from: this.tab, front: inFront() });
        if (this.leader) this.shareSnapshot(message.from);
        return;
      case 'here':
        this.others.add(message.from);
        return;
      case 'bye':
        this.others.delete(message.from);
        this.othersInFront.delete(message.from);
        return;
      case 'front':
        if (message.front) this.othersInFront.add(message.from);
        else this.othersInFront.delete(message.from);
        return;
      case 'snapshot':
        if (!this.leader && (message.to === null || message.to === this.tab))
          this.host.snapshotShared(message);
        return;
      case 'events':
        if (!this.leader) this.host.eventsShared(message.queueId, message.events);
        return;
      case 'status':
        if (!this.leader) this.host.statusShared(message.status, message.stopReason);
        return;
    }
  }

  /** Asks the leader for its state again (this tab missed something). */
  resync(): void {
    this.post({ kind: 'hello', from: this.tab });
  }

  private watchFront() {
    if (typeof window === 'undefined') return;
    let last: boolean | null = null;
    const report = () => {
      const front = inFront();
      if (front === last) return;
      last = front;
      this.post({ kind: 'front', from: this.tab, front });
    };
    window.addEventListener('focus', report);
    window.addEventListener('blur', report);
    document.addEventListener('visibilitychange', report);
    this.cleanups.push(() => {
      window.removeEventListener('focus', report);
      window.removeEventListener('blur', report);
      document.removeEventListener('visibilitychange', report);
    });
    report();
  }

  private post(message: TabMessage) {
    if (this.stopped && message.kind !== 'bye') return;
    try {
      this.channel.postMessage(message);
    } catch (error) {
      console.warn('Could not share with the other tabs:', error);
    }
  }
}
