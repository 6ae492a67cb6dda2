/** Bindings for streams and subscriptions. */
import type { ApiConnection } from '../connection';
import type { Stream, Subscription } from '../model';

/** GET /streams */
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

/** GET /users/me/subscriptions */
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

/** POST /users/me/subscriptions */
export function subscribe(
  connection: ApiConnection,
  options: {
    subscriptions: { name: string; description?: string }[];
    principals?: number[] | string[];
    invite_only?: boolean;
  },
) {
  return connection.request<{
    subscribed: Record<string, string[]>;
    already_subscribed: Record<string, string[]>;
    unauthorized?: string[];
  }>('POST', '/users/me/subscriptions', options);
}

/** DELETE /users/me/subscriptions */
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

/** GET /users/me/{stream_id}/topics: most recent first */
export function getStreamTopics(connection: ApiConnection, streamId: number) {
  return connection.request<{ topics: { max_id: number; name: string }[] }>(
    'GET',
    `/users/me/${streamId}/topics`,
  );
}

/** POST /user_topics: 0 clears the policy, 1 mutes, 2 unmutes (in a muted channel), 3 follows. */
export function setTopicVisibility(
  connection: ApiConnection,
  options: { stream_id: number; topic: string; visibility_policy: 0 | 1 | 2 | 3 },
) {
  return connection.request<object>('POST', '/user_topics', options);
}

/** POST /users/me/subscriptions/properties */
export function updateSubscriptionSettings(
  connection: ApiConnection,
  changes: { stream_id: number; property: string; value: boolean | string }[],
) {
  return connection.request<object>('POST', '/users/me/subscriptions/properties', {
    subscription_data: changes,
  });
}
