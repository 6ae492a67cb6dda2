import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User, UserGroup } from '../db/schema.js';
import { type Delivery, type EventBody, untypedEvent } from '../events/types.js';
import { badRequest, forbidden } from '../domain/errors.js';
import { isGuest, isModeratorOrAbove } from '../domain/roles.js';
import { activeUserIds } from '../lib/access.js';
import { decodeLoose, isDbId, nowSeconds, passesPolicy } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { GroupGraph, groupFromGraph } from './user-groups.js';
import type { UserGroupEvent } from '../../src/api/model/index.js';

/**
 * Creating and changing user groups. Who may: the organization's `user_group_edit_policy`
 * (never guests); then, for an existing group, administrators, moderators and the group's own
 * members. System groups follow roles and are never changed here.
 */

export const MAX_GROUP_NAME_LENGTH = 100;
export const MAX_GROUP_DESCRIPTION_LENGTH = 1024;
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

function requireEditPolicy(realm: Realm, user: User) {
  if (isGuest(user) || !passesPolicy(realm, user, realmSettings(realm).user_group_edit_policy))
    throw forbidden();
}

function checkGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (name.length > MAX_GROUP_NAME_LENGTH)
    throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  for (const prefix of RESERVED_PREFIXES)
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

function checkDescription(description: string): string {
  if (description.length > MAX_GROUP_DESCRIPTION_LENGTH)
    throw badRequest(`description is too long (limit: ${MAX_GROUP_DESCRIPTION_LENGTH} characters)`);
  return description;
}

function checkNameFree(graph: GroupGraph, name: string, exceptId?: number) {
  const lower = name.toLowerCase();
  if (graph.groups.some((g) => g.id !== exceptId && g.name.toLowerCase() === lower))
    throw badRequest(`User group '${name}' already exists.`);
}

/** The group a `can_mention_group` value names: any group but `role:internet` and `role:owners`. */
function mentionGroup(graph: GroupGraph, groupId: number): number {
  const group = isDbId(groupId) ? graph.byId.get(groupId) : undefined;
  if (!group) throw badRequest('Invalid user group');
  if (group.is_system_group && (group.name === 'role:internet' || group.name === 'role:owners'))
    throw badRequest(`'can_mention_group' setting cannot be set to '${group.name}' group.`);
  return group.id;
}

/** `can_mention_group` as sent: a group id, or `{"new": id, "old": id}`. */
function parseMentionSetting(raw: string): { next: number; expected?: number } {
  const v = decodeLoose(raw.trim());
  const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  if (isInt(v)) return { next: v };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (isInt(o.new) && (o.old === undefined || isInt(o.old)))
      return { next: o.new, expected: o.old as number | undefined };
  }
  throw badRequest('can_mention_group is not an integer');
}

/** Active users of the organization, by id; anything else is an invalid id. */
async function checkUsers(
  trx: Database,
  realm: Realm,
  ids: number[],
  allowDeactivated = false,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  const bad = unique.find((id) => !isDbId(id));
  if (bad !== undefined) throw badRequest(`Invalid user ID: ${bad}`);
  if (!unique.length) return [];
  let q = trx
    .selectFrom('users')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('id', 'in', unique);
  if (!allowDeactivated) q = q.where('is_active', '=', 1);
  const found = new Set((await q.execute()).map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`Invalid user ID: ${missing}`);
  return unique;
}

/** The group to change: it exists, is not a system group, and the actor may edit it. */
function groupForEdit(graph: GroupGraph, actor: User, groupId: number): UserGroup {
  const group = groupFromGraph(graph, groupId);
  if (group.is_system_group) throw forbidden();
  if (!isModeratorOrAbove(actor) && !graph.directMembers(group.id).includes(actor.id))
    throw forbidden();
  return group;
}

async function groupEvent(
  trx: Database,
  realm: Realm,
  events: Delivery[],
  event: EventBody<UserGroupEvent>,
) {
  events.push({
    realmId: realm.id,
    userIds: await activeUserIds(trx, realm.id),
    event: { type: 'user_group', ...event },
  });
}

export interface NewGroup {
  name: string;
  description: string;
  members: number[];
  can_mention_group?: number;
}

