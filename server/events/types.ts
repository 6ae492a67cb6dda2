import type { ServerEvent } from '../../src/api/model/events.js';

/** An event as the API delivers it; `id` is added per queue. */
export type ApiEvent = { type: string } & Record<string, unknown>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A client wire event (src/api/model/events.ts) as an action emits it: the queue adds `id`. */
export type DeliveredEvent<E extends ServerEvent = ServerEvent> = DistributiveOmit<E, 'id'>;

/** One wire event type without `id` and `type`: what a helper that adds `type` takes. */
export type EventBody<E extends ServerEvent> = DistributiveOmit<E, 'id' | 'type'>;

declare const untyped: unique symbol;
/** An event not (yet) checked against the client's wire types; only untypedEvent() makes one. */
export type UntypedEvent = ApiEvent & { readonly [untyped]: true };

/**
 * The escape hatch for an event whose shape the wire types in src/api/model/events.ts don't
 * describe yet. Grep for it: each call is a place where the server and the client may disagree.
 */
export function untypedEvent(event: ApiEvent): UntypedEvent {
  return event as UntypedEvent;
}

/** One event addressed to some users, as actions publish it on the bus. */
export interface EventDelivery {
  realmId: number;
  /** the users whose queues receive it */
  userIds: number[];
  event: DeliveredEvent | UntypedEvent;
  /** fields merged into the event for one user only (message flags, for instance) */
  perUser?: Record<number, Record<string, unknown>>;
  /** a message event: echo `local_id` to the queue that sent it */
  echo?: { queueId: string; localId: string };
  /** a message to a public stream: also for queues registered with `all_public_streams` */
  publicStreamId?: number;
  /** a message: its conversation as stored, for the unread copies kept in memory (unread-cache) */
  conversation?: { streamId: number | null; topic: string; topicKey: string; dmKey: string | null };
  /** a message that mentions or messages an outgoing-webhook bot: wakes the webhook senders */
  outgoingWebhooks?: true;
  control?: undefined;
}

/**
 * What every process does to some users' queues, published on the bus after the commit like an
 * event, so that a queue held by another process obeys it too:
 * - `drop`: the queues are deleted (the user was deactivated);
 * - `drop-all-public-streams`: those registered with `all_public_streams` are deleted (a guest
 *   may not follow every public channel);
 * - `reauthenticate`: each queue forgets the credentials it verified, and its next poll is
 *   checked against the database again (the API key, the address or the organization changed).
 */
export type QueueControl = 'drop' | 'drop-all-public-streams' | 'reauthenticate';

export interface ControlDelivery {
  realmId: number;
  userIds: number[];
  control: QueueControl;
  event?: undefined;
}

export type Delivery = EventDelivery | ControlDelivery;

export function queueControl(
  realmId: number,
  userIds: number[],
  control: QueueControl,
): ControlDelivery {
  return { realmId, userIds, control };
}

export interface Bus {
  publish(deliveries: Delivery[]): Promise<void>;
  /** called with every delivery published by any process */
  subscribe(handler: (deliveries: Delivery[]) => void): void;
  close(): Promise<void>;
}

/** One process: the bus is a plain in-memory fan-out. */
export class MemoryBus implements Bus {
  private handlers: ((d: Delivery[]) => void)[] = [];
  async publish(deliveries: Delivery[]) {
    for (const h of this.handlers) h(deliveries);
  }
  subscribe(handler: (d: Delivery[]) => void) {
    this.handlers.push(handler);
  }
  async close() {
    this.handlers = [];
  }
}

/**
 * The client of a request going away before its answer, for what waits (long-polls). The HTTP
 * layer gives it (http/client-gone.ts) as a listener on the response's `close` rather than an
 * AbortSignal: when one event goes out to thousands of parked polls, each answer would otherwise
 * pay for an AbortController and its EventTarget listeners.
 */
export interface ClientGone {
  /** Calls `fn` once if the client goes away before its answer; the answer returned stops it. */
  watch(fn: () => void): () => void;
}
