/** Bindings for the API documentation's "Real-time events" section: the event queue. */
import type { ApiConnection, RequestOptions } from '../connection';
import type { ClientCapabilities, GetEventsResponse, RegisterResponse } from '../model';

export interface RegisterQueueOptions {
  apply_markdown?: boolean;
  client_gravatar?: boolean;
  include_subscribers?: boolean;
  slim_presence?: boolean;
  event_types?: string[];
  fetch_event_types?: string[];
  all_public_streams?: boolean;
  narrow?: [string, string][];
  client_capabilities?: ClientCapabilities;
}

/** POST /register: https://zulip.com/api/register-queue */
export function registerQueue(
  connection: ApiConnection,
  options: RegisterQueueOptions = {},
  request?: RequestOptions,
) {
  return connection.request<RegisterResponse>('POST', '/register', { ...options }, request);
}

/**
 * GET /events: https://zulip.com/api/get-events
 * Long-polls until the queue has events after `last_event_id`, or a heartbeat. At low fetch
 * priority: no part of the page waits for it, so a browser (and Lighthouse) does not count the
 * page as loading while it is open.
 */
export function getEvents(
  connection: ApiConnection,
  options: { queue_id: string; last_event_id: number; dont_block?: boolean },
  request?: RequestOptions,
) {
  return connection.request<GetEventsResponse>('GET', '/events', options, {
    priority: 'low',
    ...request,
  });
}

/** DELETE /events: https://zulip.com/api/delete-queue */
export function deleteQueue(
  connection: ApiConnection,
  options: { queue_id: string },
  request: { keepalive?: boolean } = {},
) {
  return connection.request<object>('DELETE', '/events', options, request);
}
