import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm } from '../db/schema.js';
import { createRealm } from '../actions/realm.js';
import { insertStream } from '../actions/create-stream.js';
import { subscribeUsersToStreams } from '../actions/subscriptions.js';
import { createUser } from '../actions/users.js';
import { ROLE } from '../domain/roles.js';
import { UsageError } from './errors.js';

/**
 * The organization a command names with `--realm`: by id (as create-realm and list-realms print
 * it) or by string id, the empty string naming the default organization. Without `--realm`, the
 * only organization there is.
 */
export async function findRealm(db: Database, named: string | undefined): Promise<Realm> {
  const realms = db.selectFrom('realms').selectAll();
  if (named === undefined) {
    const all = await realms.orderBy('id').limit(2).execute();
    if (!all.length) throw new UsageError('There is no organization yet: run create-realm first');
    if (all.length > 1)
      throw new UsageError(
        'There are several organizations: name one with --realm ID or --realm STRING_ID (see list-realms)',
      );
    return all[0]!;
  }
  const byStringId = await realms.where('string_id', '=', named).executeTakeFirst();
  const byId = /^\d{1,15}$/.test(named)
    ? await realms.where('id', '=', Number(named)).executeTakeFirst()
    : undefined;
  if (byId && byStringId && byId.id !== byStringId.id)
    throw new UsageError(
      `"${named}" is the id of organization "${byId.name}" and the string id of "${byStringId.name}"`,
    );
  const realm = byId ?? byStringId;
  if (!realm)
    throw new UsageError(
      `There is no organization with id or string id "${named}" (see list-realms)`,
    );
  return realm;
}

export interface NewOrganization {
  name: string;
  stringId: string;
  owner: { email: string; fullName: string; password: string };
}

/** An organization with its owner and a "general" channel everyone joins, as the signup makes. */
export async function createOrganization(ctx: AppContext, org: NewOrganization) {
  const taken = await ctx.db
    .selectFrom('realms')
    .select('id')
    .where('string_id', '=', org.stringId)
    .executeTakeFirst();
  if (taken)
    throw new UsageError(
      `An organization with string id "${org.stringId}" exists (id ${taken.id}); pass another --string-id`,
    );
  const realm = await createRealm(ctx.db, { stringId: org.stringId, name: org.name });
  const owner = await createUser(ctx, realm, { ...org.owner, role: ROLE.OWNER });
  const general = await insertStream(ctx.db, realm, {
    name: 'general',
    description: 'Everyone is here.',
    creatorId: owner.id,
  });
  await ctx.db
    .insertInto('default_streams')
    .values({ realm_id: realm.id, stream_id: general.id })
    .execute();
  // No queue can exist for a new organization: its events go nowhere.
  await subscribeUsersToStreams(ctx, ctx.db, realm, [owner.id], [general.id], []);
  return { realm, owner };
}
