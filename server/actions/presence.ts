import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { PresenceTable, Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { activeUserIds } from '../lib/access.js';
import { isDbId, MAX_DB_INT, nowSeconds } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';

/**
 * Presence: when each user was last connected and last active. It is shared by every server
 * process, so it lives in the database (one row per user). Nothing is shared when the
 * organization disables presence, nor for users who turned `presence_enabled` off.
 */
export const OFFLINE_THRESHOLD_SECONDS = 140;
/** Reports closer together than this change nothing, so frequent pings cost no write. */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** Legacy format: "active" when the last activity is this close to the last connection. */
const LEGACY_ACTIVITY_OFFSET_SECONDS = 70;
const DEFAULT_HISTORY_DAYS = 14;
/** Longer look-backs than this cover everything anyway (and keep the bound a 32-bit number). */
const MAX_HISTORY_DAYS = 10000;

type PresenceRow = Selectable<PresenceTable>;

function legacyInfo(row: PresenceRow) {
  const active = row.last_active_time + LEGACY_ACTIVITY_OFFSET_SECONDS >= row.last_connected_time;
  return {
    client: 'website',
    status: active ? ('active' as const) : ('idle' as const),
    timestamp: active ? row.last_active_time : row.last_connected_time,
    pushable: false,
  };
}

/** Per-client form of older servers: since upstream level 178 always `website` plus `aggregated`. */
function legacyPresence(row: PresenceRow) {
  const info = legacyInfo(row);
  return {
    website: info,
    aggregated: { client: info.client, status: info.status, timestamp: info.timestamp },
  };
}

function modernPresence(row: PresenceRow) {
  return { active_timestamp: row.last_active_time, idle_timestamp: row.last_connected_time };
}

const sharesPresence = (u: { is_active: 0 | 1; is_bot: 0 | 1; settings: string }) =>
  !!u.is_active && !u.is_bot && parseSettings(USER_SETTING_DEFAULTS, u.settings).presence_enabled;

/** Presence rows others may see, newest change last. */
async function visibleRows(
  db: Database,
  realm: Realm,
  opts: { sinceUpdateId?: number; historyDays?: number } = {},
) {
  if (realmSettings(realm).presence_disabled) return [];
  let q = db
    .selectFrom('presences')
    .innerJoin('users', 'users.id', 'presences.user_id')
    .selectAll('presences')
    .select(['users.email', 'users.is_active', 'users.is_bot', 'users.settings'])
    .where('presences.realm_id', '=', realm.id);
  if (opts.sinceUpdateId !== undefined && opts.sinceUpdateId > 0) {
    q = q.where('presences.update_id', '>', Math.min(opts.sinceUpdateId, MAX_DB_INT));
  } else {
    const days = Math.min(opts.historyDays ?? DEFAULT_HISTORY_DAYS, MAX_HISTORY_DAYS);
    q = q.where('presences.last_connected_time', '>=', nowSeconds() - days * 86400);
  }
  return (await q.orderBy('presences.update_id').execute()).filter(sharesPresence);
}

export interface PresenceQuery {
  /** modern format, keyed by user id (else legacy, keyed by email) */
  slim: boolean;
  lastUpdateId?: number;
  historyDays?: number;
}

/** `presences`, `presence_last_update_id` and `server_timestamp`, as register and POST /users/me/presence give them. */
export async function presenceSnapshot(db: Database, realm: Realm, q: PresenceQuery) {
  const rows = await visibleRows(db, realm, {
    sinceUpdateId: q.lastUpdateId,
    historyDays: q.historyDays,
  });
  const presences: Record<string, unknown> = {};
  for (const r of rows) {
    if (q.slim) presences[String(r.user_id)] = modernPresence(r);
    else presences[r.email] = legacyPresence(r);
  }
  const last = rows.reduce((max, r) => Math.max(max, r.update_id), q.lastUpdateId ?? -1);
  return { presences, server_timestamp: Date.now() / 1000, presence_last_update_id: last };
}

/**
 * Records a report. Others hear of it (a legacy-format `presence` event) when the user was not
 * known, comes back after being offline, or becomes active after being idle.
 */
async function recordPresence(
  trx: Database,
  realm: Realm,
  user: User,
  status: 'active' | 'idle',
  events: Delivery[],
) {
  const now = nowSeconds();
  const prev = await trx
    .selectFrom('presences')
    .selectAll()
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  const isActive = status === 'active';
  if (prev) {
    const connectedStale = prev.last_connected_time + PRESENCE_UPDATE_MIN_FREQ_SECONDS <= now;
    const activeStale = isActive && prev.last_active_time + PRESENCE_UPDATE_MIN_FREQ_SECONDS <= now;
    if (!connectedStale && !activeStale) return;
  }
  const max = await trx
    .selectFrom('presences')
    .select((eb) => eb.fn.max('update_id').as('m'))
    .where('realm_id', '=', realm.id)
    .executeTakeFirst();
  const row: PresenceRow = {
    user_id: user.id,
    realm_id: realm.id,
    last_connected_time: now,
    last_active_time: isActive ? now : (prev?.last_active_time ?? 0),
    update_id: Number(max?.m ?? 0) + 1,
  };
  await trx
    .insertInto('presences')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        last_connected_time: row.last_connected_time,
        last_active_time: row.last_active_time,
        update_id: row.update_id,
      }),
    )
    .execute();
  const cameBack = !prev || prev.last_connected_time + OFFLINE_THRESHOLD_SECONDS <= now;
  const becameActive =
    isActive && (!prev || prev.last_active_time + OFFLINE_THRESHOLD_SECONDS <= now);
  if (!(cameBack || becameActive) || realmSettings(realm).presence_disabled) return;
  events.push({
    realmId: realm.id,
    userIds: await activeUserIds(trx, realm.id),
    event: {
      type: 'presence',
      user_id: user.id,
      email: user.email,
      server_timestamp: Date.now() / 1000,
      presence: { website: legacyInfo(row) },
    },
  });
}

