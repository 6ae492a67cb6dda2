/**
 * Wire types of the events GET /events delivers, for the event types this product handles.
 * Every event carries its queue-local `id`.
 */
import type { Draft } from './draft';
import type { Message, MessageFlag } from './message';
import type { Stream, Subscription, SubscriptionProperty } from './stream';
import type { User } from './user';

interface EventBase {
  id: number;
}

export interface MessageEvent extends EventBase {
  type: 'message';
  message: Message;
  flags: MessageFlag[];
  /** only on the queue whose id was passed to POST /messages */
  local_id?: string;
}

/** What the server tells us about a message whose read flag was removed, so unreads can be rebuilt. */
export interface UnreadMessageDetails {
  type: 'stream' | 'private';
  mentioned?: boolean;
  stream_id?: number;
  topic?: string;
  /** for direct messages: the other participants (empty for a self DM) */
  user_ids?: number[];
}

export interface UpdateMessageFlagsEvent extends EventBase {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  flag: MessageFlag;
  messages: number[];
  all: boolean;
  message_details?: Record<string, UnreadMessageDetails>;
}

export interface DeleteMessageEvent extends EventBase {
  type: 'delete_message';
  message_ids: number[];
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
}

export interface UpdateMessageEvent extends EventBase {
  type: 'update_message';
  user_id: number | null;
  message_id: number;
  message_ids: number[];
  edit_timestamp: number;
  rendering_only: boolean;
  flags?: MessageFlag[];
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  stream_id?: number;
  new_stream_id?: number;
  orig_subject?: string;
  subject?: string;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
}

export type SubscriptionEvent =
  | (EventBase & { type: 'subscription'; op: 'add'; subscriptions: Subscription[] })
  | (EventBase & {
      type: 'subscription';
      op: 'remove';
      subscriptions: { stream_id: number; name: string }[];
    })
  | (EventBase & {
      type: 'subscription';
      op: 'update';
      stream_id: number;
      property: SubscriptionProperty;
      value: string | boolean;
    })
  | (EventBase & {
      type: 'subscription';
      op: 'peer_add' | 'peer_remove';
      stream_ids: number[];
      user_ids: number[];
    });

export type StreamEvent =
  | (EventBase & { type: 'stream'; op: 'create'; streams: Stream[] })
  | (EventBase & { type: 'stream'; op: 'delete'; streams: { stream_id: number }[] })
  | (EventBase & {
      type: 'stream';
      op: 'update';
      stream_id: number;
      property: string;
      value: unknown;
      rendered_description?: string;
    });

export type RealmUserEvent =
  | (EventBase & { type: 'realm_user'; op: 'add'; person: User })
  | (EventBase & { type: 'realm_user'; op: 'update'; person: Partial<User> & { user_id: number } })
  | (EventBase & {
      type: 'realm_user';
      op: 'remove';
      person: { user_id: number; full_name: string };
    });

export type RealmEvent =
  | (EventBase & { type: 'realm'; op: 'update'; property: string; value: unknown })
  | (EventBase & {
      type: 'realm';
      op: 'update_dict';
      property: string;
      data: Record<string, unknown>;
    });

export interface UserSettingsEvent extends EventBase {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: unknown;
  language_name?: string;
}

export type DraftsEvent =
  | (EventBase & { type: 'drafts'; op: 'add'; drafts: Draft[] })
  | (EventBase & { type: 'drafts'; op: 'update'; draft: Draft })
  | (EventBase & { type: 'drafts'; op: 'remove'; draft_id: number });

export interface TypingUserRef {
  user_id: number;
  email: string;
}

export interface TypingEvent extends EventBase {
  type: 'typing';
  op: 'start' | 'stop';
  message_type: 'direct' | 'stream';
  sender: TypingUserRef;
  /** direct messages: every participant, the sender included */
  recipients?: TypingUserRef[];
  stream_id?: number;
  topic?: string;
}

export interface HeartbeatEvent extends EventBase {
  type: 'heartbeat';
}

/** Every event this product understands, as the server sends it. */
export type ServerEvent =
  | MessageEvent
  | UpdateMessageFlagsEvent
  | DeleteMessageEvent
  | UpdateMessageEvent
  | SubscriptionEvent
  | StreamEvent
  | RealmUserEvent
  | RealmEvent
  | UserSettingsEvent
  | DraftsEvent
  | TypingEvent
  | HeartbeatEvent;

export interface GetEventsResponse {
  events: ({ id: number; type: string } & Record<string, unknown>)[];
  queue_id?: string;
}
