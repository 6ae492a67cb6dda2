/**
 * Who is typing where. Entries expire on their own (the server's expiry period) in case the stop
 * event is lost; `expireTyping` is called by a timer, and selectors also ignore stale entries.
 */
import type { TypingEvent } from '../api/model';
import { dmParticipants, narrowKey, topicNarrow, type Narrow } from '../narrow';
import type { ReducerContext } from './context';

export interface TypingState {
  /** narrow key of the conversation → user id → expiry time in ms */
  byConversation: Readonly<Record<string, Readonly<Record<number, number>>>>;
}

export const emptyTyping: TypingState = { byConversation: {} };

function conversationKey(event: TypingEvent, ownUserId: number): string | null {
  if (event.message_type === 'stream') {
    return event.stream_id === undefined || event.topic === undefined
      ? null
      : narrowKey(topicNarrow(event.stream_id, event.topic));
  }
  const participants = (event.recipients ?? []).map((r) => r.user_id);
  return narrowKey({ kind: 'dm', userIds: dmParticipants(participants, ownUserId) });
}

export function reduceTyping(
  state: TypingState,
  event: TypingEvent,
  context: ReducerContext & { expiryMs: number },
): TypingState {
  const senderId = event.sender.user_id;
  if (senderId === context.ownUserId) return state;
  const key = conversationKey(event, context.ownUserId);
  if (key === null) return state;
  const typists = state.byConversation[key] ?? {};
  if (event.op === 'start') {
    return {
      byConversation: {
        ...state.byConversation,
        [key]: { ...typists, [senderId]: context.now + context.expiryMs },
      },
    };
  }
  if (!(senderId in typists)) return state;
  const { [senderId]: _stopped, ...rest } = typists;
  return { byConversation: withConversation(state.byConversation, key, rest) };
}

function withConversation(
  all: TypingState['byConversation'],
  key: string,
  typists: Record<number, number>,
) {
  const { [key]: _old, ...others } = all;
  return Object.keys(typists).length === 0 ? others : { ...others, [key]: typists };
}

export function expireTyping(state: TypingState, now: number): TypingState {
  let next = state.byConversation;
  for (const [key, typists] of Object.entries(state.byConversation)) {
    const alive = Object.fromEntries(Object.entries(typists).filter(([, expiry]) => expiry > now));
    if (Object.keys(alive).length !== Object.keys(typists).length)
      next = withConversation(next, key, alive);
  }
  return next === state.byConversation ? state : { byConversation: next };
}

/** User ids typing in a narrow (topics and DMs only), ignoring expired entries. */
export function typistsIn(state: TypingState, narrow: Narrow, now: number): number[] {
  const typists = state.byConversation[narrowKey(narrow)] ?? {};
  return Object.entries(typists)
    .filter(([, expiry]) => expiry > now)
    .map(([id]) => Number(id));
}
