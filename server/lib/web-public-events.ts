import type { Database } from '../db/index.js';
import type { Realm, Stream } from '../db/schema.js';
import { DomainError, notLoggedIn, realmDeactivated } from '../domain/errors.js';
import { streamToApi } from '../domain/serialize.js';
import { messageForClient } from '../events/queue.js';
import type { ApiEvent, EventDelivery } from '../events/types.js';
import type { VisitorSelection, VisitorSelector } from '../events/visitor-streams.js';
import { canAccessStream } from './access.js';
import { mayReadMessage } from './message-access.js';
import { realmSettings } from './realm.js';
import { firstMessageIds } from './streams.js';

/*
 * The `web_public_events` extension: what visitors (people reading web-public channels without
 * an account, who get no event queue) may follow live, decided for each batch of publications
 * against the organization's and the channels' state at the time it goes out. The rules are the
 * ones every other path asks: mayReadMessage with no user for a message, canAccessStream for a
 * channel. Only these event types can reach a visitor, reshaped for a reader with no account:
 *
 * - `message` in a web-public channel, its content as HTML, flagged read;
 * - `update_message` of a message in one, with its `stream_id`; moved out of every channel a
 *   visitor may read, it becomes a `delete_message` (nothing of where it went); moved in from a
 *   channel they may not read, it loses what described its old place (topic, content);
 * - `delete_message` in one;
 * - `reaction` and `submessage` on a message in one, with that message's `stream_id`;
 * - `stream`: a channel that became web-public arrives as `create`, one that stopped being (or
 *   was archived) leaves as `delete`, and the changes of one visitors read come as they are.
 *
 * When the organization turns spectator access off (or is deactivated), a last `realm` event
 * says so and the streams end.
 */

/** The name /server_settings announces in `parley_extensions`. */
export const WEB_PUBLIC_EVENTS = 'web_public_events';

/** Publications that can matter to visitors; `realm` ones only make the organization be looked at. */
const CARRIED = new Set([
  'message',
  'update_message',
  'delete_message',
  'reaction',
  'submessage',
  'stream',
  'realm',
]);

/** Whether visitors may open the stream here now; the refusal they get otherwise. */
export function checkVisitorsMayFollow(enabled: boolean, realm: Realm) {
  if (!enabled)
    throw new DomainError(
      'Live events for visitors (the web_public_events extension) are turned off on this server',
      'NOT_FOUND',
      404,
    );
  if (realm.deactivated) throw realmDeactivated();
  // As every request of a visitor is answered while spectator access is off.
  if (!realmSettings(realm).enable_spectator_access) throw notLoggedIn();
}

/** Every place for a visitor's stream in this process is taken. */
export const tooManyVisitors = () =>
  new DomainError(
    'Too many visitors are following this server live; try again later',
    'TOO_MANY_VISITORS',
    503,
    { 'retry-after': 30 },
  );

/** What one batch's events are judged against, read after the commits that made them. */
interface Facts {
  realm: Realm;
  /** the channels the batch names, as they are now */
  streams: Map<number, Stream>;
  /** the channel each message the batch names is in now (absent: deleted) */
  messageStreams: Map<number, number | null>;
  /** the first message of each channel the batch's `stream` events name */
  firstIds: Map<number, number>;
}

const DELETED_FROM_VIEW = (ids: number[], streamId: number, topic: unknown): ApiEvent => ({
  type: 'delete_message',
  message_type: 'stream',
  message_ids: ids,
  stream_id: streamId,
  ...(typeof topic === 'string' ? { topic } : {}),
});

export class WebPublicEvents implements VisitorSelector {
  /** per organization with visitors: the web-public channels they were last told of */
  private readonly known = new Map<number, Set<number>>();

  constructor(private readonly db: Database) {}

  async watch(realmId: number) {
    const rows = await this.db
      .selectFrom('streams')
      .select('id')
      .where('realm_id', '=', realmId)
      .where('is_web_public', '=', 1)
      .where('deactivated', '=', 0)
      .execute();
    this.known.set(realmId, new Set(rows.map((r) => r.id)));
  }

  unwatch(realmId: number) {
    this.known.delete(realmId);
  }

  async select(realmId: number, deliveries: EventDelivery[]): Promise<VisitorSelection> {
    const carried = deliveries.map((d) => d.event as ApiEvent).filter((e) => CARRIED.has(e.type));
    if (!carried.length) return { events: [] };
    // Read past the row cache: another process's commit reaches that cache by a notification
    // that may come after the bus delivered the events of the commit.
    const realm = await this.db
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', realmId)
      .executeTakeFirst();
    if (!realm || realm.deactivated)
      return { events: [], last: { type: 'realm', op: 'deactivated', realm_id: realmId } };
    if (!realmSettings(realm).enable_spectator_access)
      return {
        events: [],
        last: { type: 'realm', op: 'update', property: 'enable_spectator_access', value: false },
      };
    const facts = await this.facts(realm, carried);
    let known = this.known.get(realmId);
    if (!known) this.known.set(realmId, (known = new Set()));
    const events: ApiEvent[] = [];
    const seen = new Set<string>();
    for (const event of carried) {
      for (const out of forVisitors(event, facts, known)) {
        // One change often goes out as several deliveries (one per audience): once is enough.
        const json = JSON.stringify(out);
        if (seen.has(json)) continue;
        seen.add(json);
        events.push(out);
      }
    }
    return { events };
  }

