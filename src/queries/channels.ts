/**
 * What the user does to channels and topics. Not optimistic: the subscription and topic events
 * that follow change the live model, and the controls wait for them as they always have.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiConnection } from '../api/connection';
import {
  addDefaultStream,
  archiveStream,
  changeDefaultChannelGroupChannels,
  createDefaultChannelGroup,
  deleteDefaultChannelGroup,
  getSubscribers,
  removeDefaultStream,
  subscribe,
  unsubscribe,
  updateDefaultChannelGroup,
  updateStream,
  updateSubscriptionSettings,
  updateUserTopic,
  type ChannelChanges,
} from '../api/routes/channels';
import { useSessionCore } from '../model/session-core';

/** Joins (subscribes to) a channel by name. */
export function useJoinChannel() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (name: string) => subscribe(connection, { subscriptions: [{ name }] }),
  });
}

/** Leaves (unsubscribes from) a channel by name. */
export function useLeaveChannel() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (name: string) => unsubscribe(connection, { subscriptions: [name] }),
  });
}

export function useMuteChannel(streamId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (muted: boolean) =>
      updateSubscriptionSettings(connection, [
        { stream_id: streamId, property: 'is_muted', value: muted },
      ]),
  });
}

/** 0 follows the channel, 1 mutes, 2 unmutes in a muted channel, 3 follows the topic. */
export type TopicVisibility = 0 | 1 | 2 | 3;

export function useSetTopicVisibility(streamId: number, topic: string) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (policy: TopicVisibility) =>
      updateUserTopic(connection, { stream_id: streamId, topic, visibility_policy: policy }),
  });
}

/** One personal property of a subscription (colour, pin, mute, notifications). */
export function useSetSubscriptionProperty(streamId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ property, value }: { property: string; value: boolean | string }) =>
      updateSubscriptionSettings(connection, [{ stream_id: streamId, property, value }]),
  });
}

/** Changes a channel's settings; the stream events that follow update every window. */
export function useUpdateChannel(streamId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (changes: ChannelChanges) => updateStream(connection, streamId, changes),
  });
}

/** Archives a channel; `onArchived` runs even when the stream event has already closed the panel. */
export function useArchiveChannel(streamId: number, onArchived: () => void) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: () => archiveStream(connection, streamId),
    onSuccess: onArchived,
  });
}

/** The subscribers of a channel the user is not in (subscribed ones come with the register). */
export const channelSubscribersQuery = (connection: ApiConnection, streamId: number) =>
  queryOptions({
    queryKey: ['channel-subscribers', streamId],
    queryFn: async () => (await getSubscribers(connection, streamId)).subscribers,
  });

export function useChannelSubscribers(streamId: number, enabled: boolean) {
  const { connection } = useSessionCore();
  return useQuery({ ...channelSubscribersQuery(connection, streamId), enabled });
}

/** Subscribes or unsubscribes other people; peer events update the lists. */
export function useChangeSubscribers(channelName: string, streamId: number) {
  const { connection } = useSessionCore();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userIds, add }: { userIds: number[]; add: boolean }) => {
      if (add)
        await subscribe(connection, {
          subscriptions: [{ name: channelName }],
          principals: userIds,
        });
      else await unsubscribe(connection, { subscriptions: [channelName], principals: userIds });
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['channel-subscribers', streamId] }),
  });
}

export interface ChannelDraft {
  name: string;
  description: string;
  /** the wire flags of the chosen privacy */
  privacy: { invite_only: boolean; is_web_public: boolean; history_public_to_subscribers: boolean };
  postPolicy: number;
  subscriberIds: number[];
  announce: boolean;
}

/** Creates a channel with the reference's fields. */
export function useCreateChannelWithSettings() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (draft: ChannelDraft) =>
      subscribe(connection, {
        subscriptions: [{ name: draft.name, description: draft.description }],
        principals: draft.subscriberIds.length ? draft.subscriberIds : undefined,
        ...draft.privacy,
        stream_post_policy: draft.postPolicy,
        announce: draft.announce,
      }),
  });
}

export function useSetDefaultChannel() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ streamId, isDefault }: { streamId: number; isDefault: boolean }) =>
      isDefault
        ? addDefaultStream(connection, { stream_id: streamId })
        : removeDefaultStream(connection, { stream_id: streamId }),
  });
}

export function useCreateDefaultChannelGroup() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (group: { name: string; description: string; channelNames: string[] }) =>
      createDefaultChannelGroup(connection, {
        group_name: group.name,
        description: group.description,
        stream_names: group.channelNames,
      }),
  });
}

export function useEditDefaultChannelGroup(groupId: number) {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: async (change: {
      name?: string;
      description?: string;
      add?: string[];
      remove?: string[];
    }) => {
      if (change.name !== undefined || change.description !== undefined)
        await updateDefaultChannelGroup(connection, groupId, {
          new_group_name: change.name,
          new_description: change.description,
        });
      if (change.add?.length)
        await changeDefaultChannelGroupChannels(connection, groupId, {
          op: 'add',
          stream_names: change.add,
        });
      if (change.remove?.length)
        await changeDefaultChannelGroupChannels(connection, groupId, {
          op: 'remove',
          stream_names: change.remove,
        });
    },
  });
}

export function useDeleteDefaultChannelGroup() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: (groupId: number) => deleteDefaultChannelGroup(connection, groupId),
  });
}
