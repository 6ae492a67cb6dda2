import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import type { RealmUserEvent } from '../../src/api/model/events.js';
import { mayReadDeliveryEmail } from '../domain/email-visibility.js';
import { botToApi, userToApi } from '../domain/serialize.js';
import { systemGroupJoinEvent } from './realm.js';
import { botAudience } from '../lib/access.js';
import type { BotService } from '../domain/bot-services.js';

/**
 * Tells everyone about a new account exactly as a fresh register would show it: those its email
 * visibility allows see its delivery email, humans come with (empty) profile data, and a bot also appears in the
 * `realm_bots` of its owner and the administrators.
 */
export async function announceNewUser(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  events: Delivery[],
  service?: BotService,
) {
  const viewers = await trx
    .selectFrom('users')
    .select(['id', 'role'])
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .execute();
  const everyone = viewers.map((v) => v.id);
  const person = userToApi(ctx, user, null, user.is_bot ? undefined : {});
  // The real address goes to those the new person's email visibility lets see it.
  const seeing = viewers.filter((v) => mayReadDeliveryEmail(v, user)).map((v) => v.id);
  const seen = new Set(seeing);
  const others = everyone.filter((id) => !seen.has(id));
  if (others.length)
    events.push({
      realmId: realm.id,
      userIds: others,
      event: { type: 'realm_user', op: 'add', person },
    });
  if (seeing.length)
    events.push({
      realmId: realm.id,
      userIds: seeing,
      event: {
        type: 'realm_user',
        op: 'add',
        person: { ...person, delivery_email: user.delivery_email },
      },
    });
  if (user.is_bot) {
    const audience = await botAudience(trx, realm, user);
    if (audience.length)
      events.push({
        realmId: realm.id,
        userIds: audience,
        event: { type: 'realm_bot', op: 'add', bot: botToApi(ctx, user, service) },
      });
  }
  const joined = await systemGroupJoinEvent(trx, realm.id, user.id, user.role, everyone);
  if (joined) events.push(joined);
}

/**
 * What a `realm_user` update may say of a person: the fields that changed and their id (and, for
 * an avatar, its source and medium-size URL, which upstream sends too though the user object has
 * no such fields).
 */
export type PersonChange = Extract<RealmUserEvent, { op: 'update' }>['person'] & {
  avatar_source?: string;
  avatar_url_medium?: string;
};

/**
 * A change to a person, for those given (`realm_user` `update`): every edit of a person (name,
 * role, avatar, address, profile field, activation, bot owner) announces itself through here.
 */
export function userUpdated(realm: Realm, userIds: number[], person: PersonChange): Delivery {
  return { realmId: realm.id, userIds, event: { type: 'realm_user', op: 'update', person } };
}
