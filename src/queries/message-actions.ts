/**
 * What the user does to one message: react, edit, delete, and the source text editing starts
 * from. Reactions are optimistic (the pill changes under the finger) and roll back on failure;
 * edits and deletions wait for the server, whose events then change every copy.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import type { Message } from '../api/model';
import {
  addReaction,
  deleteMessage,
  getMessage,
  removeReaction,
  updateMessage,
  type ReactionRef,
} from '../api/routes/messages';
import { useSessionCore, type SessionCore } from '../model/session-core';
import { applyEventsToQueryCache } from './apply-event';

export type { ReactionRef };

export const messageSourceKeys = {
  all: ['message-source'] as const,
  one: (messageId: number) => [...messageSourceKeys.all, messageId] as const,
};

/** The Markdown source of one message; not kept once the editor closes. */
export function messageSourceQuery(connection: ApiConnection, messageId: number) {
  return queryOptions({
    queryKey: messageSourceKeys.one(messageId),
    queryFn: () => getMessage(connection, messageId),
    gcTime: 0,
  });
}

export function useMessageSource(messageId: number) {
  return useQuery(messageSourceQuery(useSessionCore().connection, messageId));
}

export interface ReactionChange {
  message: Message;
  reaction: ReactionRef;
  add: boolean;
}

/**
 * Shows one's own reaction added or removed in every loaded list, as the server's event would.
 * Without an emoji code the server's event could not be matched to it, so nothing is shown early.
 */
function applyReactionLocally(session: SessionCore, change: ReactionChange, add: boolean) {
  const store = session.state.getState().store;
  const { emoji_name, emoji_code, reaction_type = 'unicode_emoji' } = change.reaction;
  if (!store || !emoji_code) return;
  const user_id = store.getState().ownUserId;
  applyEventsToQueryCache(
    session.queryClient,
    [
      {
        id: -1,
        type: 'reaction',
        op: add ? 'add' : 'remove',
        message_id: change.message.id,
        emoji_name,
        emoji_code,
        reaction_type,
        user_id,
      },
    ],
    user_id,
  );
}

/** Adds or removes one's own reaction on a message. */
export function useToggleReaction() {
  const session = useSessionCore();
  return useMutation({
    mutationFn: async (change: ReactionChange) => {
      applyReactionLocally(session, change, change.add);
      try {
        const send = change.add ? addReaction : removeReaction;
        await send(session.connection, change.message.id, change.reaction);
      } catch (error) {
        applyReactionLocally(session, change, !change.add);
        throw error;
      }
    },
  });
}

export function useDeleteMessage() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (messageId: number) => deleteMessage(connection, messageId),
  });
}

/** Saves new content for a message; the rendering arrives as an update_message event. */
export function useEditMessage(messageId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (content: string) => updateMessage(connection, messageId, { content }),
  });
}