  private async facts(realm: Realm, events: ApiEvent[]): Promise<Facts> {
    const streamIds = new Set<number>();
    const channelEventIds = new Set<number>();
    const messageIds = new Set<number>();
    for (const e of events) {
      for (const id of namedStreams(e)) streamIds.add(id);
      if (e.type === 'stream') for (const id of namedStreams(e)) channelEventIds.add(id);
      if (e.type === 'update_message' || e.type === 'reaction' || e.type === 'submessage')
        messageIds.add(e.message_id as number);
    }
    const messageStreams = new Map<number, number | null>();
    if (messageIds.size) {
      const rows = await this.db
        .selectFrom('messages')
        .select(['id', 'stream_id'])
        .where('realm_id', '=', realm.id)
        .where('id', 'in', [...messageIds])
        .execute();
      for (const r of rows) {
        messageStreams.set(r.id, r.stream_id);
        if (r.stream_id !== null) streamIds.add(r.stream_id);
      }
    }
    const streams = new Map<number, Stream>();
    if (streamIds.size) {
      const rows = await this.db
        .selectFrom('streams')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('id', 'in', [...streamIds])
        .execute();
      for (const r of rows) streams.set(r.id, r);
    }
    const firstIds = await firstMessageIds(
      this.db,
      [...channelEventIds].filter((id) => streams.has(id)),
    );
    return { realm, streams, messageStreams, firstIds };
  }
}

/** The channels an event names by id. */
function namedStreams(e: ApiEvent): number[] {
  const ids: unknown[] = [];
  if (e.type === 'message') {
    const message = e.message as Record<string, unknown>;
    if (message.type === 'stream') ids.push(message.stream_id);
  } else if (e.type === 'stream') {
    ids.push(e.stream_id, ...((e.stream_ids as unknown[]) ?? []));
    for (const s of (e.streams as Record<string, unknown>[] | undefined) ?? [])
      ids.push(s.stream_id);
  } else {
    ids.push(e.stream_id, e.new_stream_id);
  }
  return [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
}

/** May a visitor read the messages of this channel now? */
function readable(f: Facts, streamId: number | null | undefined): streamId is number {
  if (streamId === null || streamId === undefined) return false;
  const stream = f.streams.get(streamId);
  if (!stream) return false;
  return mayReadMessage(f.realm, null, { stream_id: streamId }, stream, {
    received: false,
    subscribed: false,
  });
}

/** What one published event becomes for visitors: nothing, itself, or a safer shape of it. */
function forVisitors(e: ApiEvent, f: Facts, known: Set<number>): ApiEvent[] {
  switch (e.type) {
    case 'message': {
      const message = e.message as Record<string, unknown>;
      if (message.type !== 'stream' || !readable(f, message.stream_id as number)) return [];
      return [
        { type: 'message', message: messageForClient(message, true, false), flags: ['read'] },
      ];
    }
    case 'update_message':
      return editForVisitors(e, f);
    case 'delete_message':
      if (!readable(f, e.stream_id as number | undefined)) return [];
      return [DELETED_FROM_VIEW(e.message_ids as number[], e.stream_id as number, e.topic)];
    case 'reaction':
    case 'submessage': {
      const streamId = f.messageStreams.get(e.message_id as number);
      return readable(f, streamId) ? [{ ...e, stream_id: streamId }] : [];
    }
    case 'stream':
      return channelForVisitors(e, f, known);
    default:
      return [];
  }
}

/**
 * An edit or a move, judged by where the message was (`stream_id` of a move) and where it is now.
 * Moved away from visitors, it is deleted from their view; moved to them, it comes without the
 * topic and content it had where they could not read it.
 */
function editForVisitors(e: ApiEvent, f: Facts): ApiEvent[] {
  const now = f.messageStreams.get(e.message_id as number);
  if (now === undefined || now === null) return [];
  const from = (e.stream_id as number | undefined) ?? now;
  const wasReadable = readable(f, from);
  const isReadable = readable(f, now);
  if (wasReadable && isReadable) return [{ ...e, stream_id: from }];
  if (wasReadable) return [DELETED_FROM_VIEW(e.message_ids as number[], from, e.orig_subject)];
  if (!isReadable) return [];
  const arrived: ApiEvent = {
    type: 'update_message',
    user_id: e.user_id,
    edit_timestamp: e.edit_timestamp,
    message_id: e.message_id,
    message_ids: e.message_ids,
    rendering_only: false,
    new_stream_id: now,
  };
  if (e.subject !== undefined) arrived.subject = e.subject;
  if (e.propagate_mode !== undefined) arrived.propagate_mode = e.propagate_mode;
  return [arrived];
}

/**
 * A channel event: one visitors newly may read arrives (`create`), one they no longer may leaves
 * (`delete`, by id only), and one they read passes as it is. Creations and deletions that only
 * change someone else's access to a channel visitors already read (or never did) are theirs.
 */
function channelForVisitors(e: ApiEvent, f: Facts, known: Set<number>): ApiEvent[] {
  const out: ApiEvent[] = [];
  for (const id of namedStreams(e)) {
    const stream = f.streams.get(id);
    const open = !!stream && canAccessStream(null, stream, false);
    if (open && !known.has(id)) {
      known.add(id);
      const object = streamToApi(stream, { firstMessageId: f.firstIds.get(id) ?? null });
      out.push({ type: 'stream', op: 'create', streams: [object] });
    } else if (!open && known.has(id)) {
      known.delete(id);
      out.push({ type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id] });
    } else if (open && e.op === 'update') {
      out.push(e);
    }
  }
  return out;
}