/** POST /user_groups/create */
export async function createUserGroup(ctx: AppContext, realm: Realm, actor: User, req: NewGroup) {
  requireEditPolicy(realm, actor);
  const name = checkGroupName(req.name);
  const description = checkDescription(req.description);
  return transact(ctx, async (trx, events) => {
    const graph = await GroupGraph.load(trx, realm.id);
    const members = await checkUsers(trx, realm, req.members);
    const canMention =
      req.can_mention_group === undefined
        ? graph.idOfSystemGroup('role:everyone')
        : mentionGroup(graph, req.can_mention_group);
    checkNameFree(graph, name);
    const group = await trx
      .insertInto('user_groups')
      .values({
        realm_id: realm.id,
        name,
        description,
        is_system_group: 0,
        can_mention_group: canMention,
        date_created: nowSeconds(),
        creator_id: actor.id,
        deactivated: 0,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (members.length)
      await trx
        .insertInto('user_group_members')
        .values(members.map((user_id) => ({ group_id: group.id, user_id })))
        .execute();
    const fresh = await GroupGraph.load(trx, realm.id);
    // The wire type has no null can_mention_group; the group object keeps its own shape for now.
    const added = untypedEvent({ type: 'user_group', op: 'add', group: fresh.toApi(group) });
    events.push({ realmId: realm.id, userIds: await activeUserIds(trx, realm.id), event: added });
    return { group_id: group.id };
  });
}

export interface GroupChanges {
  name?: string;
  description?: string;
  /** raw form value: an id or {"new", "old"} */
  can_mention_group?: string;
}

/** PATCH /user_groups/{id} */
export async function updateUserGroup(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  groupId: number,
  c: GroupChanges,
) {
  if (c.name === undefined && c.description === undefined && c.can_mention_group === undefined)
    throw badRequest('No new data supplied');
  requireEditPolicy(realm, actor);
  const mention =
    c.can_mention_group === undefined ? undefined : parseMentionSetting(c.can_mention_group);
  return transact(ctx, async (trx, events) => {
    const graph = await GroupGraph.load(trx, realm.id);
    const group = groupForEdit(graph, actor, groupId);
    const changes: Partial<Pick<UserGroup, 'name' | 'description' | 'can_mention_group'>> = {};
    if (c.name !== undefined && c.name !== group.name) {
      changes.name = checkGroupName(c.name);
      checkNameFree(graph, changes.name, group.id);
    }
    if (c.description !== undefined && c.description !== group.description)
      changes.description = checkDescription(c.description);
    if (mention) {
      const current = graph.toApi(group).can_mention_group;
      const next = mentionGroup(graph, mention.next);
      if (mention.expected !== undefined && mention.expected !== current)
        throw badRequest("'old' value does not match the expected value.");
      if (next !== current) changes.can_mention_group = next;
    }
    if (!Object.keys(changes).length) return {};
    await trx.updateTable('user_groups').set(changes).where('id', '=', group.id).execute();
    // One event per property, as upstream sends them.
    for (const [key, value] of Object.entries(changes))
      await groupEvent(trx, realm, events, {
        op: 'update',
        group_id: group.id,
        data: { [key]: value },
      });
    return {};
  });
}

const nothingToDo = () => badRequest('Nothing to do. Specify at least one of "add" or "delete".');

/** POST /user_groups/{id}/members */
export async function updateUserGroupMembers(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  groupId: number,
  add: number[],
  remove: number[],
) {
  if (!add.length && !remove.length) throw nothingToDo();
  requireEditPolicy(realm, actor);
  return transact(ctx, async (trx, events) => {
    const graph = await GroupGraph.load(trx, realm.id);
    const group = groupForEdit(graph, actor, groupId);
    const current = new Set(graph.directMembers(group.id));
    const adding = await checkUsers(trx, realm, add);
    const already = adding.find((id) => current.has(id));
    if (already !== undefined)
      throw badRequest(`User ${already} is already a member of this group`);
    const removing = await checkUsers(trx, realm, remove, true);
    const absent = removing.find((id) => !current.has(id) && !adding.includes(id));
    if (absent !== undefined) throw badRequest(`There is no member '${absent}' in this user group`);
    if (adding.length) {
      await trx
        .insertInto('user_group_members')
        .values(adding.map((user_id) => ({ group_id: group.id, user_id })))
        .execute();
      await groupEvent(trx, realm, events, {
        op: 'add_members',
        group_id: group.id,
        user_ids: adding,
      });
    }
    if (removing.length) {
      await trx
        .deleteFrom('user_group_members')
        .where('group_id', '=', group.id)
        .where('user_id', 'in', removing)
        .execute();
      await groupEvent(trx, realm, events, {
        op: 'remove_members',
        group_id: group.id,
        user_ids: removing,
      });
    }
    return {};
  });
}

/** POST /user_groups/{id}/subgroups */
export async function updateUserGroupSubgroups(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  groupId: number,
  add: number[],
  remove: number[],
) {
  if (!add.length && !remove.length) throw nothingToDo();
  requireEditPolicy(realm, actor);
  return transact(ctx, async (trx, events) => {
    const graph = await GroupGraph.load(trx, realm.id);
    const group = groupForEdit(graph, actor, groupId);
    const check = (ids: number[]) => {
      const unique = [...new Set(ids)];
      const bad = unique.find((id) => !isDbId(id) || !graph.byId.has(id));
      if (bad !== undefined) throw badRequest(`Invalid user group ID: ${bad}`);
      return unique;
    };
    const adding = check(add);
    const removing = check(remove);
    const direct = new Set(graph.directSubgroups(group.id));
    for (const id of adding) {
      if (direct.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
      // A group may not contain itself, directly or through the groups it would gain.
      if (id === group.id || graph.recursiveSubgroups(id).has(group.id))
        throw badRequest(
          `User group ${group.id} is already a subgroup of one of the passed subgroups.`,
        );
    }
    const stranger = removing.find((id) => !direct.has(id));
    if (stranger !== undefined)
      throw badRequest(`User group ${stranger} is not a subgroup of this group.`);
    if (adding.length) {
      await trx
        .insertInto('user_group_subgroups')
        .values(adding.map((subgroup_id) => ({ group_id: group.id, subgroup_id })))
        .execute();
      await groupEvent(trx, realm, events, {
        op: 'add_subgroups',
        group_id: group.id,
        direct_subgroup_ids: adding,
      });
    }
    if (removing.length) {
      await trx
        .deleteFrom('user_group_subgroups')
        .where('group_id', '=', group.id)
        .where('subgroup_id', 'in', removing)
        .execute();
      await groupEvent(trx, realm, events, {
        op: 'remove_subgroups',
        group_id: group.id,
        direct_subgroup_ids: removing,
      });
    }
    return {};
  });
}

/** DELETE /user_groups/{id} */
export async function deleteUserGroup(ctx: AppContext, realm: Realm, actor: User, groupId: number) {
  requireEditPolicy(realm, actor);
  return transact(ctx, async (trx, events) => {
    const graph = await GroupGraph.load(trx, realm.id);
    const group = groupForEdit(graph, actor, groupId);
    const user = graph.groups.find((g) => g.id !== group.id && g.can_mention_group === group.id);
    if (user)
      throw badRequest(
        `Cannot delete user group '${group.name}': group '${user.name}' uses it to decide who may mention it.`,
      );
    // Groups that contain it lose it as a subgroup first, so clients never hold a dangling id.
    for (const parent of graph.groups) {
      if (parent.id === group.id || !graph.directSubgroups(parent.id).includes(group.id)) continue;
      await groupEvent(trx, realm, events, {
        op: 'remove_subgroups',
        group_id: parent.id,
        direct_subgroup_ids: [group.id],
      });
    }
    await trx
      .deleteFrom('user_group_subgroups')
      .where((eb) => eb.or([eb('group_id', '=', group.id), eb('subgroup_id', '=', group.id)]))
      .execute();
    await trx.deleteFrom('user_group_members').where('group_id', '=', group.id).execute();
    await trx.deleteFrom('user_groups').where('id', '=', group.id).execute();
    await groupEvent(trx, realm, events, { op: 'remove', group_id: group.id });
    return {};
  });
}