/**
 * Presence sharing turned off or on: others' clients learn it from a presence event, since their
 * snapshot of this user no longer (or again) matches. Off shows the user offline, as a
 * last-connection time past the offline threshold; on shows the stored presence, if any.
 */
export async function presenceSharingChanged(
  trx: Database,
  realm: Realm,
  user: User,
  enabled: boolean,
  events: Delivery[],
) {
  if (realmSettings(realm).presence_disabled || user.is_bot) return;
  const row = await trx
    .selectFrom('presences')
    .selectAll()
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (!row) return;
  const longAgo = nowSeconds() - OFFLINE_THRESHOLD_SECONDS - 1;
  const info = enabled
    ? legacyInfo(row)
    : {
        client: 'website',
        status: 'idle' as const,
        timestamp: Math.min(longAgo, row.last_connected_time),
        pushable: false,
      };
  const others = (await activeUserIds(trx, realm.id)).filter((id) => id !== user.id);
  events.push({
    realmId: realm.id,
    userIds: others,
    event: {
      type: 'presence',
      user_id: user.id,
      email: user.email,
      server_timestamp: Date.now() / 1000,
      presence: { website: info },
    },
  });
}

export interface PresenceReport {
  status: 'active' | 'idle';
  ping_only: boolean;
  new_user_input: boolean;
  slim_presence: boolean;
  last_update_id?: number;
  history_limit_days?: number;
}

/** POST /users/me/presence */
export async function updatePresence(
  ctx: AppContext,
  realm: Realm,
  user: User,
  report: PresenceReport,
) {
  if (sharesPresence(user))
    await transact(ctx, (trx, events) => recordPresence(trx, realm, user, report.status, events));
  if (report.ping_only) return {};
  const slim = report.slim_presence || report.last_update_id !== undefined;
  return presenceSnapshot(ctx.db, realm, {
    slim,
    lastUpdateId: report.last_update_id,
    historyDays: report.history_limit_days,
  });
}

/** GET /realm/presence: everyone's presence in the legacy format. */
export async function realmPresence(ctx: AppContext, realm: Realm) {
  const { presences, server_timestamp } = await presenceSnapshot(ctx.db, realm, { slim: false });
  return { presences, server_timestamp };
}

/** GET /users/{user_id_or_email}/presence */
export async function userPresence(ctx: AppContext, realm: Realm, ref: string) {
  let q = ctx.db.selectFrom('users').selectAll().where('realm_id', '=', realm.id);
  if (/^\d+$/.test(ref)) q = q.where('id', '=', isDbId(Number(ref)) ? Number(ref) : -1);
  else q = q.where('email', '=', ref.trim().toLowerCase());
  const target = await q.executeTakeFirst();
  if (!target) throw badRequest('No such user');
  if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
  const row = (await visibleRows(ctx.db, realm)).find((r) => r.user_id === target.id);
  if (!row) throw badRequest(`No presence data for ${ref}`);
  const info = legacyInfo(row);
  const offline = nowSeconds() - info.timestamp > OFFLINE_THRESHOLD_SECONDS;
  return {
    presence: {
      website: { status: info.status, timestamp: info.timestamp },
      aggregated: { status: offline ? 'offline' : info.status, timestamp: info.timestamp },
    },
  };
}
