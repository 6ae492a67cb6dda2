/**
 * How a visitor (no account, no event queue) keeps up with the web-public channels. A plain
 * class with explicit states and no React:
 *
 *   starting → streaming ⇄ polling → … ; any state → stopped
 *
 * Where the server announces the `web_public_events` extension, its stream brings every change
 * as it happens. Elsewhere (any other Zulip server), or while the stream is down, the open
 * conversations are fetched again every 10 s while the page is visible (30 s while it is not),
 * and a failed stream is tried again with back-off and jitter. Each time a stream opens the
 * conversations are fetched once more, for what happened while there was none.
 */
import type { ApiConnection } from '../api/connection';
import { ApiRequestError } from '../api/errors';
import {
  followWebPublicEvents,
  WEB_PUBLIC_EVENTS,
  type WebPublicEventHandlers,
} from '../api/extensions/web-public-events';
import { parseEvent, type ParsedEvent } from '../api/parse-event';
import { getServerSettings } from '../api/routes/server-and-organizations';

export type VisitorFeedState =
  | { kind: 'starting' }
  | { kind: 'streaming' }
  /** `retryAt`: when the stream is tried again; null when there is none to try */
  | { kind: 'polling'; retryAt: number | null }
  | { kind: 'stopped' };

/** What the feed asks of the server; a seam for tests. */
export interface VisitorFeedApi {
  /** the Parley extensions the server announces (none from other servers) */
  extensions(): Promise<readonly string[]>;
  /** follows the stream: resolves when the server ends it, rejects when it fails */
  follow(handlers: WebPublicEventHandlers, signal: AbortSignal): Promise<void>;
}

export interface VisitorFeedOwner {
  /** events from the stream, parsed, in order */
  eventsReceived(events: ParsedEvent[]): void;
  /** fetch what the visitor reads again */
  refresh(): void;
  /** the server refuses visitors now (spectator access was turned off) */
  refused(): void;
}

/** Whether the page is seen, and when that changes; a seam for tests. */
export interface PageVisibility {
  visible(): boolean;
  onChange(listener: () => void): () => void;
}

export interface VisitorFeedOptions {
  pollVisibleMs?: number;
  pollHiddenMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** a stream silent this long (heartbeats come every 25 s) is taken for broken */
  silenceMs?: number;
  /** a stream that ends sooner than this after opening counts as a failure for the back-off */
  steadyMs?: number;
  random?: () => number;
  visibility?: PageVisibility;
}

export function visitorFeedApiFor(connection: ApiConnection): VisitorFeedApi {
  return {
    extensions: async () => (await getServerSettings(connection)).parley_extensions ?? [],
    follow: (handlers, signal) => followWebPublicEvents(connection, handlers, signal),
  };
}

export function documentVisibility(): PageVisibility {
  const doc = typeof document === 'undefined' ? null : document;
  return {
    visible: () => !doc || doc.visibilityState !== 'hidden',
    onChange(listener) {
      doc?.addEventListener('visibilitychange', listener);
      return () => doc?.removeEventListener('visibilitychange', listener);
    },
  };
}

export class VisitorFeed {
  private currentState: VisitorFeedState = { kind: 'starting' };
  private readonly listeners = new Set<(state: VisitorFeedState) => void>();
  private readonly opts: Required<Omit<VisitorFeedOptions, 'visibility'>>;
  private readonly visibility: PageVisibility;
  private stopVisibility = () => {};
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private stream: AbortController | null = null;
  private lastRefresh = 0;
  private failures = 0;
  /** false once the server has said it has no stream to offer */
  private streamOffered = true;

  constructor(
    private readonly api: VisitorFeedApi,
    private readonly owner: VisitorFeedOwner,
    options: VisitorFeedOptions = {},
  ) {
    this.opts = {
      pollVisibleMs: options.pollVisibleMs ?? 10_000,
      pollHiddenMs: options.pollHiddenMs ?? 30_000,
      baseDelayMs: options.baseDelayMs ?? 2_000,
      maxDelayMs: options.maxDelayMs ?? 120_000,
      silenceMs: options.silenceMs ?? 75_000,
      steadyMs: options.steadyMs ?? 30_000,
      random: options.random ?? Math.random,
    };
    this.visibility = options.visibility ?? documentVisibility();
  }

