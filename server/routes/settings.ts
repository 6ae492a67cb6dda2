import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p, type ParamSpec } from '../http/params.js';
import { SETTING_NAMES, updateSettings } from '../actions/settings.js';

const settingParams: ParamSpec = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, p.raw().optional()]),
);

export function settingsRoutes(app: FastifyInstance, ctx: AppContext) {
  // The two legacy paths are deprecated aliases of PATCH /settings.
  for (const path of ['/settings', '/settings/display', '/settings/notifications']) {
    route(
      app,
      ctx,
      {
        method: 'PATCH',
        path,
        callers: 'humans',
        params: {
          ...settingParams,
          full_name: p.string().optional(),
          email: p.string().optional(),
          old_password: p.string().optional(),
          new_password: p.string().optional(),
        },
      },
      async ({ realm, user, params }) => {
        const { full_name, email, old_password, new_password, ...rest } = params as Record<
          string,
          string | undefined
        >;
        const settings: Record<string, string> = {};
        for (const [k, v] of Object.entries(rest)) if (v !== undefined) settings[k] = v;
        return updateSettings(ctx, realm, user, {
          settings,
          full_name,
          email,
          old_password,
          new_password,
        });
      },
    );
  }
}
