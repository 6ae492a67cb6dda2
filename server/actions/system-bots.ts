import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { generateApiKey } from '../domain/password.js';
import { announceNewUser } from './announce-user.js';

/**
 * The organization's "Notification Bot", created on first use (everyone learns of it through a
 * realm_user event); it cannot log in.
 */
export async function notificationBot(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  events: Delivery[],
): Promise<User> {
  const email = 'notification-bot@parley.bots';
  const existing = await trx
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing) return existing;
  const bot = await trx
    .insertInto('users')
    .values({
      realm_id: realm.id,
      email,
      delivery_email: email,
      full_name: 'Notification Bot',
      password_hash: null,
      api_key: generateApiKey(),
      role: 400,
      is_bot: 1,
      bot_type: 1,
      bot_owner_id: null,
      is_active: 1,
      date_joined: Math.floor(Date.now() / 1000),
      timezone: '',
      avatar_version: 1,
      settings: '{}',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await announceNewUser(ctx, trx, realm, bot, events);
  return bot;
}
