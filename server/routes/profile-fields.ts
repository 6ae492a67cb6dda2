import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p } from '../http/params.js';
import {
  createProfileField,
  deleteProfileField,
  getProfileFields,
  reorderProfileFields,
  updateProfileField,
} from '../actions/profile-fields.js';
import { removeOwnProfileData, updateOwnProfileData } from '../actions/profile-values.js';

export function profileFieldRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, { method: 'GET', path: '/realm/profile_fields', params: {} }, async ({ realm }) =>
    getProfileFields(ctx, realm),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/realm/profile_fields',
      params: {
        name: p.string().default(''),
        hint: p.string().default(''),
        field_type: p.int(),
        field_data: p.json(check.object).optional(),
        display_in_profile_summary: p.bool().default(false),
        required: p.bool().default(false),
        editable_by_user: p.bool().default(true),
      },
    },
    async ({ realm, user, params }) => createProfileField(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    { method: 'PATCH', path: '/realm/profile_fields', params: { order: p.intList() } },
    async ({ realm, user, params }) => reorderProfileFields(ctx, realm, user, params.order),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/realm/profile_fields/:field_id',
      pathInts: ['field_id'],
      params: {
        name: p.string().optional(),
        hint: p.string().optional(),
        field_data: p.json(check.object).optional(),
        display_in_profile_summary: p.bool().optional(),
        required: p.bool().optional(),
        editable_by_user: p.bool().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateProfileField(ctx, realm, user, pathInt('field_id'), params),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/realm/profile_fields/:field_id',
      pathInts: ['field_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => deleteProfileField(ctx, realm, user, pathInt('field_id')),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/users/me/profile_data',
      callers: 'humans',
      params: { data: p.json(check.list(check.object)) },
    },
    async ({ realm, user, params }) => updateOwnProfileData(ctx, realm, user, params.data),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/users/me/profile_data',
      callers: 'humans',
      params: { data: p.intList() },
    },
    async ({ realm, user, params }) => removeOwnProfileData(ctx, realm, user, params.data),
  );
}
