import type { Database } from '../db/index.js';
import type { Realm } from '../db/schema.js';
import type { RealmSettings } from '../domain/settings.js';
import { SYSTEM_GROUPS } from '../domain/roles.js';
import type { Delivery } from '../events/types.js';
import { systemGroupId } from '../lib/realm.js';

export async function createRealm(
  db: Database,
  opts: { stringId: string; name: string; description?: string; settings?: Partial<RealmSettings> },
): Promise<Realm> {
  const now = Math.floor(Date.now() / 1000);
  const realm = await db
    .insertInto('realms')
    .values({
      string_id: opts.stringId,
      name: opts.name,
      description: opts.description ?? '',
      date_created: now,
      deactivated: 0,
      settings: JSON.stringify(opts.settings ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const g of SYSTEM_GROUPS) {
    await db
      .insertInto('user_groups')
      .values({
        realm_id: realm.id,
        name: g.name,
        description: g.description,
        is_system_group: 1,
        can_mention_group: null,
        date_created: now,
        creator_id: null,
        deactivated: 0,
      })
      .execute();
  }
  return realm;
}

/** The system group a role belongs to directly (role:owners for 100, ... role:everyone for 600). */
const ROLE_GROUP: Record<number, string> = {
  100: 'role:owners',
  200: 'role:administrators',
  300: 'role:moderators',
  400: 'role:fullmembers',
  600: 'role:everyone',
};

/** A new user joins their role's system group: everyone's group lists learn of it. */
export async function systemGroupJoinEvent(
  db: Database,
  realmId: number,
  userId: number,
  role: number,
  audience: number[],
) {
  const name = ROLE_GROUP[role];
  if (!name) return null;
  const groupId = await systemGroupId(db, realmId, name);
  const delivery: Delivery = {
    realmId,
    userIds: audience,
    event: { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] },
  };
  return delivery;
}
