/**
 * A visitor's session (reading web-public channels without an account): one register for the
 * organization and its web-public channels, then the visitors' stream where the server offers
 * one, or polling (VisitorFeed). Loaded as a chunk of its own: only visitors' pages run it.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { ApiConnection } from '../api/connection';
import { authFailureCode } from '../api/errors';
import type { ParsedEvent } from '../api/parse-event';
import { registerQueue } from '../api/routes/real-time-events';
import { createAccountStore } from './account-store';
import type { ServerDataCaches, SessionState } from './session-core';
import {
  closesToVisitors,
  opensChannel,
  spectatorSnapshot,
  visitorMayApply,
  webPublicChannelIds,
} from './spectator';
import {
  VisitorFeed,
  visitorFeedApiFor,
  type VisitorFeedApi,
  type VisitorFeedOptions,
} from './visitor-feed';

/** What a spectator may ask for: no subscriber lists, no gravatar shortcut (both refused). */
const SPECTATOR_REGISTER_OPTIONS = { apply_markdown: true, client_gravatar: false };

/** What the visitor's session lends its spectating. */
export interface SpectatorHost {
  connection: ApiConnection;
  state: StoreApi<SessionState>;
  caches: ServerDataCaches;
  /** applies events to the store and the caches, as an account's queue does */
  eventsReceived(events: ParsedEvent[]): void;
  feedApi?: VisitorFeedApi;
  feedOptions: VisitorFeedOptions;
}

export class Spectating {
  private feed: VisitorFeed | null = null;
  private stopped = false;

  constructor(private readonly host: SpectatorHost) {}

  async start() {
    const { connection, state } = this.host;
    for (let attempt = 0; ; attempt++) {
      try {
        const register = await registerQueue(connection, SPECTATOR_REGISTER_OPTIONS);
        if (this.stopped) return;
        state.setState({
          store: createAccountStore(spectatorSnapshot(register)),
          status: 'connected',
        });
        break;
      } catch (error) {
        if (authFailureCode(error) || attempt >= 5) {
          state.setState({ stopReason: 'no-queue' });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt));
      }
    }
    if (this.stopped) return;
    this.feed = new VisitorFeed(
      this.host.feedApi ?? visitorFeedApiFor(connection),
      {
        eventsReceived: (events) => this.eventsReceived(events),
        refresh: () => this.host.caches.refreshMessages(),
        refused: () => this.refused(),
      },
      this.host.feedOptions,
    );
    void this.feed.start();
  }

  stop() {
    this.stopped = true;
    this.feed?.stop();
  }

  /**
   * Events from the visitors' stream, past the guard: only what names a channel the snapshot
   * lists as web-public is applied. A channel newly open to visitors brings a new snapshot.
   */
  private eventsReceived(events: ParsedEvent[]) {
    const store = this.host.state.getState().store;
    if (!store) return;
    if (events.some(closesToVisitors)) {
      this.refused();
      return;
    }
    const webPublic = webPublicChannelIds(store.getState().subscriptions);
    const applied = events.filter((event) => visitorMayApply(event, webPublic));
    if (applied.length) this.host.eventsReceived(applied);
    if (events.some((event) => opensChannel(event, webPublic))) void this.snapshotAgain();
  }

  /** A new snapshot for a visitor, as a new queue gives one to an account. */
  private async snapshotAgain() {
    try {
      const register = await registerQueue(this.host.connection, SPECTATOR_REGISTER_OPTIONS);
      if (this.stopped) return;
      this.host.state.setState({ store: createAccountStore(spectatorSnapshot(register)) });
      this.host.caches.queueReplaced();
    } catch {
      // The channel shows after the next successful snapshot (a reload).
    }
  }

  /** The organization closed its web-public channels to visitors. */
  private refused() {
    this.feed?.stop();
    this.host.state.setState({ store: null, stopReason: 'no-queue' });
  }
}
