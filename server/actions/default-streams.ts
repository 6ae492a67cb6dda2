import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { streamToApi } from '../domain/serialize.js';
import { isDbId, requireAdmin } from '../lib/admin-checks.js';
import { defaultStreamIds, firstMessageIds, realmStreams, streamForUser } from '../lib/streams.js';

export const MAX_GROUP_NAME_LENGTH = 60;
export const MAX_GROUP_DESCRIPTION_LENGTH = 1024;

/** Default streams and default stream groups; both are told to every active non-guest user. */
async function nonGuestUserIds(db: Database, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where('role', '!=', 600)
    .execute();
  return rows.map((r) => r.id);
}

async function streamObjects(db: Database, streams: Stream[]) {
  const firsts = await firstMessageIds(
    db,
    streams.map((s) => s.id),
  );
  return streams.map((s) => streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null }));
}

/** realm_default_streams, and the payload of `default_streams` events. */
export async function defaultStreamObjects(db: Database, realmId: number) {
  const ids = await defaultStreamIds(db, realmId);
  return streamObjects(
    db,
    (await realmStreams(db, realmId)).filter((s) => ids.has(s.id)),
  );
}

/** realm_default_stream_groups, sorted by name, each with its streams sorted by name. */
export async function defaultStreamGroupObjects(db: Database, realmId: number) {
  const groups = await db
    .selectFrom('default_stream_groups')
    .selectAll()
    .where('realm_id', '=', realmId)
    .execute();
  // Most organizations have none: then neither the channels nor their first messages are read.
  if (!groups.length) return [];
  const links = await db
    .selectFrom('default_stream_group_streams')
    .selectAll()
    .where(
      'group_id',
      'in',
      groups.map((g) => g.id),
    )
    .execute();
  const linked = new Set(links.map((l) => l.stream_id));
  const streams = (await realmStreams(db, realmId)).filter((s) => linked.has(s.id));
  const objects = new Map(
    (await streamObjects(db, streams)).map((o) => [o.stream_id as number, o]),
  );
  const byName = (a: { name: string }, b: { name: string }) =>
    String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0;
  return groups
    .map((g) => ({
      name: g.name,
      id: g.id,
      description: g.description,
      streams: links
        .filter((l) => l.group_id === g.id && objects.has(l.stream_id))
        .map((l) => objects.get(l.stream_id)!)
        .sort(byName),
    }))
    .sort(byName);
}

export async function notifyDefaultStreams(trx: Database, realm: Realm, events: Delivery[]) {
  events.push({
    realmId: realm.id,
    userIds: await nonGuestUserIds(trx, realm.id),
    event: { type: 'default_streams', default_streams: await defaultStreamObjects(trx, realm.id) },
  });
}

export async function notifyDefaultStreamGroups(trx: Database, realm: Realm, events: Delivery[]) {
  events.push({
    realmId: realm.id,
    userIds: await nonGuestUserIds(trx, realm.id),
    event: {
      type: 'default_stream_groups',
      default_stream_groups: await defaultStreamGroupObjects(trx, realm.id),
    },
  });
}

/** Makes a stream a default stream (or not) inside an open transaction; true when it changed. */
export async function setDefaultStream(
  trx: Database,
  realm: Realm,
  stream: Stream,
  isDefault: boolean,
  events: Delivery[],
) {
  const existing = await trx
    .selectFrom('default_streams')
    .select('stream_id')
    .where('realm_id', '=', realm.id)
    .where('stream_id', '=', stream.id)
    .executeTakeFirst();
  if (!!existing === isDefault) return false;
  if (isDefault) {
    if (stream.invite_only) throw badRequest('Private channels cannot be made default.');
    await trx
      .insertInto('default_streams')
      .values({ realm_id: realm.id, stream_id: stream.id })
      .execute();
  } else {
    await trx
      .deleteFrom('default_streams')
      .where('realm_id', '=', realm.id)
      .where('stream_id', '=', stream.id)
      .execute();
  }
  await notifyDefaultStreams(trx, realm, events);
  return true;
}

/** POST /default_streams and DELETE /default_streams */
export async function changeDefaultStream(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  streamId: number,
  isDefault: boolean,
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    // Making a channel default needs access to it; taking that away is administration, which
    // reaches every channel.
    const { stream } = await streamForUser(
      trx,
      realm,
      actor,
      { id: streamId },
      { allowRealmAdmin: !isDefault },
    );
    await setDefaultStream(trx, realm, stream, isDefault, events);
    return {};
  });
}

function validateGroupName(name: string): string {
  if (name.trim() === '') throw badRequest(`Invalid default channel group name '${name}'`);
  if (name.length > MAX_GROUP_NAME_LENGTH)
    throw badRequest(
      `Default channel group name too long (limit: ${MAX_GROUP_NAME_LENGTH} characters)`,
    );
  if (name.includes('\u0000'))
    throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
  return name;
}

function validateGroupDescription(description: string): string {
  if (description.includes('\u0000')) throw badRequest('description must not contain null bytes');
  if (description.length > MAX_GROUP_DESCRIPTION_LENGTH)
    throw badRequest(`description is too long (limit: ${MAX_GROUP_DESCRIPTION_LENGTH} characters)`);
  return description;
}

/** Channels named in a group request, each one the administrator can reach. */
async function streamsByName(
  trx: Database,
  realm: Realm,
  actor: User,
  names: string[],
): Promise<Stream[]> {
  const found: Stream[] = [];
  for (const name of names) {
    const { stream } = await streamForUser(
      trx,
      realm,
      actor,
      { name: name.trim() },
      {
        missing: () => badRequest(`Invalid channel name '${name}'`),
      },
    );
    if (!found.some((s) => s.id === stream.id)) found.push(stream);
  }
  return found;
}

