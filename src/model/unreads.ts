/**
 * Unread messages, by conversation. Built from `unread_msgs` and kept current by message, flag,
 * delete and move events. Every function returns the same object when nothing changed.
 */
import type {
  DeleteMessageEvent,
  Message,
  MessageEvent,
  UnreadMessageDetails,
  UnreadMessagesSnapshot,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
} from '../api/model';
import { dmMessageParticipants, dmParticipants } from '../narrow';
import type { ReducerContext } from './context';
import { insertAllSorted, insertSorted, removeIds } from './sorted-ids';

type TopicUnreads = Readonly<Record<string, readonly number[]>>;

export interface UnreadsState {
  /** stream id → topic → ascending message ids */
  streams: Readonly<Record<number, TopicUnreads>>;
  /** DM key (the canonical participant ids joined by commas) → ascending message ids */
  dms: Readonly<Record<string, readonly number[]>>;
  mentions: readonly number[];
  oldUnreadsMissing: boolean;
}

export type UnreadsEvent =
  MessageEvent | UpdateMessageFlagsEvent | DeleteMessageEvent | UpdateMessageEvent;

export const dmKey = (participants: readonly number[]) => participants.join(',');

export function unreadsFromSnapshot(
  snapshot: UnreadMessagesSnapshot,
  ownUserId: number,
): UnreadsState {
  const streams: Record<number, Record<string, readonly number[]>> = {};
  for (const entry of snapshot.streams) {
    const topics = (streams[entry.stream_id] ??= {});
    topics[entry.topic] = insertAllSorted(topics[entry.topic] ?? [], entry.unread_message_ids);
  }
  const dms: Record<string, readonly number[]> = {};
  // The server names the one-on-one list `pms`; `other_user_id` is the own id for a self DM.
  for (const entry of snapshot.pms ?? []) {
    const key = dmKey(
      dmParticipants([entry.other_user_id ?? entry.sender_id ?? ownUserId], ownUserId),
    );
    dms[key] = insertAllSorted(dms[key] ?? [], entry.unread_message_ids);
  }
  for (const entry of snapshot.huddles ?? []) {
    const key = dmKey(dmParticipants(entry.user_ids_string.split(',').map(Number), ownUserId));
    dms[key] = insertAllSorted(dms[key] ?? [], entry.unread_message_ids);
  }
  return {
    streams,
    dms,
    mentions: insertAllSorted([], snapshot.mentions ?? []),
    oldUnreadsMissing: snapshot.old_unreads_missing ?? false,
  };
}

export function reduceUnreads(
  state: UnreadsState,
  event: UnreadsEvent,
  context: ReducerContext,
): UnreadsState {
  switch (event.type) {
    case 'message':
      return event.flags.includes('read')
        ? state
        : addUnreadMessage(state, event.message, event.flags, context);
    case 'update_message_flags':
      return reduceFlags(state, event, context);
    case 'delete_message':
      return removeUnreads(state, new Set(event.message_ids));
    case 'update_message':
      return reduceUpdateMessage(state, event, context);
  }
}

const WILDCARD_FLAGS = [
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];

/**
 * Whether an unread message with these flags is an unread mention. As on the server, a
 * wildcard mention (@all, @topic) in a muted conversation is not; a personal or group one is.
 */
function countsAsMention(flags: readonly string[], muted: boolean): boolean {
  if (flags.includes('mentioned')) return true;
  return !muted && flags.some((flag) => WILDCARD_FLAGS.includes(flag));
}

function addUnreadMessage(
  state: UnreadsState,
  message: Message,
  flags: readonly string[],
  context: ReducerContext,
): UnreadsState {
  const withConversation =
    message.type === 'stream'
      ? addToStream(state, message.stream_id, message.subject, [message.id])
      : addToDm(state, dmKey(dmMessageParticipants(message, context.ownUserId) ?? []), [
          message.id,
        ]);
  const muted =
    message.type === 'stream' &&
    (context.isMutedConversation?.(message.stream_id, message.subject) ?? false);
  return countsAsMention(flags, muted)
    ? withMentions(withConversation, insertSorted(withConversation.mentions, message.id))
    : withConversation;
}

