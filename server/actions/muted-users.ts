import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { FLAG_BITS } from '../domain/flags.js';
import { nowSeconds } from '../lib/admin-checks.js';
import { changeFlags } from './flags.js';
import { userInRealm } from './user-admin.js';

/**
 * Muting users. Muting marks everything the muted user sent so far as read (new messages from
 * them arrive read: send-message consults this table); the client hides what it should.
 */

export async function mutedUserObjects(db: Database, userId: number) {
  const rows = await db
    .selectFrom('muted_users')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('muted_user_id')
    .execute();
  return rows.map((r) => ({ id: r.muted_user_id, timestamp: r.date_muted }));
}

async function mutedUsersEvent(trx: Database, realm: Realm, user: User, events: Delivery[]) {
  events.push({
    realmId: realm.id,
    userIds: [user.id],
    event: { type: 'muted_users', muted_users: await mutedUserObjects(trx, user.id) },
  });
}

async function isMuted(db: Database, userId: number, mutedId: number): Promise<boolean> {
  return !!(await db
    .selectFrom('muted_users')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('muted_user_id', '=', mutedId)
    .executeTakeFirst());
}

/** POST /users/me/muted_users/{muted_user_id} */
export async function muteUser(ctx: AppContext, realm: Realm, user: User, mutedId: number) {
  if (mutedId === user.id) throw badRequest('Cannot mute self');
  return transact(ctx, async (trx, events) => {
    const target = await userInRealm(trx, realm, mutedId);
    if (await isMuted(trx, user.id, target.id)) throw badRequest('User already muted');
    await trx
      .insertInto('muted_users')
      .values({ user_id: user.id, muted_user_id: target.id, date_muted: nowSeconds() })
      .execute();
    const unread = await trx
      .selectFrom('user_messages as um')
      .innerJoin('messages as m', 'm.id', 'um.message_id')
      .select('um.message_id')
      .where('um.user_id', '=', user.id)
      .where('m.sender_id', '=', target.id)
      .where((eb) => eb(eb('um.flags', '&', FLAG_BITS.read), '=', 0))
      .orderBy('um.message_id')
      .execute();
    await changeFlags(
      trx,
      realm,
      user,
      unread.map((r) => r.message_id),
      'add',
      'read',
      events,
    );
    await mutedUsersEvent(trx, realm, user, events);
    return {};
  });
}

/** DELETE /users/me/muted_users/{muted_user_id} */
export async function unmuteUser(ctx: AppContext, realm: Realm, user: User, mutedId: number) {
  return transact(ctx, async (trx, events) => {
    const target = await userInRealm(trx, realm, mutedId);
    if (!(await isMuted(trx, user.id, target.id))) throw badRequest('User is not muted');
    await trx
      .deleteFrom('muted_users')
      .where('user_id', '=', user.id)
      .where('muted_user_id', '=', target.id)
      .execute();
    await mutedUsersEvent(trx, realm, user, events);
    return {};
  });
}
