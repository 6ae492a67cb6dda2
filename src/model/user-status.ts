/** The statuses people set (away, a short text, an emoji), by user id. */
import type { RegisterResponse, UserStatus, UserStatusEvent } from '../api/model';

export interface UserStatusState {
  byUserId: Readonly<Record<number, UserStatus>>;
}

export function userStatusFromSnapshot(register: RegisterResponse): UserStatusState {
  const byUserId: Record<number, UserStatus> = {};
  for (const [key, status] of Object.entries(register.user_status ?? {})) {
    const userId = Number(key);
    if (Number.isInteger(userId)) byUserId[userId] = withoutEmptyParts(status);
  }
  return { byUserId };
}

/** Only the parts that are set: `away` only when true, no empty text or emoji. */
function withoutEmptyParts(status: UserStatus): UserStatus {
  const out: UserStatus = {};
  if (status.away) out.away = true;
  if (status.status_text) out.status_text = status.status_text;
  if (status.emoji_name) {
    out.emoji_name = status.emoji_name;
    out.emoji_code = status.emoji_code ?? '';
    out.reaction_type = status.reaction_type ?? 'unicode_emoji';
  }
  return out;
}

/** An event names only what changed; the rest of the status stays. */
export function reduceUserStatus(state: UserStatusState, event: UserStatusEvent): UserStatusState {
  const current = state.byUserId[event.user_id] ?? {};
  const merged: UserStatus = { ...current };
  if (event.away !== undefined) merged.away = event.away;
  if (event.status_text !== undefined) merged.status_text = event.status_text;
  if (event.emoji_name !== undefined) {
    merged.emoji_name = event.emoji_name;
    merged.emoji_code = event.emoji_code ?? '';
    merged.reaction_type = event.reaction_type ?? 'unicode_emoji';
  }
  const next = withoutEmptyParts(merged);
  if (JSON.stringify(next) === JSON.stringify(withoutEmptyParts(current))) return state;
  const byUserId = { ...state.byUserId };
  if (Object.keys(next).length) byUserId[event.user_id] = next;
  else delete byUserId[event.user_id];
  return { byUserId };
}

const NO_STATUS: UserStatus = {};

export function statusOf(state: UserStatusState, userId: number): UserStatus {
  return state.byUserId[userId] ?? NO_STATUS;
}