  get state(): VisitorFeedState {
    return this.currentState;
  }

  subscribe(listener: (state: VisitorFeedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    this.lastRefresh = Date.now();
    this.stopVisibility = this.visibility.onChange(() => this.visibilityChanged());
    let extensions: readonly string[] = [];
    try {
      extensions = await this.api.extensions();
    } catch {
      // Not knowing is not offering: the conversations are polled.
    }
    if (this.stopped) return;
    this.streamOffered = extensions.includes(WEB_PUBLIC_EVENTS);
    if (this.streamOffered) this.openStream();
    else this.poll(null);
  }

  stop(): void {
    this.setState({ kind: 'stopped' });
    this.stopVisibility();
    this.stopPolling();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.closeStream();
  }

  private get stopped() {
    return this.currentState.kind === 'stopped';
  }

  private setState(state: VisitorFeedState) {
    if (this.stopped) return;
    this.currentState = state;
    for (const listener of this.listeners) listener(state);
  }

  private openStream() {
    this.retryTimer = null;
    const abort = new AbortController();
    this.stream = abort;
    let openedAt: number | null = null;
    const handlers: WebPublicEventHandlers = {
      opened: () => {
        if (this.stream !== abort) return;
        openedAt = Date.now();
        this.stopPolling();
        this.setState({ kind: 'streaming' });
        this.heard(abort);
        this.refresh();
      },
      batch: (raw) => {
        if (this.stream !== abort) return;
        this.heard(abort);
        this.owner.eventsReceived(raw.map(parseEvent));
      },
    };
    this.api.follow(handlers, abort.signal).then(
      () => this.streamEnded(abort, openedAt, null),
      (error: unknown) => this.streamEnded(abort, openedAt, error),
    );
  }

  /** The stream spoke: it is alive for another `silenceMs`. */
  private heard(abort: AbortController) {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.stream === abort) abort.abort();
    }, this.opts.silenceMs);
  }

  private closeStream() {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.stream?.abort();
    this.stream = null;
  }

  private streamEnded(abort: AbortController, openedAt: number | null, error: unknown) {
    if (this.stopped) return;
    // The watchdog's own abort comes here too, as the stream's end.
    if (this.stream !== abort) return;
    this.closeStream();
    if (error instanceof ApiRequestError && error.failure.kind === 'api') {
      if (error.failure.status === 401) {
        this.stop();
        this.owner.refused();
        return;
      }
      // The server no longer offers it (switched off since): the conversations are polled.
      if (error.failure.code === 'NOT_FOUND') this.streamOffered = false;
    }
    // Up to date until now: polling takes over from here, and a new stream fetches at once.
    if (openedAt !== null) this.lastRefresh = Date.now();
    const steady = openedAt !== null && Date.now() - openedAt >= this.opts.steadyMs;
    this.failures = steady ? 1 : this.failures + 1;
    if (!this.streamOffered) {
      this.poll(null);
      return;
    }
    const delay = this.backoff(this.failures);
    this.poll(Date.now() + delay);
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.openStream();
    }, delay);
  }

  private backoff(failures: number): number {
    const exponential = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (failures - 1));
    // Full jitter in the upper half: visitors a restart dropped do not all come back at once.
    return exponential * (0.5 + this.opts.random() / 2);
  }

  /** Polls from now on (at once when the last fetch is older than the period). */
  private poll(retryAt: number | null) {
    this.setState({ kind: 'polling', retryAt });
    this.schedulePoll();
  }

  private schedulePoll() {
    this.stopPolling();
    const period = this.visibility.visible() ? this.opts.pollVisibleMs : this.opts.pollHiddenMs;
    const wait = Math.max(0, this.lastRefresh + period - Date.now());
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      if (this.currentState.kind !== 'polling') return;
      this.refresh();
      this.schedulePoll();
    }, wait);
  }

  private stopPolling() {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private visibilityChanged() {
    if (this.currentState.kind === 'polling') this.schedulePoll();
  }

  private refresh() {
    this.lastRefresh = Date.now();
    this.owner.refresh();
  }
}
