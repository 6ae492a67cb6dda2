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
    streams: removeFromStreams(state.streams, idProbe(new Set(movedIds))),
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
  return { ...state, streams: { ...state.streams, [streamId]: { ...topics, [topic]: updated } } };
}

function addToDm(state: UnreadsState, key: string, ids: readonly number[]): UnreadsState {
  const existing = state.dms[key] ?? [];
  const updated = insertAllSorted(existing, ids);
  if (updated === existing && key in state.dms) return state;
  return { ...state, dms: { ...state.dms, [key]: updated } };
}

function withMentions(state: UnreadsState, mentions: readonly number[]): UnreadsState {
  return mentions === state.mentions ? state : { ...state, mentions };
}

/** Where an unread message is, or null when it is not unread. */
function unreadConversation(
  state: UnreadsState,
  id: number,
): { kind: 'dm' } | { kind: 'stream'; streamId: number; topic: string } | null {
  if (Object.values(state.dms).some((ids) => ids.includes(id))) return { kind: 'dm' };
  for (const [streamId, topics] of Object.entries(state.streams))
    for (const [topic, ids] of Object.entries(topics))
      if (ids.includes(id)) return { kind: 'stream', streamId: Number(streamId), topic };
  return null;
}

export function removeUnreads(state: UnreadsState, ids: ReadonlySet<number>): UnreadsState {
  if (ids.size === 0) return state;
  const probe = idProbe(ids);
  const streams = removeFromStreams(state.streams, probe);
  const dms = removeFromBuckets(state.dms, probe);
  const mentions = removeIds(state.mentions, ids);
  if (streams === state.streams && dms === state.dms && mentions === state.mentions) return state;
  return { ...state, streams, dms, mentions };
}

function removeFromStreams(
  streams: UnreadsState['streams'],
  ids: IdProbe,
): UnreadsState['streams'] {
  // Copied only when a stream changes: a read event touches a few of thousands of topics.
  let next: Record<number, TopicUnreads> | null = null;
  for (const key of Object.keys(streams)) {
    const streamId = Number(key);
    const topics = streams[streamId];
    const updated = removeFromBuckets(topics, ids);
    if (updated === topics) continue;
    next ??= { ...streams };
    if (Object.keys(updated).length > 0) next[streamId] = updated;
    else delete next[streamId];
  }
  return next ?? streams;
}

/** Removes ids from every bucket, dropping buckets that become empty. */
function removeFromBuckets(
  buckets: Readonly<Record<string, readonly number[]>>,
  ids: IdProbe,
): Readonly<Record<string, readonly number[]>> {
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
