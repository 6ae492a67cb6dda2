/** The whole live state of one account on one event queue, built from the register snapshot. */
import type { RegisterResponse, User } from '../api/model';
import type { ParsedEvent } from '../api/parse-event';
import type { ReducerContext } from './context';
import { draftsFromSnapshot, reduceDrafts, type DraftsState } from './drafts';
import { messagesFromSnapshot, reduceMessages, type MessagesState } from './messages';
import { realmFromSnapshot, reduceRealm, type RealmState } from './realm';
import { reduceSettings, type SettingsState } from './settings';
import {
  reduceSubscriptions,
  subscriptionsFromSnapshot,
  type SubscriptionsState,
} from './subscriptions';
import { emptyTyping, reduceTyping, type TypingState } from './typing';
import { reduceUnreads, unreadsFromSnapshot, type UnreadsState } from './unreads';
import { reduceUsers, usersFromSnapshot, type UsersState } from './users';

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
  const context: ReducerContext = { ownUserId: state.ownUserId, now };
  switch (event.type) {
    case 'message':
    case 'update_message_flags':
    case 'delete_message': {
      const unreads = reduceUnreads(state.unreads, event, context);
      const messages = reduceMessages(state.messages, event, context);
      return unreads === state.unreads && messages === state.messages
        ? state
        : { ...state, unreads, messages };
    }
    case 'update_message':
      return withPart(state, 'unreads', reduceUnreads(state.unreads, event, context));
    case 'subscription':
    case 'stream':
      return withPart(state, 'subscriptions', reduceSubscriptions(state.subscriptions, event));
    case 'realm_user':
      return withPart(state, 'users', reduceUsers(state.users, event));
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
    case 'heartbeat':
    case 'unexpected':
      return state;
    default:
      return assertNever(event);
  }
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
