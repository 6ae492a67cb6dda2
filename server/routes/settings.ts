import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p, type ParamSpec } from '../http/params.js';
import { confirmEmailChange, SETTING_NAMES, updateSettings } from '../actions/settings.js';

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

  app.get('/accounts/confirm_new_email/:token', async (request, reply) => {
    const email = await confirmEmailChange(ctx, (request.params as { token: string }).token);
    reply.type('text/html; charset=utf-8');
    if (email === 'deactivated')
      return reply
        .code(401)
        .send('<!doctype html><title>Parley</title><p>This account is deactivated.</p>');
    if (!email)
      return reply
        .code(404)
        .send(
          '<!doctype html><title>Parley</title><p>This confirmation link is invalid or has expired.</p>',
        );
    const safe = email.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    return reply.send(
      `<!doctype html><title>Parley</title><p>Your email address is now <b>${safe}</b>. <a href="/">Back to Parley</a></p>`,
    );
  });
}
