import type { AppContext } from '../context.js';
import { sql } from 'kysely';
import { dialectOf, idList, joinedIds } from '../db/dialect.js';
import type { Database } from '../db/index.js';
import { cachedRow } from '../db/row-cache.js';
import type { Realm, User, UserGroup } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { isGuest } from '../domain/roles.js';
import { isDbId } from '../lib/admin-checks.js';

/**
 * User groups as the API shows them, and the read-only endpoints. Role-based system groups keep
 * no member rows: each holds the active users of its own role directly and the next stricter
 * role group as its subgroup, so a role change moves a user between groups without a write.
 */
export const SYSTEM_GROUP_STRUCTURE: Record<
  string,
  { role: number | null; subgroup: string | null }
> = {
  'role:owners': { role: 100, subgroup: null },
  'role:administrators': { role: 200, subgroup: 'role:owners' },
  'role:moderators': { role: 300, subgroup: 'role:administrators' },
  'role:fullmembers': { role: 400, subgroup: 'role:moderators' },
  'role:members': { role: null, subgroup: 'role:fullmembers' },
  'role:everyone': { role: 600, subgroup: 'role:members' },
};

/** The system group that holds users of `role` as direct members. */
export function roleGroupName(role: number): string | null {
  for (const [name, rule] of Object.entries(SYSTEM_GROUP_STRUCTURE))
    if (rule.role === role) return name;
  return null;
}

/** Every active group of an organization with its direct members and subgroups, loaded once. */
export class GroupGraph {
  readonly byId: Map<number, UserGroup>;
  private readonly members = new Map<number, number[]>();
  private readonly subgroups = new Map<number, number[]>();

  private constructor(
    readonly groups: UserGroup[],
    memberRows: { group_id: number; user_id: number }[],
    subgroupRows: { group_id: number; subgroup_id: number }[],
    /** the active users of each role, by role */
    activeByRole: Map<number, number[]>,
  ) {
    this.byId = new Map(groups.map((g) => [g.id, g]));
    const byName = new Map(groups.filter((g) => g.is_system_group).map((g) => [g.name, g.id]));
    for (const g of groups) {
      if (g.is_system_group) {
        const rule = SYSTEM_GROUP_STRUCTURE[g.name];
        this.members.set(g.id, rule?.role ? [...(activeByRole.get(rule.role) ?? [])] : []);
        const sub = rule?.subgroup ? byName.get(rule.subgroup) : undefined;
        this.subgroups.set(g.id, sub !== undefined ? [sub] : []);
      } else {
        this.members.set(g.id, []);
        this.subgroups.set(g.id, []);
      }
    }
    for (const r of memberRows)
      if (!this.byId.get(r.group_id)?.is_system_group)
        this.members.get(r.group_id)?.push(r.user_id);
    for (const r of subgroupRows) {
      if (!this.byId.get(r.group_id)?.is_system_group && this.byId.has(r.subgroup_id))
        this.subgroups.get(r.group_id)?.push(r.subgroup_id);
    }
    for (const list of [...this.members.values(), ...this.subgroups.values()])
      list.sort((a, b) => a - b);
  }

  static async load(db: Database, realmId: number): Promise<GroupGraph> {
    const groups = await db
      .selectFrom('user_groups')
      .selectAll()
      .where('realm_id', '=', realmId)
      .where('deactivated', '=', 0)
      .orderBy('id')
      .execute();
    const members = await db
      .selectFrom('user_group_members')
      .innerJoin('user_groups', 'user_groups.id', 'user_group_members.group_id')
      .select(['user_group_members.group_id', 'user_group_members.user_id'])
      .where('user_groups.realm_id', '=', realmId)
      .execute();
    const subgroups = await db
      .selectFrom('user_group_subgroups')
      .innerJoin('user_groups', 'user_groups.id', 'user_group_subgroups.group_id')
      .select(['user_group_subgroups.group_id', 'user_group_subgroups.subgroup_id'])
      .where('user_groups.realm_id', '=', realmId)
      .execute();
    // A few rows of joined ids rather than a row object per person (ten thousand at scale).
    const roles = await cachedRow(db, `roles:${realmId}`, () =>
      db
        .selectFrom('users')
        .select(['role', joinedIds(dialectOf(db), sql.ref('id')).as('ids')])
        .where('realm_id', '=', realmId)
        .where('is_active', '=', 1)
        .groupBy('role')
        .execute(),
    );
    const byRole = new Map((roles ?? []).map((r) => [r.role, idList(r.ids)]));
    return new GroupGraph(groups, members, subgroups, byRole);
  }