function reduceFlags(
  state: UnreadsState,
  event: UpdateMessageFlagsEvent,
  context: ReducerContext,
): UnreadsState {
  if (event.flag !== 'read') return state;
  if (event.op === 'add') {
    if (event.all) return clearAll(state);
    return removeUnreads(state, new Set(event.messages));
  }
  let next = state;
  for (const id of event.messages) {
    const details = event.message_details?.[String(id)];
    if (details) next = addFromDetails(next, id, details, context.ownUserId);
  }
  return next;
}

function addFromDetails(
  state: UnreadsState,
  id: number,
  details: UnreadMessageDetails,
  ownUserId: number,
): UnreadsState {
  let next = state;
  if (details.type === 'stream' && details.stream_id !== undefined) {
    next = addToStream(next, details.stream_id, details.topic ?? '', [id]);
  } else if (details.type === 'private') {
    next = addToDm(next, dmKey(dmParticipants(details.user_ids ?? [], ownUserId)), [id]);
  }
  return details.mentioned ? withMentions(next, insertSorted(next.mentions, id)) : next;
}

function reduceUpdateMessage(
  state: UnreadsState,
  event: UpdateMessageEvent,
  context: ReducerContext,
): UnreadsState {
  let next = state;
  if (event.flags) {
    const where = unreadConversation(next, event.message_id);
    const muted =
      where?.kind === 'stream' &&
      (context.isMutedConversation?.(where.streamId, where.topic) ?? false);
    const mentioned = countsAsMention(event.flags, muted);
    const wasUnreadMention = next.mentions.includes(event.message_id);
    const isUnread = where !== null;
    if (mentioned && isUnread && !wasUnreadMention)
      next = withMentions(next, insertSorted(next.mentions, event.message_id));
    if (!mentioned && wasUnreadMention)
      next = withMentions(next, removeIds(next.mentions, new Set([event.message_id])));
  }
  const moved =
    event.new_stream_id !== undefined ||
    (event.subject !== undefined && event.orig_subject !== undefined);
  if (!moved || event.stream_id === undefined) return next;
  return moveStreamUnreads(
    next,
    event.message_ids,
    event.stream_id,
    event.new_stream_id ?? event.stream_id,
    event.subject ?? event.orig_subject,
  );
}

/** Moves the unread ones among `ids` from `fromStream` to a new stream and topic. */
function moveStreamUnreads(
  state: UnreadsState,
  ids: readonly number[],
  fromStream: number,
  toStream: number,
  toTopic: string | undefined,
): UnreadsState {
  const topics = state.streams[fromStream];
  if (!topics) return state;
  const idSet = new Set(ids);
  const movedIds: number[] = [];
  const movedByTopic: Record<string, number[]> = {};
  for (const [topic, unread] of Object.entries(topics)) {
    const hits = unread.filter((id) => idSet.has(id));
    if (hits.length > 0) {
      movedIds.push(...hits);
      (movedByTopic[toTopic ?? topic] ??= []).push(...hits);
    }
  }
  if (movedIds.length === 0) return state;
  let next: UnreadsState = {
    ...state,
    streams: removeFromStreams(state.streams, new Set(movedIds)),
  };
  for (const [topic, hits] of Object.entries(movedByTopic))
    next = addToStream(next, toStream, topic, hits);
  return next;
}

function addToStream(
  state: UnreadsState,
  streamId: number,
  topic: string,
  ids: readonly number[],
): UnreadsState {
  const topics = state.streams[streamId] ?? {};
  const existing = topics[topic] ?? [];
  const updated = insertAllSorted(existing, ids);
  if (updated === existing && topic in topics) return state;
  const streams = { ...state.streams, [streamId]: { ...topics, [topic]: updated } };
  streamLocations.added(state.streams, streams, ids, streamKey(streamId, topic));
  return { ...state, streams };
}

