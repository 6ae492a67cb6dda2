import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { queueControl, type Delivery } from '../events/types.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { isOwner, ROLE } from '../domain/roles.js';
import {
  activeUserIds,
  botAudience,
  canSeeStream,
  isSubscribed,
  streamAudience,
} from '../lib/access.js';
import { isDbId, ownerRequired, requireUserAdmin } from '../lib/admin-checks.js';
import { revokeInvitesBy } from './invites.js';
import { roleGroupName } from './user-groups.js';
import { findSystemGroupId } from '../lib/realm.js';
import { userUpdated } from './announce-user.js';

/**
 * Deactivating and reactivating accounts. A deactivated user keeps their messages; their API key
 * stops working (authentication refuses inactive users), their event queues go away, and their
 * bots are deactivated with them. Everyone learns it through `realm_user` (and, for bots, the
 * admins and the owner through `realm_bot`) update events carrying `is_active`.
 */

export async function userInRealm(db: Database, realm: Realm, userId: number): Promise<User> {
  const user = isDbId(userId)
    ? await db
        .selectFrom('users')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!user) throw badRequest('No such user');
  return user;
}

/** The system group a user belongs to directly, by role. */
export async function roleGroupId(
  db: Database,
  realm: Realm,
  role: number,
): Promise<number | null> {
  const name = roleGroupName(role);
  return name ? findSystemGroupId(db, realm.id, name) : null;
}

async function activeOwnerIds(db: Database, realm: Realm): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .where('is_bot', '=', 0)
    .where('role', '=', ROLE.OWNER)
    .execute();
  return rows.map((r) => r.id);
}

export async function isLastOwner(db: Database, realm: Realm, user: User): Promise<boolean> {
  if (!isOwner(user) || user.is_bot) return false;
  const owners = await activeOwnerIds(db, realm);
  return owners.length === 1 && owners[0] === user.id;
}

/**
 * Flips `is_active` inside an open transaction and tells everyone. Subscriber lists and role
 * groups count active users only, so they change too: peer events and group membership events
 * keep clients' copies equal to what a fresh register would show.
 */
async function setActive(
  trx: Database,
  realm: Realm,
  target: User,
  active: boolean,
  events: Delivery[],
) {
  await trx
    .updateTable('users')
    .set({ is_active: active ? 1 : 0 })
    .where('id', '=', target.id)
    .execute();
  const everyone = await activeUserIds(trx, realm.id);
  events.push(userUpdated(realm, everyone, { user_id: target.id, is_active: active }));
  if (target.is_bot)
    events.push({
      realmId: realm.id,
      userIds: await botAudience(trx, realm, target),
      event: { type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: active } },
    });
  const groupId = await roleGroupId(trx, realm, target.role);
  if (groupId !== null)
    events.push({
      realmId: realm.id,
      userIds: everyone,
      event: {
        type: 'user_group',
        op: active ? 'add_members' : 'remove_members',
        group_id: groupId,
        user_ids: [target.id],
      },
    });
  const streams = await trx
    .selectFrom('subscriptions')
    .innerJoin('streams', 'streams.id', 'subscriptions.stream_id')
    .selectAll('streams')
    .where('subscriptions.user_id', '=', target.id)
    .where('subscriptions.active', '=', 1)
    .where('streams.deactivated', '=', 0)
    .execute();
  for (const stream of streams) {
    const audience = (await streamAudience(trx, stream)).filter((id) => id !== target.id);
    if (audience.length)
      events.push({
        realmId: realm.id,
        userIds: audience,
        event: {
          type: 'subscription',
          op: active ? 'peer_add' : 'peer_remove',
          stream_ids: [stream.id],
          user_ids: [target.id],
        },
      });
  }
}

/**
 * Deactivates a user and, for a human, the active bots they own, and revokes every invitation
 * and reusable link they created (upstream `revoke_invites_generated_by_user`): an invitation
 * must not outlive the authority of the person who made it. Returns everyone deactivated.
 */
