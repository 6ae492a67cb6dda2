/** The topics of one stream, most recent first. */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import { updateMessage } from '../api/routes/messages';
import { getStreamTopics } from '../api/routes/channels';
import { useSessionCore } from '../model/session-core';

export interface TopicSummary {
  name: string;
  maxId: number;
}

export const topicKeys = {
  all: ['topics'] as const,
  stream: (streamId: number) => [...topicKeys.all, streamId] as const,
};

export function streamTopicsQuery(connection: ApiConnection, streamId: number) {
  return queryOptions({
    queryKey: topicKeys.stream(streamId),
    queryFn: async (): Promise<TopicSummary[]> =>
      (await getStreamTopics(connection, streamId)).topics.map((t) => ({
        name: t.name,
        maxId: t.max_id,
      })),
    staleTime: Infinity,
  });
}

/** A stream's topics, most recent first (shared with the sidebar's cache). */
export function useStreamTopics(streamId: number, enabled = true) {
  return useQuery({ ...streamTopicsQuery(useSessionCore().connection, streamId), enabled });
}

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface MoveRequest {
  /** the target message: with change_later, it and the messages after it; with change_all, its topic */
  messageId: number;
  /** the new topic; absent to keep it */
  topic?: string;
  /** the destination channel; absent to stay in the same one */
  streamId?: number;
  propagateMode: PropagateMode;
  notifyOld: boolean;
  notifyNew: boolean;
}

/**
 * Renames, resolves or moves messages with PATCH /messages/{id}. Not optimistic: the server may
 * refuse part of a move (time limits), and its update_message event moves every copy.
 */
export function useMoveMessages() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (move: MoveRequest) =>
      updateMessage(connection, move.messageId, {
        topic: move.topic,
        stream_id: move.streamId,
        propagate_mode: move.propagateMode,
        send_notification_to_old_thread: move.notifyOld,
        send_notification_to_new_thread: move.notifyNew,
      }),
  });
}
