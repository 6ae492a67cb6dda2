import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { ROLE } from '../domain/roles.js';
import { botToApi, userToApi } from '../domain/serialize.js';
import { activeUserIds } from './access.js';
import { systemGroupJoinEvent } from './realm.js';
import { botAudience } from './user-admin.js';

/**
 * Tells everyone about a new account exactly as a fresh register would show it: administrators see
 * its delivery email, humans come with (empty) profile data, and a bot also appears in the
 * `realm_bots` of its owner and the administrators.
 */
export async function announceNewUser(ctx: AppContext, trx: Database, realm: Realm, user: User, events: Delivery[]) {
  const everyone = await activeUserIds(trx, realm.id);
  const admins = new Set(
    (await trx.selectFrom('users').select('id').where('realm_id', '=', realm.id).where('is_active', '=', 1)
      .where('role', '<=', ROLE.ADMINISTRATOR).execute()).map((r) => r.id),
  );
  const person = userToApi(ctx, user, null, user.is_bot ? undefined : {});
  const others = everyone.filter((id) => !admins.has(id));
  const adminIds = everyone.filter((id) => admins.has(id));
  if (others.length) events.push({ realmId: realm.id, userIds: others, event: { type: 'realm_user', op: 'add', person } });
  if (adminIds.length)
    events.push({ realmId: realm.id, userIds: adminIds, event: { type: 'realm_user', op: 'add', person: { ...person, delivery_email: user.delivery_email } } });
  if (user.is_bot) {
    const audience = await botAudience(trx, realm, user);
    if (audience.length) events.push({ realmId: realm.id, userIds: audience, event: { type: 'realm_bot', op: 'add', bot: botToApi(ctx, user) } });
  }
  const joined = await systemGroupJoinEvent(trx, realm.id, user.id, user.role, everyone);
  if (joined) events.push(joined);
}
