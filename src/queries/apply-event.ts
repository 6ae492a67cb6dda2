/**
 * Events change cached server data in exactly one place: here. `applyEventToMessageList` and
 * `applyEventToTopics` are pure; `applyEventsToQueryCache` walks the cache and calls them.
 */
import type { QueryClient } from '@tanstack/react-query';
import type {
  EditHistoryEntry,
  Message,
  MessageFlag,
  ReactionEvent,
  SubmessageEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
} from '../api/model';
import type { ParsedEvent } from '../api/parse-event';
import { containsMessage, judgedByServer, sameTopic, type Narrow } from '../narrow';
import { messageKeys, reachesNewest, type MessageListData } from './messages';
import { topicKeys, type TopicSummary } from './topics';
import { inviteKeys } from './admin';
import { eventCachingLoaded } from './event-caching';

/** Applies one event to one narrow's loaded history; the same object when nothing changed. */
export function applyEventToMessageList(
  data: MessageListData,
  narrow: Narrow,
  event: ParsedEvent,
  ownUserId: number,
): MessageListData {
  switch (event.type) {
    case 'message': {
      const message = { ...event.message, flags: event.flags } as Message;
      if (!reachesNewest(data) || !containsMessage(narrow, message, ownUserId)) return data;
      if (data.pages.some((page) => page.messages.some((m) => m.id === message.id))) return data;
      const last = data.pages.length - 1;
      return withPages(data, (page, index) =>
        index === last ? { ...page, messages: [...page.messages, message] } : page,
      );
    }
    case 'update_message_flags':
      return mapMessages(data, (message) => withFlagChange(message, event));
    case 'delete_message': {
      const ids = new Set(event.message_ids);
      return withPages(data, (page) =>
        page.messages.some((m) => ids.has(m.id))
          ? { ...page, messages: page.messages.filter((m) => !ids.has(m.id)) }
          : page,
      );
    }
    case 'update_message':
      return applyEdit(data, narrow, event, ownUserId);
    case 'reaction':
      return mapMessages(data, (message) => withReaction(message, event));
    case 'submessage':
      return mapMessages(data, (message) => withSubmessage(message, event));
    default:
      return data;
  }
}

/** Adds or removes one person's reaction; adding twice or removing what is absent changes nothing. */
export function withReaction(message: Message, event: ReactionEvent): Message {
  if (message.id !== event.message_id) return message;
  const reactions = message.reactions ?? [];
  const same = (r: Message['reactions'][number]) =>
    r.user_id === event.user_id &&
    r.emoji_code === event.emoji_code &&
    r.reaction_type === event.reaction_type;
  const present = reactions.some(same);
  if (event.op === 'add') {
    if (present) return message;
    const { emoji_name, emoji_code, reaction_type, user_id } = event;
    return {
      ...message,
      reactions: [...reactions, { emoji_name, emoji_code, reaction_type, user_id }],
    };
  }
  return present ? { ...message, reactions: reactions.filter((r) => !same(r)) } : message;
}

/**
 * Adds a widget's new submessage to its message, in id order (the order widgets fold them in);
 * one already there (the same event again) changes nothing.
 */
export function withSubmessage(message: Message, event: SubmessageEvent): Message {
  if (message.id !== event.message_id) return message;
  const submessages = message.submessages ?? [];
  if (submessages.some((s) => s.id === event.submessage_id)) return message;
  const added = {
    id: event.submessage_id,
    message_id: event.message_id,
    sender_id: event.sender_id,
    msg_type: event.msg_type,
    content: event.content,
  };
  const at = submessages.findIndex((s) => s.id > added.id);
  const next =
    at === -1
      ? [...submessages, added]
      : [...submessages.slice(0, at), added, ...submessages.slice(at)];
  return { ...message, submessages: next };
}

function withFlagChange(message: Message, event: UpdateMessageFlagsEvent): Message {
  const targeted = event.all || event.messages.includes(message.id);
  if (!targeted) return message;
  const has = message.flags.includes(event.flag);
  if (event.op === 'add' && !has) return { ...message, flags: [...message.flags, event.flag] };
  if (event.op === 'remove' && has)
    return { ...message, flags: message.flags.filter((f) => f !== event.flag) };
  return message;
}

function applyEdit(
  data: MessageListData,
  narrow: Narrow,
  event: UpdateMessageEvent,
  ownUserId: number,
): MessageListData {
  const ids = new Set(event.message_ids);
  const edited = mapMessages(data, (message) => {
    if (!ids.has(message.id)) return message;
    let next: Message = message;
    const contentChanged = message.id === event.message_id && event.rendered_content !== undefined;
    if (contentChanged) {
      // The highlighted copy of the old content would hide the edit.
      next = { ...next, content: event.rendered_content!, match_content: undefined };
    }
    if (event.flags && message.id === event.message_id)
      next = { ...next, flags: event.flags as MessageFlag[] };
    if (next.type === 'stream' && event.subject !== undefined)
      next = { ...next, subject: event.subject, match_subject: undefined };
    if (next.type === 'stream' && event.new_stream_id !== undefined)
      next = { ...next, stream_id: event.new_stream_id };
    return event.rendering_only ? next : withEditRecorded(next, message, event, contentChanged);
  });
  // Messages moved out of this narrow leave it; ones moved in are picked up by a refetch.
  // Search results are the server's judgement, so they stay.
  if (judgedByServer(narrow)) return edited;
  const stillBelongs = (m: Message) => !ids.has(m.id) || containsMessage(narrow, m, ownUserId);
  return withPages(edited, (page) =>
    page.messages.every(stillBelongs)
      ? page
      : { ...page, messages: page.messages.filter(stillBelongs) },
  );
}