function addToDm(state: UnreadsState, key: string, ids: readonly number[]): UnreadsState {
  const existing = state.dms[key] ?? [];
  const updated = insertAllSorted(existing, ids);
  if (updated === existing && key in state.dms) return state;
  const dms = { ...state.dms, [key]: updated };
  dmLocations.added(state.dms, dms, ids, key);
  return { ...state, dms };
}

function withMentions(state: UnreadsState, mentions: readonly number[]): UnreadsState {
  return mentions === state.mentions ? state : { ...state, mentions };
}

/** Where an unread message is, or null when it is not unread. */
function unreadConversation(
  state: UnreadsState,
  id: number,
): { kind: 'dm' } | { kind: 'stream'; streamId: number; topic: string } | null {
  const dmIndex = dmLocations.of(state.dms);
  if (dmIndex ? dmIndex.has(id) : Object.values(state.dms).some((ids) => ids.includes(id)))
    return { kind: 'dm' };
  const streamIndex = streamLocations.of(state.streams);
  if (streamIndex) {
    const at = streamIndex.get(id);
    if (at === undefined) return null;
    const [streamId, topic] = splitStreamKey(at);
    return { kind: 'stream', streamId, topic };
  }
  for (const [streamId, topics] of Object.entries(state.streams))
    for (const [topic, ids] of Object.entries(topics))
      if (ids.includes(id)) return { kind: 'stream', streamId: Number(streamId), topic };
  return null;
}

export function removeUnreads(state: UnreadsState, ids: ReadonlySet<number>): UnreadsState {
  if (ids.size === 0) return state;
  const streams = removeFromStreams(state.streams, ids);
  const dms = removeFromDms(state.dms, ids);
  const mentions = removeIds(state.mentions, ids);
  if (streams === state.streams && dms === state.dms && mentions === state.mentions) return state;
  return { ...state, streams, dms, mentions };
}

/**
 * Where each unread message is, for one version of `streams` or `dms`: a read event names a few
 * ids among tens of thousands of unread messages in thousands of conversations, and finds their
 * conversations here instead of asking every one.
 *
 * An index is built at first use for a version and then handed from each version to the next
 * one the reducer makes from it, updated in place: the version it came from loses it (and builds
 * its own again if it is ever reduced from a second time), so an index always describes exactly
 * the one version it is kept for. A message found in two conversations at once, which the
 * reducer never makes, leaves that version without an index: it is then searched in full.
 */
class Locations<T extends object> {
  private readonly indexes = new WeakMap<T, Map<number, string> | null>();

  constructor(private readonly build: (version: T) => Map<number, string> | null) {}

  /** The index of a version, built now if it has none. */
  of(version: T): Map<number, string> | null {
    let index = this.indexes.get(version);
    if (index === undefined) this.indexes.set(version, (index = this.build(version)));
    return index;
  }

  /** `next` is `previous` with `ids` added to the conversation at `where`. */
  added(previous: T, next: T, ids: readonly number[], where: string) {
    const index = this.indexes.get(previous);
    if (!index) return;
    this.indexes.delete(previous);
    for (const id of ids) {
      const at = index.get(id);
      if (at !== undefined && at !== where) return; // in two conversations: no index for next
      index.set(id, where);
    }
    this.indexes.set(next, index);
  }

  /** `next` is `previous` without `ids`. */
  removed(previous: T, next: T, index: Map<number, string>, ids: Iterable<number>) {
    this.indexes.delete(previous);
    for (const id of ids) index.delete(id);
    this.indexes.set(next, index);
  }
}

type Buckets = Readonly<Record<string, readonly number[]>>;

const streamKey = (streamId: number | string, topic: string) => `${streamId}\u0000${topic}`;

function splitStreamKey(key: string): [number, string] {
  const at = key.indexOf('\u0000');
  return [Number(key.slice(0, at)), key.slice(at + 1)];
}

