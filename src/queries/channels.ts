/**
 * What the user does to channels and topics. Not optimistic: the subscription and topic events
 * that follow change the live model, and the controls wait for them as they always have.
 */
import { useMutation } from '@tanstack/react-query';
import {
  setTopicVisibility,
  subscribe,
  unsubscribe,
  updateSubscriptionSettings,
} from '../api/routes/streams';
import { useSessionCore } from '../model/session-core';

export interface NewChannel {
  name: string;
  description: string;
  isPrivate: boolean;
}

export function useCreateChannel() {
  const { connection } = useSessionCore();
  return useMutation({
    mutationFn: ({ name, description, isPrivate }: NewChannel) =>
      subscribe(connection, { subscriptions: [{ name, description }], invite_only: isPrivate }),
  });
}

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
      setTopicVisibility(connection, { stream_id: streamId, topic, visibility_policy: policy }),
  });
}
