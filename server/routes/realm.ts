import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p, type ParamSpec } from '../http/params.js';
import { REALM_SETTING_ALIASES, REALM_SETTING_RULES, updateRealm } from '../actions/realm-admin.js';

const realmParams: ParamSpec = Object.fromEntries(
  [
    ...Object.keys(REALM_SETTING_RULES),
    'name',
    'description',
    'authentication_methods',
    'create_multiuse_invite_group',
  ].map((name) => [name, p.raw().optional()]),
);

export function realmRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    { method: 'PATCH', path: '/realm', params: realmParams, aliases: REALM_SETTING_ALIASES },
    async ({ realm, user, params }) => {
      const raw: Record<string, string> = {};
      for (const [k, v] of Object.entries(params as Record<string, string | undefined>))
        if (v !== undefined) raw[k] = v;
      return updateRealm(ctx, realm, user, raw);
    },
  );
}