/** Adds every id of `buckets` under its bucket's key; false when an id is in two of them. */
function indexBuckets(
  index: Map<number, string>,
  buckets: Buckets,
  keyOf: (bucket: string) => string,
): boolean {
  for (const bucket of Object.keys(buckets)) {
    const key = keyOf(bucket);
    for (const id of buckets[bucket]) {
      if (index.has(id)) return false;
      index.set(id, key);
    }
  }
  return true;
}

const streamLocations = new Locations<UnreadsState['streams']>((streams) => {
  const index = new Map<number, string>();
  for (const streamId of Object.keys(streams))
    if (!indexBuckets(index, streams[Number(streamId)], (topic) => streamKey(streamId, topic)))
      return null;
  return index;
});

const dmLocations = new Locations<UnreadsState['dms']>((dms) => {
  const index = new Map<number, string>();
  return indexBuckets(index, dms, (key) => key) ? index : null;
});

/** The ids found in `index`, grouped by where it puts them. */
function groupByLocation(index: Map<number, string>, ids: ReadonlySet<number>) {
  const groups = new Map<string, Set<number>>();
  for (const id of ids) {
    const at = index.get(id);
    if (at === undefined) continue;
    let group = groups.get(at);
    if (!group) groups.set(at, (group = new Set()));
    group.add(id);
  }
  return groups;
}

/** `buckets` without the ids of `hits` in the named buckets; empty buckets are dropped. */
function withoutHits(buckets: Buckets, hits: Map<string, Set<number>>): Buckets {
  const next: Record<string, readonly number[]> = { ...buckets };
  for (const [key, ids] of hits) {
    const updated = removeIds(next[key] ?? [], ids);
    if (updated.length > 0) next[key] = updated;
    else delete next[key];
  }
  return next;
}

function removeFromStreams(
  streams: UnreadsState['streams'],
  ids: ReadonlySet<number>,
): UnreadsState['streams'] {
  const index = streamLocations.of(streams);
  if (!index) return scanStreams(streams, idProbe(ids));
  const groups = groupByLocation(index, ids);
  if (groups.size === 0) return streams;
  const byStream = new Map<number, Map<string, Set<number>>>();
  for (const [at, hit] of groups) {
    const [streamId, topic] = splitStreamKey(at);
    let topics = byStream.get(streamId);
    if (!topics) byStream.set(streamId, (topics = new Map()));
    topics.set(topic, hit);
  }
  const next: Record<number, TopicUnreads> = { ...streams };
  for (const [streamId, hits] of byStream) {
    const updated = withoutHits(streams[streamId] ?? {}, hits);
    if (Object.keys(updated).length > 0) next[streamId] = updated;
    else delete next[streamId];
  }
  streamLocations.removed(streams, next, index, ids);
  return next;
}

function removeFromDms(dms: UnreadsState['dms'], ids: ReadonlySet<number>): UnreadsState['dms'] {
  const index = dmLocations.of(dms);
  if (!index) return scanBuckets(dms, idProbe(ids));
  const groups = groupByLocation(index, ids);
  if (groups.size === 0) return dms;
  const next = withoutHits(dms, groups);
  dmLocations.removed(dms, next, index, ids);
  return next;
}

/** removeFromStreams for a version without an index: every conversation is asked. */
function scanStreams(streams: UnreadsState['streams'], ids: IdProbe): UnreadsState['streams'] {
  // Copied only when a stream changes: a read event touches a few of thousands of topics.
  let next: Record<number, TopicUnreads> | null = null;
  for (const key of Object.keys(streams)) {
    const streamId = Number(key);
    const topics = streams[streamId];
    const updated = scanBuckets(topics, ids);
    if (updated === topics) continue;
    next ??= { ...streams };
    if (Object.keys(updated).length > 0) next[streamId] = updated;
    else delete next[streamId];
  }
  return next ?? streams;
}