async function groupById(trx: Database, realm: Realm, id: number) {
  if (!isDbId(id)) throw badRequest(`Default channel group with id '${id}' does not exist.`);
  const group = await trx
    .selectFrom('default_stream_groups')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!group) throw badRequest(`Default channel group with id '${id}' does not exist.`);
  return group;
}

async function nameTaken(trx: Database, realm: Realm, name: string) {
  return !!(await trx
    .selectFrom('default_stream_groups')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('name', '=', name)
    .executeTakeFirst());
}

async function rejectDefaultStreams(
  trx: Database,
  realm: Realm,
  streams: Stream[],
  groupName: string,
) {
  const defaults = await defaultStreamIds(trx, realm.id);
  const clash = streams.find((s) => defaults.has(s.id));
  if (clash)
    throw badRequest(`'${clash.name}' is a default channel and cannot be added to '${groupName}'`);
}

/** POST /default_stream_groups/create */
export async function createDefaultStreamGroup(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  req: { name: string; description: string; streamNames: string[] },
) {
  requireAdmin(actor);
  const name = validateGroupName(req.name);
  const description = validateGroupDescription(req.description);
  return transact(ctx, async (trx, events) => {
    const streams = await streamsByName(trx, realm, actor, req.streamNames);
    await rejectDefaultStreams(trx, realm, streams, name);
    if (await nameTaken(trx, realm, name))
      throw badRequest(`Default channel group '${name}' already exists`);
    const group = await trx
      .insertInto('default_stream_groups')
      .values({ realm_id: realm.id, name, description })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (streams.length)
      await trx
        .insertInto('default_stream_group_streams')
        .values(streams.map((s) => ({ group_id: group.id, stream_id: s.id })))
        .execute();
    await notifyDefaultStreamGroups(trx, realm, events);
    return {};
  });
}

/** PATCH /default_stream_groups/{id}: new name and/or description. */
export async function updateDefaultStreamGroupInfo(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  id: number,
  req: { newName?: string; newDescription?: string },
) {
  requireAdmin(actor);
  if (!req.newName && !req.newDescription)
    throw badRequest('You must pass "new_description" or "new_group_name".');
  return transact(ctx, async (trx, events) => {
    const group = await groupById(trx, realm, id);
    const updates: { name?: string; description?: string } = {};
    if (req.newName !== undefined) {
      const name = validateGroupName(req.newName);
      if (name === group.name)
        throw badRequest(`This default channel group is already named '${name}'`);
      if (await nameTaken(trx, realm, name))
        throw badRequest(`Default channel group '${name}' already exists`);
      updates.name = name;
    }
    if (req.newDescription !== undefined)
      updates.description = validateGroupDescription(req.newDescription);
    await trx
      .updateTable('default_stream_groups')
      .set(updates)
      .where('id', '=', group.id)
      .execute();
    await notifyDefaultStreamGroups(trx, realm, events);
    return {};
  });
}

/** PATCH /default_stream_groups/{id}/streams: op add or remove. */
export async function updateDefaultStreamGroupStreams(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  id: number,
  req: { op: string; streamNames: string[] },
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    const group = await groupById(trx, realm, id);
    const streams = await streamsByName(trx, realm, actor, req.streamNames);
    const current = new Set(
      (
        await trx
          .selectFrom('default_stream_group_streams')
          .select('stream_id')
          .where('group_id', '=', group.id)
          .execute()
      ).map((r) => r.stream_id),
    );
    if (req.op === 'add') {
      await rejectDefaultStreams(trx, realm, streams, group.name);
      const present = streams.find((s) => current.has(s.id));
      if (present)
        throw badRequest(
          `Channel '${present.name}' is already present in default channel group '${group.name}'`,
        );
      if (streams.length)
        await trx
          .insertInto('default_stream_group_streams')
          .values(streams.map((s) => ({ group_id: group.id, stream_id: s.id })))
          .execute();
    } else if (req.op === 'remove') {
      const missing = streams.find((s) => !current.has(s.id));
      if (missing)
        throw badRequest(
          `Channel '${missing.name}' is not present in default channel group '${group.name}'`,
        );
      if (streams.length)
        await trx
          .deleteFrom('default_stream_group_streams')
          .where('group_id', '=', group.id)
          .where(
            'stream_id',
            'in',
            streams.map((s) => s.id),
          )
          .execute();
    } else {
      throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
    }
    await notifyDefaultStreamGroups(trx, realm, events);
    return {};
  });
}

/** DELETE /default_stream_groups/{id} */
export async function removeDefaultStreamGroup(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  id: number,
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    const group = await groupById(trx, realm, id);
    await trx.deleteFrom('default_stream_group_streams').where('group_id', '=', group.id).execute();
    await trx.deleteFrom('default_stream_groups').where('id', '=', group.id).execute();
    await notifyDefaultStreamGroups(trx, realm, events);
    return {};
  });
}

/** An archived stream leaves the default streams and every group (inside its transaction). */
export async function forgetArchivedStream(
  trx: Database,
  realm: Realm,
  stream: Stream,
  events: Delivery[],
) {
  await setDefaultStream(trx, realm, stream, false, events);
  const res = await trx
    .deleteFrom('default_stream_group_streams')
    .where('stream_id', '=', stream.id)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) > 0) await notifyDefaultStreamGroups(trx, realm, events);
}
