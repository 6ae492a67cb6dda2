import crypto from 'node:crypto';
import { messageFacts, queueNarrowMatches, type QueueNarrow } from '../domain/message-facts.js';
import type { ApiEvent, ClientGone, EventDelivery as Delivery } from './types.js';
import { RawJson } from '../domain/raw-json.js';
import { inContentFormat } from '../domain/content-format.js';
import type { Realm, User } from '../db/schema.js';
import { USER_SETTING_NAMES, USER_SETTINGS } from '../../src/api/model/user-settings.js';

export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  empty_topic_name: boolean;
}

export interface QueueOptions {
  userId: number;
  realmId: number;
  eventTypes: Set<string> | null;
  /** message events pass it or are dropped, as in the real server; other events are not narrowed */
  narrow: QueueNarrow;
  /** the narrow as the client gave it, from which another process compiles `narrow` again */
  rawNarrow?: unknown;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  capabilities: ClientCapabilities;
}

export type QueuedEvent = ApiEvent & { id: number };

/**
 * What a queue holds besides its options: kept across a graceful restart (events/persist.ts),
 * from which the queue comes back with the same id and event ids.
 */
export interface QueueState {
  id: string;
  /** the events not yet acknowledged, oldest first */
  events: QueuedEvent[];
  /** the id the next event gets */
  nextId: number;
  lastAccess: number;
}

/**
 * What a poll of this queue proved once against the database: the exact `Authorization` and
 * `Host` headers, and whom they named. A later poll that presents the same two headers is the
 * same person without reading the database again (QueueManager.authenticateByQueue).
 */
export interface VerifiedCredentials {
  authorization: string;
  host: string;
  realm: Realm;
  user: User;
}

/**
 * Events adapted for one delivery, by the options that shape them (adaptKey): the queues of a
 * delivery that would build the same event share one object, adapted and serialized once.
 */
export type AdaptedEvents = Map<string, ApiEvent[]>;

/** The shared event a queued one copies (its `id` aside), for eventsJson. */
const sharedBase = new WeakMap<QueuedEvent, ApiEvent>();
/** A shared event's JSON without its opening brace, written once whatever the number of queues. */
const sharedBody = new WeakMap<ApiEvent, string>();

/**
 * The JSON of queued events, as GET /events answers them: an event shared between queues is
 * serialized once, and each answer only writes its own `id` in front of those bytes.
 */
export function eventsJson(events: QueuedEvent[]): RawJson {
  const parts = events.map((queued) => {
    const base = sharedBase.get(queued);
    if (!base) return JSON.stringify(queued);
    let body = sharedBody.get(base);
    if (body === undefined) sharedBody.set(base, (body = JSON.stringify(base).slice(1)));
    return body === '}' ? `{"id":${queued.id}}` : `{"id":${queued.id},${body}`;
  });
  return new RawJson(`[${parts.join(',')}]`);
}

/**
 * Parked polls a publish woke, answered WAKE_BATCH at a time: the first batch once the publish's
 * own work is done, each further one in a turn of the event loop of its own. An answer's bytes
 * reach its socket only at the end of the turn that wrote it, so thousands of polls answered in
 * one turn would all wait for the last; in batches the first answers are on their way (and read,
 * on another core) while later ones are written, and other requests are served in between.
 */
const WAKE_BATCH = 128;
let wakeups: (() => void)[] = [];
let wakeScheduled = false;

function wakeSoon(wake: () => void) {
  wakeups.push(wake);
  if (wakeScheduled) return;
  wakeScheduled = true;
  queueMicrotask(wakeBatch);
}

function wakeBatch() {
  const batch = wakeups.length > WAKE_BATCH ? wakeups.splice(0, WAKE_BATCH) : wakeups;
  if (batch === wakeups) wakeups = [];
  for (const wake of batch) wake();
  if (wakeups.length) setImmediate(wakeBatch);
  else wakeScheduled = false;
}

interface Waiter {
  resolve: (events: QueuedEvent[]) => void;
}

/** A client's queue of events. It lives in the memory of the process that created it. */
export class EventQueue {
  readonly id: string;
  private events: QueuedEvent[] = [];
  private nextId = 0;
  lastAccess = Date.now();
  private waiter: Waiter | null = null;
  /** set by QueueManager.rememberCredentials, cleared by a `reauthenticate` control */
  credentials: VerifiedCredentials | null = null;
  /** the server is stopping: a fetch is answered at once rather than parked (stopWaiting) */
  private stopped = false;