/** Removes ids from every bucket, dropping buckets that become empty. */
function scanBuckets(buckets: Buckets, ids: IdProbe): Buckets {
  let next: Record<string, readonly number[]> | null = null;
  for (const key of Object.keys(buckets)) {
    const bucket = buckets[key];
    if (!ids.anyIn(bucket)) continue;
    next ??= { ...buckets };
    const updated = bucket.filter((id) => !ids.set.has(id));
    if (updated.length > 0) next[key] = updated;
    else delete next[key];
  }
  return next ?? buckets;
}

/**
 * The ids a read event removes, asked of many sorted buckets: a few ids are looked up by binary
 * search (a bucket is not scanned), many ids by scanning with a set.
 */
interface IdProbe {
  set: ReadonlySet<number>;
  anyIn(bucket: readonly number[]): boolean;
}

function idProbe(ids: ReadonlySet<number>): IdProbe {
  const sorted = [...ids].sort((a, b) => a - b);
  const few = sorted.length <= 32;
  return {
    set: ids,
    anyIn(bucket) {
      if (bucket.length === 0) return false;
      if (!few) return bucket.some((id) => ids.has(id));
      const low = bucket[0];
      const high = bucket[bucket.length - 1];
      return sorted.some((id) => id >= low && id <= high && sortedHas(bucket, id));
    },
  };
}

function sortedHas(bucket: readonly number[], id: number): boolean {
  let lo = 0;
  let hi = bucket.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bucket[mid] === id) return true;
    if (bucket[mid] < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function clearAll(state: UnreadsState): UnreadsState {
  const empty =
    Object.keys(state.streams).length === 0 &&
    Object.keys(state.dms).length === 0 &&
    state.mentions.length === 0;
  return empty ? state : { ...state, streams: {}, dms: {}, mentions: [] };
}

// Selectors: pure reads used by hooks and tests.

export function topicUnreadCount(state: UnreadsState, streamId: number, topic: string): number {
  return state.streams[streamId]?.[topic]?.length ?? 0;
}

export function streamUnreadCount(state: UnreadsState, streamId: number): number {
  const topics = state.streams[streamId];
  return topics ? Object.values(topics).reduce((sum, ids) => sum + ids.length, 0) : 0;
}

export function dmUnreadCount(state: UnreadsState, participants: readonly number[]): number {
  return state.dms[dmKey(participants)]?.length ?? 0;
}

export function totalUnreadCount(state: UnreadsState): number {
  const streams = Object.keys(state.streams).reduce(
    (sum, id) => sum + streamUnreadCount(state, Number(id)),
    0,
  );
  return streams + Object.values(state.dms).reduce((sum, ids) => sum + ids.length, 0);
}

/** Every unread message id, direct messages first. */
export function allUnreadIds(state: UnreadsState): number[] {
  return [
    ...Object.values(state.dms).flat(),
    ...Object.values(state.streams).flatMap((topics) => Object.values(topics).flat()),
  ];
}

/** What the server would send to restore these ids as unread; used to roll back optimistic reads. */
export function unreadDetailsFor(
  state: UnreadsState,
  ids: readonly number[],
  ownUserId: number,
): Record<string, UnreadMessageDetails> {
  const wanted = new Set(ids);
  const mentioned = new Set(state.mentions);
  const details: Record<string, UnreadMessageDetails> = {};
  for (const [streamId, topics] of Object.entries(state.streams)) {
    for (const [topic, unread] of Object.entries(topics)) {
      for (const id of unread) {
        if (wanted.has(id))
          details[id] = {
            type: 'stream',
            stream_id: Number(streamId),
            topic,
            mentioned: mentioned.has(id),
          };
      }
    }
  }
  for (const [key, unread] of Object.entries(state.dms)) {
    const others = key
      .split(',')
      .map(Number)
      .filter((id) => id !== ownUserId);
    for (const id of unread)
      if (wanted.has(id))
        details[id] = { type: 'private', user_ids: others, mentioned: mentioned.has(id) };
  }
  return details;
}