export async function deactivateWithBots(
  trx: Database,
  realm: Realm,
  target: User,
  events: Delivery[],
): Promise<number[]> {
  await setActive(trx, realm, target, false, events);
  const bots = target.is_bot
    ? []
    : await trx
        .selectFrom('users')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('is_bot', '=', 1)
        .where('bot_owner_id', '=', target.id)
        .where('is_active', '=', 1)
        .execute();
  for (const bot of bots) await setActive(trx, realm, bot, false, events);
  const gone = [target.id, ...bots.map((b) => b.id)];
  await revokeInvitesBy(trx, realm, gone, events);
  // After the events that tell them, their queues go, in every process.
  events.push(queueControl(realm.id, gone, 'drop'));
  return gone;
}

const cannotDeactivateLast = (isLastOwnerError: boolean) => {
  const entity = isLastOwnerError ? 'organization owner' : 'user';
  return new DomainError(
    `Cannot deactivate the only ${entity}.`,
    'CANNOT_DEACTIVATE_LAST_USER',
    400,
    {
      entity,
      is_last_owner: isLastOwnerError,
    },
  );
};

/** DELETE /users/me */
export async function deactivateOwnAccount(ctx: AppContext, realm: Realm, user: User) {
  await transact(ctx, async (trx, events) => {
    const fresh = await userInRealm(trx, realm, user.id);
    const humans = await trx
      .selectFrom('users')
      .select('id')
      .where('realm_id', '=', realm.id)
      .where('is_active', '=', 1)
      .where('is_bot', '=', 0)
      .execute();
    if (!fresh.is_bot && humans.length === 1 && humans[0].id === fresh.id)
      throw cannotDeactivateLast(false);
    if (await isLastOwner(trx, realm, fresh)) throw cannotDeactivateLast(true);
    await deactivateWithBots(trx, realm, fresh, events);
  });
  return {};
}

/** DELETE /users/{user_id}: administrators; only owners may deactivate owners. */
export async function deactivateUserByAdmin(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  userId: number,
) {
  // Administering another account (upstream `access_user_by_id` with `for_admin`).
  requireUserAdmin(actor);
  await transact(ctx, async (trx, events) => {
    const target = await userInRealm(trx, realm, userId);
    if (!target.is_active) throw badRequest('User is deactivated');
    if (isOwner(target) && !isOwner(actor)) throw ownerRequired();
    if (await isLastOwner(trx, realm, target))
      throw badRequest('Cannot deactivate the only organization owner');
    await deactivateWithBots(trx, realm, target, events);
  });
  return {};
}

/**
 * POST /users/{user_id}/reactivate: administrators, and a bot's owner for the bot (upstream
 * `can_admin_user`); bots stay deactivated until reactivated too.
 */
export async function reactivateUser(ctx: AppContext, realm: Realm, actor: User, userId: number) {
  return transact(ctx, async (trx, events) => {
    // Administering another account (upstream `access_user_by_id` with `for_admin`).
    const owned = await trx
      .selectFrom('users')
      .select('id')
      .where('realm_id', '=', realm.id)
      .where('id', '=', isDbId(userId) ? userId : 0)
      .where('is_bot', '=', 1)
      .where('bot_owner_id', '=', actor.id)
      .executeTakeFirst();
    if (!owned) requireUserAdmin(actor);
    const target = await userInRealm(trx, realm, userId);
    if (target.is_active) throw badRequest('User is already active');
    await setActive(trx, realm, target, true, events);
    return {};
  });
}

/** GET /users/{user_id}/subscriptions/{stream_id} */
export async function userSubscriptionStatus(
  ctx: AppContext,
  realm: Realm,
  viewer: User,
  userId: number,
  streamId: number,
) {
  const target = await userInRealm(ctx.db, realm, userId);
  const stream = isDbId(streamId)
    ? await ctx.db
        .selectFrom('streams')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('id', '=', streamId)
        .executeTakeFirst()
    : undefined;
  if (!stream || !canSeeStream(viewer, stream, await isSubscribed(ctx.db, viewer.id, stream.id)))
    throw badRequest('Invalid channel ID');
  return { is_subscribed: await isSubscribed(ctx.db, target.id, stream.id) };
}
