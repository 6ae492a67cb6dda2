import { escapeHtml } from '../markdown/links.js';
import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm } from '../db/schema.js';
import { parseSettings, REALM_SETTING_DEFAULTS, type RealmSettings } from '../domain/settings.js';

export const realmSettings = (realm: Realm): RealmSettings =>
  parseSettings(REALM_SETTING_DEFAULTS, realm.settings);

/** A system group's id by name, or null when the organization has none of that name. */
export async function findSystemGroupId(
  db: Database,
  realmId: number,
  name: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('user_groups')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('is_system_group', '=', 1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function systemGroupId(db: Database, realmId: number, name: string): Promise<number> {
  const id = await findSystemGroupId(db, realmId, name);
  if (id === null) throw new Error(`system group ${name} missing in organization ${realmId}`);
  return id;
}

export function realmIconUrl(ctx: AppContext, realm: Realm) {
  return `${ctx.config.externalUrl}/realm-icon/${realm.id}.svg`;
}

export function realmDescriptionHtml(realm: Realm) {
  return realm.description ? `<p>${escapeHtml(realm.description)}</p>` : '';
}
