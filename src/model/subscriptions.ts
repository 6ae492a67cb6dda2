/** Streams the user can see, and the subset they are subscribed to, with their settings. */
import type {
  RegisterResponse,
  Stream,
  StreamEvent,
  Subscription,
  SubscriptionEvent,
} from '../api/model';

export interface SubscriptionsState {
  streams: Readonly<Record<number, Stream>>;
  subscriptions: Readonly<Record<number, Subscription>>;
}

export function subscriptionsFromSnapshot(register: RegisterResponse): SubscriptionsState {
  const streams: Record<number, Stream> = {};
  for (const stream of register.streams ?? []) streams[stream.stream_id] = stream;
  const subscriptions: Record<number, Subscription> = {};
  for (const sub of register.subscriptions ?? []) {
    subscriptions[sub.stream_id] = sub;
    streams[sub.stream_id] ??= sub;
  }
  return { streams, subscriptions };
}

export function reduceSubscriptions(
  state: SubscriptionsState,
  event: SubscriptionEvent | StreamEvent,
): SubscriptionsState {
  if (event.type === 'stream') return reduceStreamEvent(state, event);
  switch (event.op) {
    case 'add': {
      const subscriptions = { ...state.subscriptions };
      const streams = { ...state.streams };
      for (const sub of event.subscriptions) {
        subscriptions[sub.stream_id] = sub;
        streams[sub.stream_id] ??= sub;
      }
      return { streams, subscriptions };
    }
    case 'remove': {
      if (!event.subscriptions.some((s) => s.stream_id in state.subscriptions)) return state;
      const subscriptions = { ...state.subscriptions };
      for (const { stream_id } of event.subscriptions) delete subscriptions[stream_id];
      return { ...state, subscriptions };
    }
    case 'update':
      return updateSubscription(state, event.stream_id, event.property, event.value);
    case 'peer_add':
    case 'peer_remove':
      return updatePeers(state, event.stream_ids, event.user_ids, event.op === 'peer_add');
  }
}

function updateSubscription(
  state: SubscriptionsState,
  streamId: number,
  property: string,
  value: unknown,
): SubscriptionsState {
  const sub = state.subscriptions[streamId];
  if (!sub) return state;
  const changes: Partial<Subscription> = { [property]: value };
  // The legacy inverse property keeps the modern one in step (servers send both).
  if (property === 'in_home_view') changes.is_muted = !value;
  if (property === 'is_muted') changes.in_home_view = !value;
  const unchanged = Object.entries(changes).every(
    ([key, v]) => sub[key as keyof Subscription] === v,
  );
  if (unchanged) return state;
  return {
    ...state,
    subscriptions: { ...state.subscriptions, [streamId]: { ...sub, ...changes } },
  };
}

function updatePeers(
  state: SubscriptionsState,
  streamIds: number[],
  userIds: number[],
  add: boolean,
): SubscriptionsState {
  let subscriptions = state.subscriptions;
  for (const streamId of streamIds) {
    const sub = subscriptions[streamId];
    if (!sub?.subscribers) continue;
    const current = new Set(sub.subscribers);
    for (const userId of userIds) {
      if (add) current.add(userId);
      else current.delete(userId);
    }
    if (
      current.size === sub.subscribers.length &&
      userIds.every((id) => sub.subscribers!.includes(id) === add)
    )
      continue;
    subscriptions = {
      ...subscriptions,
      [streamId]: { ...sub, subscribers: [...current].sort((a, b) => a - b) },
    };
  }
  return subscriptions === state.subscriptions ? state : { ...state, subscriptions };
}

function reduceStreamEvent(state: SubscriptionsState, event: StreamEvent): SubscriptionsState {
  switch (event.op) {
    case 'create': {
      const streams = { ...state.streams };
      for (const stream of event.streams) streams[stream.stream_id] = stream;
      return { ...state, streams };
    }
    case 'delete': {
      const streams = { ...state.streams };
      const subscriptions = { ...state.subscriptions };
      for (const { stream_id } of event.streams) {
        delete streams[stream_id];
        delete subscriptions[stream_id];
      }
      return { streams, subscriptions };
    }
    case 'update': {
      const stream = state.streams[event.stream_id];
      const sub = state.subscriptions[event.stream_id];
      const changes: Record<string, unknown> = { [event.property]: event.value };
      if (event.rendered_description !== undefined)
        changes.rendered_description = event.rendered_description;
      // A privacy change carries all three flags in one event.
      if (event.history_public_to_subscribers !== undefined)
        changes.history_public_to_subscribers = event.history_public_to_subscribers;
      if (event.is_web_public !== undefined) changes.is_web_public = event.is_web_public;
      return {
        streams: stream
          ? { ...state.streams, [event.stream_id]: { ...stream, ...changes } }
          : state.streams,
        subscriptions: sub
          ? { ...state.subscriptions, [event.stream_id]: { ...sub, ...changes } }
          : state.subscriptions,
      };
    }
  }
}
