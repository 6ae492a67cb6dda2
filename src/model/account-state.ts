/** The whole live state of one account on one event queue, built from the register snapshot. */
import type { RegisterResponse, User } from '../api/model';
import type { ParsedEvent } from '../api/parse-event';
import { alertWordsFromSnapshot, reduceAlertWords, type AlertWordsState } from './alert-words';
import { botsFromSnapshot, reduceBots, type BotsState } from './bots';
import type { ReducerContext } from './context';
import {
  defaultStreamsFromSnapshot,
  reduceDefaultStreams,
  type DefaultStreamsState,
} from './default-streams';
import { draftsFromSnapshot, reduceDrafts, type DraftsState } from './drafts';
import { linkifiersFromSnapshot, reduceLinkifiers, type LinkifiersState } from './linkifiers';
import { messagesFromSnapshot, reduceMessages, type MessagesState } from './messages';
import { mutedUsersFromSnapshot, reduceMutedUsers, type MutedUsersState } from './muted-users';
import { presenceFromSnapshot, reducePresence, type PresenceState } from './presence';
import {
  profileFieldsFromSnapshot,
  reduceProfileFields,
  type ProfileFieldsState,
} from './profile-fields';
import { realmFromSnapshot, reduceRealm, type RealmState } from './realm';
import { realmEmojiFromSnapshot, reduceRealmEmoji, type RealmEmojiState } from './realm-emoji';
import {
  reduceScheduledMessages,
  scheduledMessagesFromSnapshot,
  type ScheduledMessagesState,
} from './scheduled-messages';
import { reduceSettings, type SettingsState } from './settings';
import {
  reduceSubscriptions,
  subscriptionsFromSnapshot,
  type SubscriptionsState,
} from './subscriptions';
import { emptyTyping, reduceTyping, type TypingState } from './typing';
import { reduceUnreads, unreadsFromSnapshot, type UnreadsState } from './unreads';
import { reduceUserGroups, userGroupsFromSnapshot, type UserGroupsState } from './user-groups';
import {
  isConversationMuted,
  reduceUserTopics,
  userTopicsFromSnapshot,
  type UserTopicsState,
} from './user-topics';
import { reduceUserStatus, userStatusFromSnapshot, type UserStatusState } from './user-status';
import { keepProfileFields, reduceUsers, usersFromSnapshot, type UsersState } from './users';

export interface AccountState {
  queueId: string | null;
  ownUserId: number;
  ownEmail: string;
  realm: RealmState;
  settings: SettingsState;
  users: UsersState;
  subscriptions: SubscriptionsState;
  unreads: UnreadsState;
  messages: MessagesState;
  drafts: DraftsState;
  typing: TypingState;
  userGroups: UserGroupsState;
  linkifiers: LinkifiersState;
  defaultStreams: DefaultStreamsState;
  userTopics: UserTopicsState;
  presence: PresenceState;
  userStatus: UserStatusState;
  profileFields: ProfileFieldsState;
  alertWords: AlertWordsState;
  mutedUsers: MutedUsersState;
  bots: BotsState;
  scheduledMessages: ScheduledMessagesState;
  realmEmoji: RealmEmojiState;
  /**
   * The server restarted while this page was open (a `restart` event): its version then, which
   * may be newer than this page's code.
   */
  serverRestarted: { version: string | null } | null;
}

export function accountStateFromSnapshot(register: RegisterResponse): AccountState {
  const ownUserId = register.user_id;
  return {
    queueId: register.queue_id,
    ownUserId,
    ownEmail: register.email,
    realm: realmFromSnapshot(register),
    settings: register.user_settings,
    users: usersFromSnapshot(register),
    subscriptions: subscriptionsFromSnapshot(register),
    unreads: unreadsFromSnapshot(register.unread_msgs, ownUserId),
    messages: messagesFromSnapshot(register, ownUserId),
    drafts: draftsFromSnapshot(register.drafts),
    typing: emptyTyping,
    userGroups: userGroupsFromSnapshot(register),
    linkifiers: linkifiersFromSnapshot(register),
    defaultStreams: defaultStreamsFromSnapshot(register),
    userTopics: userTopicsFromSnapshot(register),
    presence: presenceFromSnapshot(register),
    userStatus: userStatusFromSnapshot(register),
    profileFields: profileFieldsFromSnapshot(register),
    alertWords: alertWordsFromSnapshot(register),
    mutedUsers: mutedUsersFromSnapshot(register),
    bots: botsFromSnapshot(register),
    scheduledMessages: scheduledMessagesFromSnapshot(register),
    realmEmoji: realmEmojiFromSnapshot(register),
    serverRestarted: null,
  };
}

function assertNever(value: never): never {
  throw new Error(`unhandled event ${JSON.stringify(value)}`);
}

