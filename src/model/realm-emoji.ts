/**
 * The organization's custom emoji by id, deactivated ones included: old messages and reactions
 * still name them.
 */
import type { RealmEmoji, RealmEmojiEvent, RegisterResponse } from '../api/model';
import { sameJson } from './same-json';

export interface RealmEmojiState {
  byId: Readonly<Record<string, RealmEmoji>>;
}

export function realmEmojiFromSnapshot(register: RegisterResponse): RealmEmojiState {
  return { byId: register.realm_emoji ?? {} };
}

/** Every change sends the whole set. */
export function reduceRealmEmoji(state: RealmEmojiState, event: RealmEmojiEvent): RealmEmojiState {
  return sameJson(state.byId, event.realm_emoji) ? state : { byId: event.realm_emoji };
}

/** The active emoji called `name`, for the composer and the emoji picker. */
export function activeEmojiNamed(state: RealmEmojiState, name: string): RealmEmoji | undefined {
  return Object.values(state.byId).find((emoji) => !emoji.deactivated && emoji.name === name);
}