  /** `saved`: the state of a queue saved by the previous process, which this one continues. */
  constructor(
    processTag: string,
    readonly opts: QueueOptions,
    saved?: QueueState,
  ) {
    if (!saved) {
      this.id = `${processTag}:${crypto.randomBytes(12).toString('base64url')}`;
      return;
    }
    this.id = saved.id;
    this.events = saved.events.slice();
    this.nextId = saved.nextId;
    this.lastAccess = saved.lastAccess;
  }

  /** What a graceful restart keeps of the queue, besides its options. */
  state(): QueueState {
    return {
      id: this.id,
      events: this.events.slice(),
      nextId: this.nextId,
      lastAccess: this.lastAccess,
    };
  }

  /** The id of the newest event; `-1` before any. */
  get lastEventId(): number {
    return this.nextId - 1;
  }

  get isWaiting(): boolean {
    return this.waiter !== null;
  }

  wantsType(type: string): boolean {
    return wantsType(this.opts, type);
  }

  /** `shared`: the event object is also in other queues and is never changed (eventsJson). */
  push(event: ApiEvent, shared = false) {
    const queued = { ...event, id: this.nextId++ } as QueuedEvent;
    if (shared && !('id' in event)) sharedBase.set(queued, event);
    this.events.push(queued);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      // Other pushes from the same publish land in this answer too.
      wakeSoon(() => w.resolve(this.events.slice()));
    }
  }

  /** Drops the events the client has acknowledged by passing `lastEventId`. */
  acknowledge(lastEventId: number) {
    const i = this.events.findIndex((e) => e.id > lastEventId);
    this.events = i === -1 ? [] : this.events.slice(i);
  }

  pending(): QueuedEvent[] {
    return this.events.slice();
  }

  /**
   * Waits until an event arrives or `timeoutMs` passes (then it answers with what it has), or
   * the client goes away (`gone`: then it answers nothing).
   */
  wait(timeoutMs: number, gone: ClientGone): Promise<QueuedEvent[]> {
    this.lastAccess = Date.now();
    if (this.stopped) return Promise.resolve([]);
    if (this.waiter) this.waiter.resolve([]); // a newer fetch replaces an older one
    return new Promise((resolve) => {
      let unwatch = () => {};
      let done = false;
      const finish = (events: QueuedEvent[]) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unwatch();
        if (this.waiter === waiter) this.waiter = null;
        this.lastAccess = Date.now();
        resolve(events);
      };
      const waiter: Waiter = { resolve: finish };
      const timer = setTimeout(() => {
        if (this.waiter !== waiter) return;
        this.waiter = null;
        this.push({ type: 'heartbeat' });
        finish(this.events.slice());
      }, timeoutMs);
      this.waiter = waiter;
      unwatch = gone.watch(() => finish([]));
      if (done) unwatch();
    });
  }

  /** Ends a waiting fetch, for shutdown. */
  interrupt() {
    this.waiter?.resolve([]);
    this.waiter = null;
  }

  /**
   * For a graceful shutdown that keeps the queue: the waiting fetch is answered, and any later
   * one at once, so that closing the server waits for no long-poll. Events still arrive.
   */
  stopWaiting() {
    this.stopped = true;
    this.interrupt();
  }

  /**
   * Turns a published event into what this queue stores, following the client's options. Queues
   * given the same `adapted` map for a delivery share the events they would build alike.
   */
  accept(delivery: Delivery, userId: number, adapted: AdaptedEvents = new Map()) {
    for (const e of queueEvents(this, delivery, userId, adapted)) this.push(e, true);
  }
}

/** A queue as the shaping of its events sees it: its id (for the echo) and its options. */
export interface QueueView {
  id: string;
  opts: QueueOptions;
}

export function wantsType(opts: QueueOptions, type: string): boolean {
  if (opts.eventTypes === null) return true;
  // A client that names both gets the legacy list only from servers without `user_topic`.
  if (type === 'muted_topics' && opts.eventTypes.has('user_topic')) return false;
  return opts.eventTypes.has(type);
}

/**
 * The events a queue stores for one published event, following the client's options, whether
 * the queue lives in this process (EventQueue) or in Redis (redis-queues.ts). Queues given the
 * same `adapted` map for a delivery share the events they would build alike.
 */
