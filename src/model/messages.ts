/**
 * Per-account facts about messages that the screens need without loading history: starred ids
 * and the recent DM conversations (for the sidebar). Message lists themselves live in React
 * Query's caches.
 */
import type {
  DeleteMessageEvent,
  MessageEvent,
  RecentPrivateConversation,
  RegisterResponse,
  UpdateMessageFlagsEvent,
} from '../api/model';
import { dmMessageParticipants } from '../narrow';
import type { ReducerContext } from './context';
import { insertAllSorted, insertSorted, removeIds } from './sorted-ids';

export interface MessagesState {
  starredIds: readonly number[];
  /** most recent first; `userIds` in canonical DM form (see dmParticipants) */
  recentDms: readonly RecentPrivateConversation[];
  maxMessageId: number;
}

export type MessagesEvent = MessageEvent | UpdateMessageFlagsEvent | DeleteMessageEvent;

export function messagesFromSnapshot(register: RegisterResponse, ownUserId: number): MessagesState {
  const recentDms = (register.recent_private_conversations ?? [])
    .map((conversation) => ({
      max_message_id: conversation.max_message_id,
      user_ids:
        conversation.user_ids.length === 0
          ? [ownUserId]
          : [...conversation.user_ids].sort((a, b) => a - b),
    }))
    .sort((a, b) => b.max_message_id - a.max_message_id);
  return {
    starredIds: insertAllSorted([], register.starred_messages ?? []),
    recentDms,
    maxMessageId: register.max_message_id ?? -1,
  };
}

export function reduceMessages(
  state: MessagesState,
  event: MessagesEvent,
  context: ReducerContext,
): MessagesState {
  switch (event.type) {
    case 'message':
      return reduceNewMessage(state, event, context);
    case 'update_message_flags': {
      if (event.flag !== 'starred') return state;
      const starredIds =
        event.op === 'add'
          ? insertAllSorted(state.starredIds, event.messages)
          : removeIds(state.starredIds, new Set(event.messages));
      return starredIds === state.starredIds ? state : { ...state, starredIds };
    }
    case 'delete_message': {
      const starredIds = removeIds(state.starredIds, new Set(event.message_ids));
      return starredIds === state.starredIds ? state : { ...state, starredIds };
    }
  }
}

function reduceNewMessage(
  state: MessagesState,
  event: MessageEvent,
  context: ReducerContext,
): MessagesState {
  const { message } = event;
  const starredIds = event.flags.includes('starred')
    ? insertSorted(state.starredIds, message.id)
    : state.starredIds;
  const participants = dmMessageParticipants(message, context.ownUserId);
  const recentDms = participants
    ? bumpConversation(state.recentDms, participants, message.id)
    : state.recentDms;
  return {
    starredIds,
    recentDms,
    maxMessageId: Math.max(state.maxMessageId, message.id),
  };
}

function bumpConversation(
  recent: readonly RecentPrivateConversation[],
  userIds: number[],
  messageId: number,
) {
  const key = userIds.join(',');
  const existing = recent.find((c) => c.user_ids.join(',') === key);
  if (existing && existing.max_message_id >= messageId) return recent;
  const others = recent.filter((c) => c !== existing);
  return [{ user_ids: userIds, max_message_id: messageId }, ...others].sort(
    (a, b) => b.max_message_id - a.max_message_id,
  );
}
