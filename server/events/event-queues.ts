import type { RawJson } from '../domain/raw-json.js';
import type { QueueOptions, VerifiedCredentials } from './queue.js';
import type { Bus, ClientGone } from './types.js';

/** What a fetch or a deletion found: the queue is someone else's, or there is none. */
export type QueueRefusal = 'missing' | 'not-yours';

/**
 * The event queues as the routes use them, wherever they live: in this process's memory
 * (QueueManager, the default), or in Redis where several processes share them (RedisQueues,
 * when REDIS_URL is set), so that any process answers any queue's requests.
 */
export interface EventQueues {
  /** where actions publish events; each implementation delivers them to its queues */
  readonly bus: Bus;
  /** names this process inside the ids of the queues it creates */
  readonly processTag: string;
  /** A new queue: its id, and the id of the event before its first. */
  create(opts: QueueOptions): Promise<{ id: string; lastEventId: number }>;
  /**
   * The user's queue's events after `lastEventId` (the ones up to it are dropped), at once when
   * there are some or `waitMs` is 0; else the first that arrive, or a heartbeat after `waitMs`.
   */
  fetch(
    queueId: string,
    userId: number,
    lastEventId: number | undefined,
    waitMs: number,
    gone: ClientGone,
  ): Promise<RawJson | QueueRefusal>;
  /** Deletes the user's queue. */
  remove(queueId: string, userId: number): Promise<QueueRefusal | null>;
  /** The person a long-poll names when this process verified these headers for the queue. */
  authenticateByQueue(
    queueId: string,
    authorization: string,
    host: string,
  ): Pick<VerifiedCredentials, 'realm' | 'user'> | null;
  rememberCredentials(
    queueId: string,
    credentials: VerifiedCredentials,
    revocationsBefore: number,
  ): void;
  readonly revocationCount: number;
  /** queues known (all of them in memory; in Redis, as last counted) */
  readonly size: number;
  /** long-polls waiting in this process */
  readonly parkedPolls: number;
  /** Answers waiting polls now and later ones at once, for a graceful stop. */
  stopWaiting(): void;
  close(): void;
}