export function queueEvents(
  queue: QueueView,
  delivery: Delivery,
  userId: number,
  adapted: AdaptedEvents,
): ApiEvent[] {
  const { event } = delivery;
  if (!wantsType(queue.opts, event.type)) return [];
  const personal = delivery.perUser?.[userId];
  const merged: ApiEvent = personal ? { ...event, ...personal } : event;
  if (event.type === 'message' && !narrowPasses(queue.opts.narrow, merged)) return [];
  const key = adaptKey(queue, delivery, personal);
  let events = adapted.get(key);
  if (!events) adapted.set(key, (events = adaptEvent(merged, queue, delivery)));
  return events;
}

/** Message events pass the queue's narrow or are dropped, as in the real server. */
function narrowPasses(narrow: QueueNarrow, event: ApiEvent): boolean {
  if (!narrow.length) return true;
  const flags = (event.flags as string[] | undefined) ?? [];
  return queueNarrowMatches(narrow, messageFacts(event.message as Record<string, unknown>, flags));
}

/** Everything adaptEvent's answer depends on besides the delivery itself. */
function adaptKey(
  queue: QueueView,
  delivery: Delivery,
  personal: Record<string, unknown> | undefined,
): string {
  const { applyMarkdown, clientGravatar, capabilities } = queue.opts;
  const options = [applyMarkdown, clientGravatar, ...Object.values(capabilities)]
    .map(Number)
    .join('');
  const echo = delivery.echo?.queueId === queue.id ? 'echo' : '';
  return `${options}|${echo}|${personal ? JSON.stringify(personal) : ''}`;
}

/**
 * A message record as a client that asked for `applyMarkdown` and `clientGravatar` reads it: its
 * content in one format, and an avatar URL unless the client computes gravatars itself.
 */
export function messageForClient(
  record: Record<string, unknown>,
  applyMarkdown: boolean,
  clientGravatar: boolean,
): Record<string, unknown> {
  const message = inContentFormat(record, applyMarkdown);
  if (clientGravatar === false && message.avatar_url === null)
    message.avatar_url = message.avatar_url_fallback ?? null;
  delete message.avatar_url_fallback;
  return message;
}

/** Event shapes that depend on the queue's register options and client capabilities. */
function adaptEvent(event: ApiEvent, queue: QueueView, delivery: Delivery): ApiEvent[] {
  const caps = queue.opts.capabilities;
  switch (event.type) {
    case 'message': {
      const message = messageForClient(
        event.message as Record<string, unknown>,
        queue.opts.applyMarkdown,
        queue.opts.clientGravatar,
      );
      const out: ApiEvent = { type: 'message', message, flags: event.flags ?? [] };
      if (delivery.echo && delivery.echo.queueId === queue.id) out.local_id = delivery.echo.localId;
      return [out];
    }
    case 'delete_message': {
      if (caps.bulk_message_deletion) return [event];
      const ids = event.message_ids as number[];
      return ids.map((id) => {
        const { message_ids: _ids, ...rest } = event;
        return { ...rest, message_id: id };
      });
    }
    case 'realm_linkifiers':
      return caps.linkifier_url_template ? [event] : [];
    case 'typing':
      if (event.message_type === 'stream' && !caps.stream_typing_notifications) return [];
      return [event];
    case 'user_settings': {
      if (caps.user_settings_object) return [event];
      const legacy = legacyUserSettingsEvent(event);
      return legacy ? [event, legacy] : [event];
    }
    default:
      return [event];
  }
}

/** Settings that older clients learn from `update_global_notifications`; the rest are display. */
const NOTIFICATION_SETTINGS = new Set<string>(
  USER_SETTING_NAMES.filter((name) => 'notification' in USER_SETTINGS[name]),
);
const ACCOUNT_SETTINGS = new Set(['full_name', 'email', 'delivery_email']);

function legacyUserSettingsEvent(event: ApiEvent): ApiEvent | null {
  const property = event.property as string;
  if (ACCOUNT_SETTINGS.has(property)) return null;
  if (NOTIFICATION_SETTINGS.has(property))
    return {
      type: 'update_global_notifications',
      notification_name: property,
      setting: event.value,
    };
  const legacy: ApiEvent = {
    type: 'update_display_settings',
    setting_name: property,
    setting: event.value,
  };
  if (property === 'default_language') legacy.language_name = event.language_name;
  return legacy;
}
