/**
 * Users the own user muted: their messages arrive read and screens hide them. The server sends
 * the whole list after each change.
 */
import type { MutedUser, MutedUsersEvent, RegisterResponse } from '../api/model';
import { sameJson } from './same-json';

export interface MutedUsersState {
  /** user id → when they were muted (seconds since the epoch) */
  byId: Readonly<Record<number, number>>;
}

function byIdOf(list: readonly MutedUser[]): Record<number, number> {
  const byId: Record<number, number> = {};
  for (const { id, timestamp } of list) byId[id] = timestamp;
  return byId;
}

export function mutedUsersFromSnapshot(register: RegisterResponse): MutedUsersState {
  return { byId: byIdOf(register.muted_users ?? []) };
}

export function reduceMutedUsers(state: MutedUsersState, event: MutedUsersEvent): MutedUsersState {
  const byId = byIdOf(event.muted_users);
  return sameJson(byId, state.byId) ? state : { byId };
}

export const isUserMuted = (state: MutedUsersState, userId: number) => userId in state.byId;
