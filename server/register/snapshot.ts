import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { ClientCapabilities } from '../events/queue.js';
import { firstMessageIds, realmStreams } from '../lib/streams.js';

/** What the client asked /register for. */
export interface StateOptions {
  fetchTypes: Set<string> | null;
  capabilities: ClientCapabilities;
  includeSubscribers: boolean;
  slimPresence: boolean;
  clientGravatar: boolean;
}

/** Part of the snapshot: the keys one or more fetch types add to it. */
export type Snapshot = Record<string, unknown>;

/** What every section of the snapshot is built from. */
export interface SnapshotInput {
  ctx: AppContext;
  realm: Realm;
  user: User;
  opts: StateOptions;
  reads: SnapshotReads;
}

/** One section of the snapshot (initial-state.ts lists them). */
export type Section = (input: SnapshotInput) => Snapshot | Promise<Snapshot>;

/**
 * What several sections of the snapshot read, read once: the organization's channels and the
 * first message of each (streams, default streams and never-subscribed channels show both).
 */
export class SnapshotReads {
  private streams?: Promise<Stream[]>;
  private firsts?: Promise<Map<number, number>>;

  constructor(
    private readonly db: Database,
    private readonly realmId: number,
  ) {}

  realmStreams(): Promise<Stream[]> {
    return (this.streams ??= realmStreams(this.db, this.realmId));
  }

  /** every channel's first message id, for channels that have one (one index seek each) */
  firstMessageIds(): Promise<Map<number, number>> {
    return (this.firsts ??= this.realmStreams().then((streams) =>
      firstMessageIds(
        this.db,
        streams.map((s) => s.id),
      ),
    ));
  }
}
