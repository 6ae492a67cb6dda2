/**
 * Bindings for the API documentation's "Channels" section: channels (streams on the wire),
 * subscriptions, topics, and the channels new users join by default.
 */
import type { ApiConnection } from '../connection';
import type { Stream, Subscription } from '../model';

/** POST /users/me/subscriptions: https://zulip.com/api/subscribe */
export function subscribe(
  connection: ApiConnection,
  options: {
    subscriptions: { name: string; description?: string }[];
    principals?: number[] | string[];
    // The settings below apply to the channels this request creates.
    invite_only?: boolean;
    is_web_public?: boolean;
    history_public_to_subscribers?: boolean;
    /** 1 anyone, 2 administrators, 3 full members, 4 moderators */
    stream_post_policy?: number;
    announce?: boolean;
  },
) {
  return connection.request<{
    subscribed: Record<string, string[]>;
    already_subscribed: Record<string, string[]>;
    unauthorized?: string[];
  }>('POST', '/users/me/subscriptions', options);
}

/** DELETE /users/me/subscriptions: https://zulip.com/api/unsubscribe */
export function unsubscribe(
  connection: ApiConnection,
  options: { subscriptions: string[]; principals?: number[] | string[] },
) {
  return connection.request<{ removed: string[]; not_removed: string[] }>(
    'DELETE',
    '/users/me/subscriptions',
    options,
  );
}

/** GET /users/me/subscriptions: https://zulip.com/api/get-subscriptions */
export function getSubscriptions(
  connection: ApiConnection,
  options: { include_subscribers?: boolean } = {},
) {
  return connection.request<{ subscriptions: Subscription[] }>(
    'GET',
    '/users/me/subscriptions',
    options,
  );
}

/** POST /users/me/subscriptions/properties: https://zulip.com/api/update-subscription-settings */
export function updateSubscriptionSettings(
  connection: ApiConnection,
  changes: { stream_id: number; property: string; value: boolean | string }[],
) {
  return connection.request<object>('POST', '/users/me/subscriptions/properties', {
    subscription_data: changes,
  });
}

/** GET /streams/{stream_id}/members: https://zulip.com/api/get-subscribers */
export function getSubscribers(connection: ApiConnection, streamId: number) {
  return connection.request<{ subscribers: number[] }>('GET', `/streams/${streamId}/members`);
}

/** GET /streams: https://zulip.com/api/get-streams */
export function getStreams(
  connection: ApiConnection,
  options: {
    include_public?: boolean;
    include_web_public?: boolean;
    include_subscribed?: boolean;
    include_all_active?: boolean;
    include_default?: boolean;
  } = {},
) {
  return connection.request<{ streams: Stream[] }>('GET', '/streams', options);
}

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

/** PATCH /streams/{stream_id}: https://zulip.com/api/update-stream */
export function updateStream(connection: ApiConnection, streamId: number, changes: ChannelChanges) {
  return connection.request<object>('PATCH', `/streams/${streamId}`, { ...changes });
}

/** DELETE /streams/{stream_id}: https://zulip.com/api/archive-stream */
export function archiveStream(connection: ApiConnection, streamId: number) {
  return connection.request<object>('DELETE', `/streams/${streamId}`);
}

/** GET /users/me/{stream_id}/topics: https://zulip.com/api/get-stream-topics (newest first) */
export function getStreamTopics(connection: ApiConnection, streamId: number) {
  return connection.request<{ topics: { max_id: number; name: string }[] }>(
    'GET',
    `/users/me/${streamId}/topics`,
  );
}

/**
 * POST /user_topics: https://zulip.com/api/update-user-topic
 * visibility_policy: 0 clears the policy, 1 mutes, 2 unmutes (in a muted channel), 3 follows.
 */
export function updateUserTopic(
  connection: ApiConnection,
  options: { stream_id: number; topic: string; visibility_policy: 0 | 1 | 2 | 3 },
) {
  return connection.request<object>('POST', '/user_topics', options);
}

/** POST /default_streams: https://zulip.com/api/add-default-stream */
export function addDefaultStream(connection: ApiConnection, options: { stream_id: number }) {
  return connection.request<object>('POST', '/default_streams', options);
}

/** DELETE /default_streams: https://zulip.com/api/remove-default-stream */
export function removeDefaultStream(connection: ApiConnection, options: { stream_id: number }) {
  return connection.request<object>('DELETE', '/default_streams', options);
}

// Default channel groups have no page in the API documentation; the reference server serves
// these endpoints to its own web app.

/** POST /default_stream_groups/create (no documentation page) */
export function createDefaultChannelGroup(
  connection: ApiConnection,
  options: { group_name: string; description: string; stream_names: string[] },
) {
  return connection.request<object>('POST', '/default_stream_groups/create', options);
}

/** PATCH /default_stream_groups/{group_id} (no documentation page): its name or description */
export function updateDefaultChannelGroup(
  connection: ApiConnection,
  groupId: number,
  options: { new_group_name?: string; new_description?: string },
) {
  return connection.request<object>('PATCH', `/default_stream_groups/${groupId}`, options);
}

/** PATCH /default_stream_groups/{group_id}/streams (no documentation page) */
export function changeDefaultChannelGroupChannels(
  connection: ApiConnection,
  groupId: number,
  options: { op: 'add' | 'remove'; stream_names: string[] },
) {
  return connection.request<object>('PATCH', `/default_stream_groups/${groupId}/streams`, options);
}

/** DELETE /default_stream_groups/{group_id} (no documentation page) */
export function deleteDefaultChannelGroup(connection: ApiConnection, groupId: number) {
  return connection.request<object>('DELETE', `/default_stream_groups/${groupId}`);
}
