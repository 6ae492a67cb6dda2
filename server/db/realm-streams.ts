import type { Database } from './index.js';
import type { Stream } from './schema.js';
import { cachedRow } from './row-cache.js';

/**
 * Every channel of the organization, deactivated ones too (their messages are still named by
 * id), in id order, kept with the rows between requests: five hundred of them are most of a
 * message fetch's or a registration's reading otherwise.
 */
export async function allRealmStreams(db: Database, realmId: number): Promise<Stream[]> {
  const rows = await cachedRow(db, `streams:${realmId}`, () =>
    db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).orderBy('id').execute(),
  );
  return rows ?? [];
}