/**
 * The edit in the message's `edit_history` as the server will list it, so that "edited" and
 * "moved" show at once. A history we never had (an organization that hides it) stays unknown.
 */
function withEditRecorded(
  next: Message,
  before: Message,
  event: UpdateMessageEvent,
  contentChanged: boolean,
): Message {
  const entry: EditHistoryEntry = { user_id: event.user_id, timestamp: event.edit_timestamp };
  if (contentChanged) {
    entry.prev_content = event.orig_content ?? '';
    entry.prev_rendered_content = event.orig_rendered_content ?? before.content;
  }
  if (before.type === 'stream' && next.type === 'stream') {
    if (next.subject !== before.subject) {
      entry.prev_topic = before.subject;
      entry.topic = next.subject;
    }
    if (next.stream_id !== before.stream_id) {
      entry.prev_stream = before.stream_id;
      entry.stream = next.stream_id;
    }
  }
  const changed = ['prev_content', 'prev_topic', 'prev_stream'].some((key) => key in entry);
  if (!changed) return next;
  const knownHistory =
    before.edit_history ?? (before.last_edit_timestamp === undefined ? [] : null);
  return {
    ...next,
    last_edit_timestamp: event.edit_timestamp,
    ...(knownHistory && { edit_history: [entry, ...knownHistory] }),
  };
}

function mapMessages(data: MessageListData, fn: (message: Message) => Message): MessageListData {
  return withPages(data, (page) => {
    let changed = false;
    const messages = page.messages.map((m) => {
      const next = fn(m);
      if (next !== m) changed = true;
      return next;
    });
    return changed ? { ...page, messages } : page;
  });
}

function withPages(
  data: MessageListData,
  fn: (page: MessageListData['pages'][number], index: number) => MessageListData['pages'][number],
) {
  const pages = data.pages.map(fn);
  return pages.every((page, i) => page === data.pages[i]) ? data : { ...data, pages };
}

/** Keeps a stream's topic list current as messages arrive; most recent first. */
export function applyEventToTopics(
  topics: TopicSummary[],
  streamId: number,
  event: ParsedEvent,
): TopicSummary[] {
  if (event.type === 'update_message') return withTopicMoved(topics, streamId, event);
  if (
    event.type !== 'message' ||
    event.message.type !== 'stream' ||
    event.message.stream_id !== streamId
  )
    return topics;
  const { subject, id } = event.message;
  const existing = topics.find((t) => sameTopic(t.name, subject));
  if (existing && existing.maxId >= id) return topics;
  return [{ name: existing?.name ?? subject, maxId: id }, ...topics.filter((t) => t !== existing)];
}

/**
 * A whole topic that moved is renamed in its channel's list (or leaves it, and joins the
 * destination's) at once, so that sidebars show the new name before the lists are fetched again.
 * Partial moves wait for that refetch: only the server knows what remains in the old topic.
 */
function withTopicMoved(
  topics: TopicSummary[],
  streamId: number,
  event: UpdateMessageEvent,
): TopicSummary[] {
  const from = event.stream_id;
  if (event.propagate_mode !== 'change_all' || from === undefined) return topics;
  if (event.orig_subject === undefined || event.message_ids.length === 0) return topics;
  const to = event.new_stream_id ?? from;
  const toTopic = event.subject ?? event.orig_subject;
  if (streamId !== from && streamId !== to) return topics;
  const moving = topics.find((t) => sameTopic(t.name, event.orig_subject!));
  const movedMax = Math.max(moving?.maxId ?? 0, ...event.message_ids);
  let next = streamId === from ? topics.filter((t) => t !== moving) : topics;
  if (streamId === to) {
    const joined = next.find((t) => sameTopic(t.name, toTopic));
    const entry = { name: toTopic, maxId: Math.max(joined?.maxId ?? 0, movedMax) };
    next = [...next.filter((t) => t !== joined), entry].sort((a, b) => b.maxId - a.maxId);
  }
  return next.length === topics.length && next.every((t, i) => t === topics[i]) ? topics : next;
}

function isMove(event: ParsedEvent): boolean {
  return (
    event.type === 'update_message' &&
    (event.new_stream_id !== undefined || event.subject !== undefined)
  );
}

/** Applies a batch of events to every loaded message list and topic list. */
export function applyEventsToQueryCache(
  queryClient: QueryClient,
  events: readonly ParsedEvent[],
  ownUserId: number,
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: messageKeys.lists() })) {
    const data = query.state.data as MessageListData | undefined;
    if (!data) continue;
    const narrow = query.queryKey[2] as Narrow;
    const next = events.reduce(
      (current, event) => applyEventToMessageList(current, narrow, event, ownUserId),
      data,
    );
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: topicKeys.all })) {
    const topics = query.state.data as TopicSummary[] | undefined;
    if (!topics) continue;
    const streamId = query.queryKey[1] as number;
    const next = events.reduce(
      (current, event) => applyEventToTopics(current, streamId, event),
      topics,
    );
    if (next !== topics) queryClient.setQueryData(query.queryKey, next);
  }
  if (events.some((event) => event.type === 'invites_changed'))
    void queryClient.invalidateQueries({ queryKey: inviteKeys.all });
  if (events.some(isMove)) {
    // Moved messages may now belong to lists that never saw them.
    void queryClient.invalidateQueries({ queryKey: messageKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: topicKeys.all });
  }
}

eventCachingLoaded(applyEventsToQueryCache);
