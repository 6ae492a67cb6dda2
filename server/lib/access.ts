import type { Database } from '../db/index.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { isAdmin, isGuest, ROLE } from '../domain/roles.js';

export interface StreamAccessOptions {
  /**
   * Let organization administrators at private channels they are not in. Only for the routes that
   * administer channels (their settings, subscriber lists, removing subscribers, default channels
   * being removed) and for channel metadata in listings; never for a channel's content.
   */
  allowRealmAdmin?: boolean;
}

/**
 * May `user` (null: a spectator) reach this channel? The one rule (upstream
 * `check_basic_stream_access`): web-public channels for everyone, public ones for all but guests,
 * any channel one is subscribed to, and, only when the caller asks, every channel for
 * administrators. A channel one may not reach is answered exactly as one that does not exist, so
 * callers turn `false` into their "does not exist" error.
 */
export function canAccessStream(
  user: User | null,
  stream: Stream,
  subscribed: boolean,
  opts: StreamAccessOptions = {},
): boolean {
  if (stream.deactivated) return false;
  if (stream.is_web_public) return true;
  if (user === null) return false;
  if (subscribed) return true;
  if (!stream.invite_only && !isGuest(user)) return true;
  return !!opts.allowRealmAdmin && isAdmin(user);
}

/**
 * Channel metadata (name, description, settings) in listings, the register snapshot and stream
 * events: administrators see every private channel's metadata, not its messages.
 */
export const canSeeStream = (user: User | null, stream: Stream, subscribed: boolean): boolean =>
  canAccessStream(user, stream, subscribed, { allowRealmAdmin: true });

/** Public channels are readable without subscribing, for everyone but guests. */
export const mayAccessPublicStreams = (user: User) => !isGuest(user);

/** Whether the user can read the stream's messages that were not sent to them. */
export function canReadStreamHistory(
  user: User | null,
  stream: Stream,
  subscribed: boolean,
): boolean {
  if (stream.deactivated) return false;
  if (stream.is_web_public) return true;
  if (user === null) return false;
  if (!stream.invite_only) return mayAccessPublicStreams(user) || subscribed;
  return subscribed && !!stream.history_public_to_subscribers;
}

/** canReadStreamHistory, with the user's subscription to the stream looked up. */
export async function readsStreamHistory(db: Database, user: User, stream: Stream) {
  return canReadStreamHistory(user, stream, await isSubscribed(db, user.id, stream.id));
}

/**
 * The ids of the messages the user received, as a subquery: what a search of a stream is limited
 * to when the user cannot read its whole history.
 */
export const receivedMessageIds = (db: Database, userId: number) =>
  db.selectFrom('user_messages').select('message_id').where('user_id', '=', userId);

export async function subscribedStreamIds(db: Database, userId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('stream_id')
    .where('user_id', '=', userId)
    .where('active', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.stream_id));
}

export async function isSubscribed(
  db: Database,
  userId: number,
  streamId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return !!row;
}

export async function activeSubscriberIds(db: Database, streamId: number): Promise<number[]> {
  const ids = await cachedRow(db, `subscribers:${streamId}`, async () =>
    (await activeSubscribers.all(db, streamId)).map((r) => r.user_id),
  );
  return ids!;
}

const activeSubscribers = compiledQuery((db, streamId: number) =>
  db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select('subscriptions.user_id')
    .where('subscriptions.stream_id', '=', streamId)
    .where('subscriptions.active', '=', 1)
    .where('users.is_active', '=', 1)
    .orderBy('subscriptions.user_id'),
);

/** Users who should hear about changes to a stream: subscribers, and everyone for public ones. */
export async function streamAudience(db: Database, stream: Stream): Promise<number[]> {
  if (stream.invite_only) {
    const subs = await activeSubscriberIds(db, stream.id);
    const admins = await db
      .selectFrom('users')
      .select('id')
      .where('realm_id', '=', stream.realm_id)
      .where('is_active', '=', 1)
      .where('role', '<=', 200)
      .execute();
    return [...new Set([...subs, ...admins.map((a) => a.id)])];
  }
  const rows = await db
    .selectFrom('users')
    .select(['id', 'role'])
    .where('realm_id', '=', stream.realm_id)
    .where('is_active', '=', 1)
    .execute();
  const subs = new Set(await activeSubscriberIds(db, stream.id));
  return rows
    .filter((u) => u.role !== 600 || subs.has(u.id) || stream.is_web_public)
    .map((u) => u.id);
}

export async function activeUserIds(db: Database, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}

/** Who sees a bot in `realm_bots`: the organization's administrators and the bot's owner. */
export async function botAudience(db: Database, realm: Realm, bot: User): Promise<number[]> {
  const admins = await db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .where('role', '<=', ROLE.ADMINISTRATOR)
    .where('is_bot', '=', 0)
    .execute();
  const ids = new Set(admins.map((a) => a.id));
  if (bot.bot_owner_id !== null) {
    const owner = await db
      .selectFrom('users')
      .select(['id', 'is_active'])
      .where('id', '=', bot.bot_owner_id)
      .executeTakeFirst();
    if (owner?.is_active) ids.add(owner.id);
  }
  return [...ids];
}

/** Membership of a group, following system-group roles and subgroups. */
export async function isInGroup(
  db: Database,
  user: User,
  groupId: number,
  depth = 0,
): Promise<boolean> {
  if (depth > 10) return false;
  const group = await db
    .selectFrom('user_groups')
    .selectAll()
    .where('id', '=', groupId)
    .executeTakeFirst();
  if (!group) return false;
  if (group.is_system_group) {
    const limits: Record<string, number> = {
      'role:everyone': 600,
      'role:members': 400,
      'role:fullmembers': 400,
      'role:moderators': 300,
      'role:administrators': 200,
      'role:owners': 100,
      'role:internet': 600,
      'role:nobody': 0,
    };
    return user.role <= (limits[group.name] ?? 0);
  }
  const direct = await db
    .selectFrom('user_group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (direct) return true;
  const subs = await db
    .selectFrom('user_group_subgroups')
    .select('subgroup_id')
    .where('group_id', '=', groupId)
    .execute();
  for (const s of subs) if (await isInGroup(db, user, s.subgroup_id, depth + 1)) return true;
  return false;
}
