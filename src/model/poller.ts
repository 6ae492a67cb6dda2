/**
 * The event-queue poller: registers a queue, long-polls it, and hands each batch of events to its
 * owner. A plain class with explicit states and no React:
 *
 *   registering → polling ⇄ backing-off → … ; any state → stopped
 *
 * Transient failures back off exponentially with jitter. A lost queue (BAD_EVENT_QUEUE_ID) or an
 * owner that fails to apply events means the state can no longer be trusted: register again and
 * let the owner rebuild from the new snapshot. Credentials that stop working stop the poller.
 */
import { ApiConnection } from '../api/connection';
import {
  ApiRequestError,
  authFailureCode,
  retryAfterSeconds,
  type ApiFailure,
  type AuthFailureCode,
} from '../api/errors';
import type { RegisterResponse } from '../api/model';
import { parseEvent, type ParsedEvent } from '../api/parse-event';
import { getEvents, registerQueue } from '../api/routes/real-time-events';

export type PollerState =
  | { kind: 'registering'; afterLoss: boolean }
  | { kind: 'polling'; queueId: string }
  | { kind: 'backing-off'; attempt: number; retryAt: number; failure: ApiFailure }
  | { kind: 'stopped'; reason: 'requested' | AuthFailureCode | 'no-queue' };

/** The two requests the poller makes; a seam for tests. */
export interface PollerApi {
  register(signal: AbortSignal): Promise<RegisterResponse>;
  /** `dontBlock`: answered at once, with no events if there are none */
  getEvents(
    queueId: string,
    lastEventId: number,
    signal: AbortSignal,
    dontBlock?: boolean,
  ): Promise<unknown[]>;
}

export interface PollerOwner {
  /** a fresh snapshot: build a new store from it (called after every successful register) */
  snapshotReceived(register: RegisterResponse): void;
  /** events in order; throwing makes the poller discard the queue and register again */
  eventsReceived(events: ParsedEvent[]): void;
}

export interface PollerOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  now?: () => number;
}

export const REGISTER_OPTIONS = {
  apply_markdown: true,
  client_gravatar: false,
  // Subscription events always carry subscriber lists; asking for them at register keeps the
  // snapshot and the events in one shape (and lets screens show who is in a stream).
  include_subscribers: true,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
  },
};

export function pollerApiFor(connection: ApiConnection): PollerApi {
  return {
    register: (signal) => registerQueue(connection, REGISTER_OPTIONS, { signal }),
    getEvents: async (queueId, lastEventId, signal, dontBlock) =>
      (
        await getEvents(
          connection,
          { queue_id: queueId, last_event_id: lastEventId, ...(dontBlock && { dont_block: true }) },
          { signal },
        )
      ).events,
  };
}

class ApplyFailed extends Error {}

export class EventPoller {
  private currentState: PollerState = { kind: 'registering', afterLoss: false };
  private readonly listeners = new Set<(state: PollerState) => void>();
  private abort = new AbortController();
  private attempt = 0;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(
    private readonly api: PollerApi,
    private readonly owner: PollerOwner,
    options: PollerOptions = {},
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  get state(): PollerState {
    return this.currentState;
  }

  subscribe(listener: (state: PollerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs until stopped; resolves when the poller stops. With `resume`, polls that queue (another
   * tab's, taken over) from that event on, and registers only if the server has dropped it.
   */
  async start(resume: { id: string; lastEventId: number } | null = null): Promise<void> {
    let queue: { id: string; lastEventId: number } | null = resume && { ...resume };
    while (!this.isStopped()) {
      try {
        if (queue === null) queue = await this.register();
        else queue.lastEventId = await this.poll(queue.id, queue.lastEventId);
        this.attempt = 0;
      } catch (error) {
        if (this.isStopped()) break;
        const lost =
          error instanceof ApplyFailed ||
          (error instanceof ApiRequestError && error.code === 'BAD_EVENT_QUEUE_ID');
        if (lost) {
          queue = null;
          this.setState({ kind: 'registering', afterLoss: true });
          continue;
        }
        const authCode = authFailureCode(error);
        if (authCode) {
          this.setState({ kind: 'stopped', reason: authCode });
          break;
        }
        await this.backOff(error);
        if (queue === null && !this.isStopped())
          this.setState({ kind: 'registering', afterLoss: true });
      }
    }
  }

  private isStopped(): boolean {
    return this.currentState.kind === 'stopped';
  }

  /** Stops polling and aborts the request in flight. */
  stop(): void {
    this.setState({ kind: 'stopped', reason: 'requested' });
    this.abort.abort();
  }

  private async register() {
    const register = await this.api.register(this.abort.signal);
    if (register.queue_id === null) {
      this.setState({ kind: 'stopped', reason: 'no-queue' });
      throw new Error('the server gave no event queue');
    }
    this.owner.snapshotReceived(register);
    this.setState({ kind: 'polling', queueId: register.queue_id });
    return { id: register.queue_id, lastEventId: register.last_event_id };
  }

  private async poll(queueId: string, lastEventId: number): Promise<number> {
    // Not known to be connected (after a failure, or a queue taken over): this fetch is answered
    // at once, so that the connection shows as back (and waiting messages leave) now, rather
    // than when the next event or heartbeat ends a long-poll that may wait a minute.
    const dontBlock = this.currentState.kind !== 'polling';
    const raw = await this.api.getEvents(queueId, lastEventId, this.abort.signal, dontBlock);
    if (this.isStopped()) return lastEventId;
    // Only a successful fetch proves we are connected again.
    if (this.currentState.kind !== 'polling') this.setState({ kind: 'polling', queueId });
    const events = raw.map(parseEvent);
    const newLast = events.reduce((max, event) => Math.max(max, event.id), lastEventId);
    try {
      if (events.length > 0) this.owner.eventsReceived(events);
    } catch (error) {
      console.error('Applying events failed; registering a new queue.', error);
      throw new ApplyFailed(String(error));
    }
    return newLast;
  }

  private async backOff(error: unknown) {
    this.attempt += 1;
    const failure: ApiFailure =
      error instanceof ApiRequestError
        ? error.failure
        : { kind: 'network', message: error instanceof Error ? error.message : String(error) };
    const exponential = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (this.attempt - 1));
    // Full jitter in the upper half: spread reconnecting clients without waiting too little.
    let delay = exponential * (0.5 + this.random() / 2);
    const retryAfter = retryAfterSeconds(failure);
    if (retryAfter !== null) delay = Math.max(delay, retryAfter * 1000);
    this.setState({
      kind: 'backing-off',
      attempt: this.attempt,
      retryAt: this.now() + delay,
      failure,
    });
    await this.sleep(delay);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private setState(state: PollerState) {
    if (this.currentState.kind === 'stopped') return;
    this.currentState = state;
    for (const listener of this.listeners) listener(state);
  }
}

/** What the "Reconnecting…" banner shows. */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

export function connectionStatus(state: PollerState, everConnected: boolean): ConnectionStatus {
  switch (state.kind) {
    case 'registering':
      return everConnected || state.afterLoss ? 'reconnecting' : 'connecting';
    case 'polling':
      return 'connected';
    case 'backing-off':
      return everConnected ? 'reconnecting' : 'connecting';
    case 'stopped':
      return 'stopped';
  }
}
