import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { queueControl, type Delivery } from '../events/types.js';
import { apiEmailFor, fakeEmailDomain, mayReadDeliveryEmail } from '../domain/email-visibility.js';
import { userUpdated } from './announce-user.js';

/**
 * Stores a person's addresses after their real address or its visibility changed, inside an open
 * transaction: `email` becomes the API address everyone gets (the real one only when everyone may
 * see it), and each active user hears what changed for them: `new_email` for everyone when the
 * API address changed, `delivery_email` (the address or null) for those whose view of it changed.
 */
export async function storeEmailChange(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  before: User,
  change: Partial<Pick<User, 'delivery_email' | 'settings'>>,
  events: Delivery[],
) {
  const after: User = { ...before, ...change };
  after.email = apiEmailFor(after, fakeEmailDomain(ctx.config.externalUrl));
  await trx
    .updateTable('users')
    .set({ email: after.email, delivery_email: after.delivery_email })
    .where('id', '=', before.id)
    .execute();
  // The old address no longer signs a request in: no queue may keep accepting it.
  if (after.delivery_email !== before.delivery_email)
    events.push(queueControl(realm.id, [before.id], 'reauthenticate'));

  const viewers = await trx
    .selectFrom('users')
    .select(['id', 'role'])
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .execute();
  if (after.email !== before.email)
    events.push(
      userUpdated(
        realm,
        viewers.map((v) => v.id),
        { user_id: before.id, new_email: after.email },
      ),
    );
  const seen = (viewer: Pick<User, 'id' | 'role'>, user: User) =>
    mayReadDeliveryEmail(viewer, user) ? user.delivery_email : null;
  const byValue = new Map<string | null, number[]>();
  for (const viewer of viewers) {
    const now = seen(viewer, after);
    if (now === seen(viewer, before)) continue;
    byValue.set(now, [...(byValue.get(now) ?? []), viewer.id]);
  }
  for (const [value, userIds] of byValue)
    events.push(userUpdated(realm, userIds, { user_id: before.id, delivery_email: value }));
  return after;
}