  directMembers(groupId: number): number[] {
    return this.members.get(groupId) ?? [];
  }

  directSubgroups(groupId: number): number[] {
    return this.subgroups.get(groupId) ?? [];
  }

  /** The group's subgroups at any depth (not the group itself unless a cycle leads back to it). */
  recursiveSubgroups(groupId: number): Set<number> {
    const seen = new Set<number>();
    const pending = [...this.directSubgroups(groupId)];
    while (pending.length) {
      const id = pending.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...this.directSubgroups(id));
    }
    return seen;
  }

  recursiveMembers(groupId: number): number[] {
    const ids = new Set(this.directMembers(groupId));
    for (const sub of this.recursiveSubgroups(groupId))
      for (const id of this.directMembers(sub)) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }

  idOfSystemGroup(name: string): number | null {
    return this.groups.find((g) => g.is_system_group && g.name === name)?.id ?? null;
  }

  /** A group as `realm_user_groups`, GET /user_groups and `user_group` add events show it. */
  toApi(group: UserGroup) {
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      members: this.directMembers(group.id),
      direct_subgroup_ids: this.directSubgroups(group.id),
      is_system_group: !!group.is_system_group,
      can_mention_group: group.can_mention_group ?? this.idOfSystemGroup('role:nobody'),
      date_created: group.is_system_group ? null : group.date_created,
      creator_id: group.creator_id,
      deactivated: false,
    };
  }
}

/** `realm_user_groups` of the register snapshot. */
export async function userGroupObjects(db: Database, realmId: number) {
  const graph = await GroupGraph.load(db, realmId);
  return graph.groups.map((g) => graph.toApi(g));
}

/** Bots and guests may not list groups (upstream: "members and administrators" only). */
function requireMember(user: User) {
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

export function groupFromGraph(graph: GroupGraph, groupId: number): UserGroup {
  const group = isDbId(groupId) ? graph.byId.get(groupId) : undefined;
  if (!group) throw badRequest('Invalid user group');
  return group;
}

/** GET /user_groups */
export async function getUserGroups(ctx: AppContext, realm: Realm, user: User) {
  requireMember(user);
  return { user_groups: await userGroupObjects(ctx.db, realm.id) };
}

/** GET /user_groups/{id}/members */
export async function getUserGroupMembers(
  ctx: AppContext,
  realm: Realm,
  groupId: number,
  directOnly: boolean,
) {
  const graph = await GroupGraph.load(ctx.db, realm.id);
  const group = groupFromGraph(graph, groupId);
  return { members: directOnly ? graph.directMembers(group.id) : graph.recursiveMembers(group.id) };
}

/** GET /user_groups/{id}/members/{user_id} */
export async function isUserGroupMember(
  ctx: AppContext,
  realm: Realm,
  groupId: number,
  userId: number,
  directOnly: boolean,
) {
  const graph = await GroupGraph.load(ctx.db, realm.id);
  const group = groupFromGraph(graph, groupId);
  const target = isDbId(userId)
    ? await ctx.db
        .selectFrom('users')
        .select(['id', 'is_active'])
        .where('realm_id', '=', realm.id)
        .where('id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!target) throw badRequest('No such user');
  if (!target.is_active) throw badRequest('User is deactivated');
  const members = directOnly ? graph.directMembers(group.id) : graph.recursiveMembers(group.id);
  return { is_user_group_member: members.includes(target.id) };
}

/** GET /user_groups/{id}/subgroups */
export async function getUserGroupSubgroups(
  ctx: AppContext,
  realm: Realm,
  groupId: number,
  directOnly: boolean,
) {
  const graph = await GroupGraph.load(ctx.db, realm.id);
  const group = groupFromGraph(graph, groupId);
  const ids = directOnly
    ? graph.directSubgroups(group.id)
    : [...graph.recursiveSubgroups(group.id)];
  return { subgroups: ids.filter((id) => id !== group.id).sort((a, b) => a - b) };
}

/**
 * Everyone a rendered message mentions: the people named, and the members of the groups named
 * (through their subgroups too), as the `mentioned` flag counts them.
 */
export async function mentionedUserIds(
  db: Database,
  realmId: number,
  md: { mentionedUserIds: readonly number[]; mentionedGroupIds: readonly number[] },
): Promise<number[]> {
  const ids = new Set(md.mentionedUserIds);
  if (md.mentionedGroupIds.length) {
    const graph = await GroupGraph.load(db, realmId);
    for (const groupId of md.mentionedGroupIds)
      if (graph.byId.has(groupId)) for (const id of graph.recursiveMembers(groupId)) ids.add(id);
  }
  return [...ids];
}
