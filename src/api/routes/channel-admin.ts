/** Bindings for administering channels: their settings, subscribers, and the default channels. */
import type { ApiConnection } from '../connection';

/** The channel settings PATCH /streams/{stream_id} changes; only those given are changed. */
export interface ChannelChanges {
  new_name?: string;
  description?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  /** 1 anyone, 2 administrators, 3 full members, 4 moderators */
  stream_post_policy?: number;
  /** a number of days, "unlimited", or "realm_default" */
  message_retention_days?: number | 'unlimited' | 'realm_default';
}

/** PATCH /streams/{stream_id} */
export function updateChannel(
  connection: ApiConnection,
  streamId: number,
  changes: ChannelChanges,
) {
  return connection.request<object>('PATCH', `/streams/${streamId}`, { ...changes });
}

/** DELETE /streams/{stream_id}: archives the channel. */
export function archiveChannel(connection: ApiConnection, streamId: number) {
  return connection.request<object>('DELETE', `/streams/${streamId}`);
}

/** GET /streams/{stream_id}/members */
export function getChannelSubscribers(connection: ApiConnection, streamId: number) {
  return connection.request<{ subscribers: number[] }>('GET', `/streams/${streamId}/members`);
}

/** POST /users/me/subscriptions with the new channel's settings (creates it when new). */
export function createChannel(
  connection: ApiConnection,
  options: {
    subscriptions: { name: string; description: string }[];
    principals?: number[];
    invite_only: boolean;
    is_web_public: boolean;
    history_public_to_subscribers: boolean;
    stream_post_policy: number;
    announce: boolean;
  },
) {
  return connection.request<{
    subscribed: Record<string, string[]>;
    already_subscribed: Record<string, string[]>;
  }>('POST', '/users/me/subscriptions', options);
}

/** POST or DELETE /default_streams */
export function setDefaultChannel(connection: ApiConnection, streamId: number, isDefault: boolean) {
  return connection.request<object>(isDefault ? 'POST' : 'DELETE', '/default_streams', {
    stream_id: streamId,
  });
}

/** POST /default_stream_groups/create */
export function createDefaultChannelGroup(
  connection: ApiConnection,
  options: { group_name: string; description: string; stream_names: string[] },
) {
  return connection.request<object>('POST', '/default_stream_groups/create', options);
}

/** PATCH /default_stream_groups/{group_id}: its name or description. */
export function updateDefaultChannelGroup(
  connection: ApiConnection,
  groupId: number,
  options: { new_group_name?: string; new_description?: string },
) {
  return connection.request<object>('PATCH', `/default_stream_groups/${groupId}`, options);
}

/** PATCH /default_stream_groups/{group_id}/streams */
export function changeDefaultChannelGroupChannels(
  connection: ApiConnection,
  groupId: number,
  options: { op: 'add' | 'remove'; stream_names: string[] },
) {
  return connection.request<object>('PATCH', `/default_stream_groups/${groupId}/streams`, options);
}

/** DELETE /default_stream_groups/{group_id} */
export function deleteDefaultChannelGroup(connection: ApiConnection, groupId: number) {
  return connection.request<object>('DELETE', `/default_stream_groups/${groupId}`);
}