/** Applies one event; returns the same object when the event changes nothing. */
export function reduceAccountEvent(
  state: AccountState,
  event: ParsedEvent,
  now: number,
): AccountState {
  const context: ReducerContext = {
    ownUserId: state.ownUserId,
    now,
    isMutedConversation: (streamId, topic) =>
      isConversationMuted(state.userTopics, state.subscriptions, streamId, topic),
  };
  switch (event.type) {
    case 'message':
    case 'update_message_flags':
    case 'delete_message':
      return reduceMessageEvent(state, event, context);
    case 'update_message':
      return withPart(state, 'unreads', reduceUnreads(state.unreads, event, context));
    case 'subscription':
    case 'stream':
      return withPart(state, 'subscriptions', reduceSubscriptions(state.subscriptions, event));
    case 'realm_user':
      return reduceRealmUserEvent(state, event);
    case 'realm':
      return withPart(state, 'realm', reduceRealm(state.realm, event));
    case 'user_settings':
      return withPart(state, 'settings', reduceSettings(state.settings, event));
    case 'drafts':
      return withPart(state, 'drafts', reduceDrafts(state.drafts, event));
    case 'typing':
      return withPart(
        state,
        'typing',
        reduceTyping(state.typing, event, { ...context, expiryMs: state.realm.typingExpiryMs }),
      );
    case 'user_group':
      return withPart(state, 'userGroups', reduceUserGroups(state.userGroups, event));
    case 'realm_linkifiers':
      return withPart(state, 'linkifiers', reduceLinkifiers(state.linkifiers, event));
    case 'default_streams':
    case 'default_stream_groups':
      return withPart(state, 'defaultStreams', reduceDefaultStreams(state.defaultStreams, event));
    case 'user_topic':
      return withPart(state, 'userTopics', reduceUserTopics(state.userTopics, event));
    case 'presence':
      return withPart(state, 'presence', reducePresence(state.presence, event));
    case 'user_status':
      return withPart(state, 'userStatus', reduceUserStatus(state.userStatus, event));
    case 'custom_profile_fields':
      return reduceProfileFieldsEvent(state, event);
    case 'alert_words':
      return withPart(state, 'alertWords', reduceAlertWords(state.alertWords, event));
    case 'muted_users':
      return withPart(state, 'mutedUsers', reduceMutedUsers(state.mutedUsers, event));
    case 'realm_bot':
      return withPart(state, 'bots', reduceBots(state.bots, event));
    case 'scheduled_messages':
      return withPart(
        state,
        'scheduledMessages',
        reduceScheduledMessages(state.scheduledMessages, event),
      );
    case 'realm_emoji':
      return withPart(state, 'realmEmoji', reduceRealmEmoji(state.realmEmoji, event));
    // Legacy linkifiers and muted topics (this client reads realm_linkifiers and user_topic);
    // reactions, widgets' submessages and invitations live in React Query's caches, not in the
    // account state.
    case 'restart':
      return { ...state, serverRestarted: { version: event.zulip_version ?? null } };
    case 'realm_filters':
    case 'muted_topics':
    case 'reaction':
    case 'submessage':
    case 'invites_changed':
    case 'heartbeat':
    case 'unexpected':
      return state;
    default:
      return assertNever(event);
  }
}

type EventOf<T extends ParsedEvent['type']> = Extract<ParsedEvent, { type: T }>;

/** A new, read or deleted message changes both the unread counts and the messages held. */
function reduceMessageEvent(
  state: AccountState,
  event: EventOf<'message' | 'update_message_flags' | 'delete_message'>,
  context: ReducerContext,
): AccountState {
  const unreads = reduceUnreads(state.unreads, event, context);
  const messages = reduceMessages(state.messages, event, context);
  return unreads === state.unreads && messages === state.messages
    ? state
    : { ...state, unreads, messages };
}

function reduceRealmUserEvent(state: AccountState, event: EventOf<'realm_user'>): AccountState {
  const next = withPart(state, 'users', reduceUsers(state.users, event));
  // Our own API address changes when we hide or show our real one.
  const newEmail =
    event.op === 'update' && event.person.user_id === state.ownUserId
      ? event.person.new_email
      : undefined;
  return newEmail === undefined || newEmail === next.ownEmail
    ? next
    : { ...next, ownEmail: newEmail };
}

/** Users keep only the values of profile fields that still exist. */
function reduceProfileFieldsEvent(
  state: AccountState,
  event: EventOf<'custom_profile_fields'>,
): AccountState {
  const profileFields = reduceProfileFields(state.profileFields, event);
  if (profileFields === state.profileFields) return state;
  const users = keepProfileFields(state.users, new Set(event.fields.map((f) => f.id)));
  return { ...state, profileFields, users };
}

function withPart<K extends keyof AccountState>(
  state: AccountState,
  key: K,
  value: AccountState[K],
): AccountState {
  return value === state[key] ? state : { ...state, [key]: value };
}

export function reduceAccountEvents(
  state: AccountState,
  events: readonly ParsedEvent[],
  now: number,
): AccountState {
  return events.reduce((current, event) => reduceAccountEvent(current, event, now), state);
}

export function ownUser(state: AccountState): User | undefined {
  return state.users.byId[state.ownUserId];
}
