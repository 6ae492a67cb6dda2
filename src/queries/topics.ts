/** The topics of one stream, most recent first. */
import { queryOptions } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import { getStreamTopics } from '../api/routes/streams';

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
