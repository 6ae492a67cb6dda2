/** Builders with defaults, so that tests say only what matters to them. */
import type {
  DirectMessage,
  Draft,
  MessageEvent,
  MessageFlag,
  RegisterResponse,
  Stream,
  StreamMessage,
  Subscription,
  User,
} from '../api/model';
import { defaultUserSettings } from '../api/model/user-settings';

let nextId = 1000;
const freshId = () => ++nextId;

function user(overrides: Partial<User> = {}): User {
  const id = overrides.user_id ?? freshId();
  return {
    user_id: id,
    email: `user${id}@example.com`,
    delivery_email: null,
    full_name: `User ${id}`,
    date_joined: '2024-01-01T00:00:00Z',
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_billing_admin: false,
    is_bot: false,
    role: 400,
    timezone: 'UTC',
    avatar_url: `/avatar/${id}`,
    avatar_version: 1,
    ...overrides,
  };
}

const selfUser = user({ user_id: 1, email: 'self@example.com', full_name: 'Self User' });
const otherUser = user({ user_id: 2, email: 'other@example.com', full_name: 'Other User' });
const thirdUser = user({ user_id: 3, email: 'third@example.com', full_name: 'Third User' });

function stream(overrides: Partial<Stream> = {}): Stream {
  const id = overrides.stream_id ?? freshId();
  return {
    stream_id: id,
    name: `stream ${id}`,
    description: '',
    rendered_description: '',
    date_created: 1700000000,
    invite_only: false,
    is_web_public: false,
    stream_post_policy: 1,
    is_announcement_only: false,
    message_retention_days: null,
    history_public_to_subscribers: true,
    first_message_id: null,
    can_remove_subscribers_group: 1,
    stream_weekly_traffic: null,
    ...overrides,
  };
}

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    ...stream(overrides),
    color: '#76ce90',
    is_muted: false,
    in_home_view: true,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    ...overrides,
  };
}

const generalStream = subscription({ stream_id: 5, name: 'general' });

function streamMessage(overrides: Partial<StreamMessage> = {}): StreamMessage {
  const sender = otherUser;
  return {
    id: freshId(),
    type: 'stream',
    stream_id: generalStream.stream_id,
    display_recipient: generalStream.name,
    subject: 'lunch',
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    avatar_url: null,
    recipient_id: 100,
    timestamp: 1700000000,
    content: '<p>hello</p>',
    content_type: 'text/html',
    flags: [],
    reactions: [],
    submessages: [],
    is_me_message: false,
    ...overrides,
  };
}

/** A DM from `from` to the other `to` users; the recipient list includes everyone. */
function dmMessage(
  options: { from?: User; to?: User[] } & Partial<DirectMessage> = {},
): DirectMessage {
  const { from = otherUser, to = [selfUser], ...overrides } = options;
  const everyone = [from, ...to.filter((u) => u.user_id !== from.user_id)];
  return {
    id: freshId(),
    type: 'private',
    display_recipient: everyone
      .map((u) => ({ id: u.user_id, email: u.email, full_name: u.full_name }))
      .sort((a, b) => a.id - b.id),
    subject: '',
    sender_id: from.user_id,
    sender_full_name: from.full_name,
    sender_email: from.email,
    avatar_url: null,
    recipient_id: 200,
    timestamp: 1700000000,
    content: '<p>psst</p>',
    content_type: 'text/html',
    flags: [],
    reactions: [],
    submessages: [],
    is_me_message: false,
    ...overrides,
  };
}

function messageEvent(
  message: StreamMessage | DirectMessage,
  flags: MessageFlag[] = message.flags,
  localId?: string,
): MessageEvent {
  const event: MessageEvent = {
    id: freshId(),
    type: 'message',
    message: { ...message, flags },
    flags,
  };
  if (localId !== undefined) event.local_id = localId;
  return event;
}

function draft(overrides: Partial<Draft> = {}): Draft {
  return {
    id: freshId(),
    type: 'stream',
    to: [5],
    topic: 'lunch',
    content: 'half-written',
    timestamp: 1700000000,
    ...overrides,
  };
}

function registerResponse(overrides: Partial<RegisterResponse> = {}): RegisterResponse {
  return {
    queue_id: 'queue-1',
    last_event_id: -1,
    max_message_length: 10000,
    max_topic_length: 60,
    server_typing_started_expiry_period_milliseconds: 15000,
    server_typing_started_wait_period_milliseconds: 10000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    realm_name: 'Test Org',
    realm_icon_url: '/icon.png',
    realm_users: [selfUser, otherUser, thirdUser],
    realm_non_active_users: [],
    user_id: selfUser.user_id,
    email: selfUser.email,
    full_name: selfUser.full_name,
    is_admin: false,
    streams: [generalStream],
    subscriptions: [generalStream],
    unread_msgs: {
      count: 0,
      pms: [],
      streams: [],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
    starred_messages: [],
    recent_private_conversations: [],
    drafts: [],
    user_settings: {
      ...defaultUserSettings(),
      available_notification_sounds: ['zulip'],
      emojiset_choices: [],
    },
    realm_mandatory_topics: false,
    ...overrides,
  };
}

/**
 * A large organization: `self` first, `count - 2` people "Person 00001" and on, and last by name
 * Zacharias Zwölf (user 9999).
 */
function largeOrganization(self: User, count: number): User[] {
  const people = [self];
  for (let i = 1; i <= count - 2; i++)
    people.push(
      user({
        user_id: 10_000 + i,
        email: `person${i}@example.com`,
        full_name: `Person ${String(i).padStart(5, '0')}`,
      }),
    );
  people.push(user({ user_id: 9_999, email: 'z@example.com', full_name: 'Zacharias Zwölf' }));
  return people;
}

export const eg = {
  user,
  largeOrganization,
  selfUser,
  otherUser,
  thirdUser,
  stream,
  subscription,
  generalStream,
  streamMessage,
  dmMessage,
  messageEvent,
  draft,
  registerResponse,
  freshId,
};
