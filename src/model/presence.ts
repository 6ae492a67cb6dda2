/**
 * When each user was last active and last connected, in the modern (slim) form. Legacy events
 * report one client's status with one timestamp; both forms fold into the same two times.
 */
import type {
  LegacyPresenceInfo,
  PresenceEvent,
  RegisterResponse,
  UserPresence,
} from '../api/model';

export interface PresenceState {
  byUserId: Readonly<Record<number, UserPresence>>;
  /** a user not heard of for this long is offline */
  offlineThresholdSeconds: number;
}

export type PresenceStatus = 'active' | 'idle' | 'offline';

const NEVER: UserPresence = { active_timestamp: 0, idle_timestamp: 0 };

export function presenceFromSnapshot(register: RegisterResponse): PresenceState {
  const byUserId: Record<number, UserPresence> = {};
  for (const [key, value] of Object.entries(register.presences ?? {})) {
    const userId = Number(key);
    // Keys are user ids with slim_presence; a server that ignored it keyed them by email.
    if (Number.isInteger(userId)) byUserId[userId] = fromAnyForm(value);
  }
  return {
    byUserId,
    offlineThresholdSeconds: register.server_presence_offline_threshold_seconds ?? 140,
  };
}

/** A snapshot entry: modern, or a legacy record of clients. */
function fromAnyForm(value: UserPresence | Record<string, LegacyPresenceInfo>): UserPresence {
  if ('active_timestamp' in value || 'idle_timestamp' in value) {
    const modern = value as Partial<UserPresence>;
    return {
      active_timestamp: modern.active_timestamp ?? 0,
      idle_timestamp: modern.idle_timestamp ?? 0,
    };
  }
  return foldLegacy(NEVER, Object.values(value as Record<string, LegacyPresenceInfo>));
}

/**
 * Being active implies being connected, so an active report moves both times; an idle report
 * moves only the connection time.
 */
function foldLegacy(current: UserPresence, records: readonly LegacyPresenceInfo[]): UserPresence {
  let { active_timestamp, idle_timestamp } = current;
  for (const record of records) {
    if (record.status === 'active') active_timestamp = Math.max(active_timestamp, record.timestamp);
    if (record.status === 'active' || record.status === 'idle')
      idle_timestamp = Math.max(idle_timestamp, record.timestamp);
  }
  return { active_timestamp, idle_timestamp };
}

export function reducePresence(state: PresenceState, event: PresenceEvent): PresenceState {
  let byUserId = state.byUserId;
  const put = (userId: number, next: UserPresence) => {
    const current = byUserId[userId];
    if (
      current &&
      current.active_timestamp === next.active_timestamp &&
      current.idle_timestamp === next.idle_timestamp
    )
      return;
    byUserId = { ...byUserId, [userId]: next };
  };
  if (event.presences) {
    for (const [key, value] of Object.entries(event.presences))
      put(Number(key), fromAnyForm(value));
  } else if (event.user_id !== undefined && event.presence) {
    // A legacy event is the user's latest state, not one more sighting: an idle report dated in
    // the past (sent when the user stops sharing presence) takes them offline.
    const current = state.byUserId[event.user_id] ?? NEVER;
    const latest = foldLegacy(NEVER, Object.values(event.presence));
    put(event.user_id, {
      active_timestamp: Math.min(
        Math.max(current.active_timestamp, latest.active_timestamp),
        latest.idle_timestamp,
      ),
      idle_timestamp: latest.idle_timestamp,
    });
  }
  return byUserId === state.byUserId ? state : { ...state, byUserId };
}

/** A user's status at `nowSeconds`, as the people list shows it. */
export function presenceStatus(
  state: PresenceState,
  userId: number,
  nowSeconds: number,
): PresenceStatus {
  const presence = state.byUserId[userId];
  if (!presence) return 'offline';
  if (nowSeconds - presence.active_timestamp < state.offlineThresholdSeconds) return 'active';
  if (nowSeconds - presence.idle_timestamp < state.offlineThresholdSeconds) return 'idle';
  return 'offline';
}
