import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import {
  getUserGroupMembers,
  getUserGroups,
  getUserGroupSubgroups,
  isUserGroupMember,
} from '../actions/user-groups.js';
import {
  createUserGroup,
  deleteUserGroup,
  updateUserGroup,
  updateUserGroupMembers,
  updateUserGroupSubgroups,
} from '../actions/user-group-edits.js';

/** List, create, change, deactivate. */
function groups(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(app, ctx, { method: 'GET', path: '/user_groups', params: {} }, async ({ realm, user }) =>
    getUserGroups(ctx, realm, user),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/user_groups/create',
      callers: 'members',
      params: {
        name: p.string(),
        description: p.string(),
        members: p.intList(),
        can_mention_group: p.int().optional(),
      },
    },
    async ({ realm, user, params }) => createUserGroup(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/user_groups/:group_id',
      callers: 'members',
      pathInts: ['group_id'],
      params: {
        name: p.string().optional(),
        description: p.string().optional(),
        can_mention_group: p.raw().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateUserGroup(ctx, realm, user, pathInt('group_id'), params),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/user_groups/:group_id',
      callers: 'members',
      pathInts: ['group_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => deleteUserGroup(ctx, realm, user, pathInt('group_id')),
  );
}

/** Ids to add and ids to remove, for members and for subgroups. */
const changes = { add: p.intList().default([]), delete: p.intList().default([]) };

/** Members and subgroups: change them, list them, ask whether someone is a member. */
function membersAndSubgroups(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/user_groups/:group_id/members',
      callers: 'members',
      pathInts: ['group_id'],
      params: changes,
    },
    async ({ realm, user, params, pathInt }) =>
      updateUserGroupMembers(ctx, realm, user, pathInt('group_id'), params.add, params.delete),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/user_groups/:group_id/subgroups',
      callers: 'members',
      pathInts: ['group_id'],
      params: changes,
    },
    async ({ realm, user, params, pathInt }) =>
      updateUserGroupSubgroups(ctx, realm, user, pathInt('group_id'), params.add, params.delete),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/user_groups/:group_id/members',
      callers: 'members',
      pathInts: ['group_id'],
      params: { direct_member_only: p.bool().default(false) },
    },
    async ({ realm, params, pathInt }) =>
      getUserGroupMembers(ctx, realm, pathInt('group_id'), params.direct_member_only),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/user_groups/:group_id/members/:user_id',
      callers: 'members',
      pathInts: ['group_id', 'user_id'],
      params: { direct_member_only: p.bool().default(false) },
    },
    async ({ realm, params, pathInt }) =>
      isUserGroupMember(
        ctx,
        realm,
        pathInt('group_id'),
        pathInt('user_id'),
        params.direct_member_only,
      ),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/user_groups/:group_id/subgroups',
      callers: 'members',
      pathInts: ['group_id'],
      params: { direct_subgroup_only: p.bool().default(false) },
    },
    async ({ realm, params, pathInt }) =>
      getUserGroupSubgroups(ctx, realm, pathInt('group_id'), params.direct_subgroup_only),
  );
}

/** The "Users" section's user groups. */
export async function userGroupRoutes(app: FastifyInstance, opts: RoutesOptions) {
  groups(app, opts);
  membersAndSubgroups(app, opts);
}
