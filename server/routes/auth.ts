import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { fetchApiKey } from '../actions/users.js';
import { realmDescriptionHtml, realmIconUrl, realmSettings } from '../lib/realm.js';
import { versionFields } from '../register/register.js';

export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    { method: 'GET', path: '/server_settings', auth: 'none', params: {} },
    async ({ realm }) => {
      const settings = realmSettings(realm);
      return {
        authentication_methods: {
          password: true,
          dev: false,
          email: true,
          ldap: false,
          remoteuser: false,
          github: false,
          azuread: false,
          gitlab: false,
          apple: false,
          google: false,
          saml: false,
          'openid connect': false,
        },
        external_authentication_methods: [],
        ...versionFields(),
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_uri: ctx.config.externalUrl,
        realm_url: ctx.config.externalUrl,
        realm_name: realm.name,
        realm_icon: realmIconUrl(ctx, realm),
        realm_description: realmDescriptionHtml(realm),
        realm_web_public_access_enabled: settings.enable_spectator_access,
      };
    },
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/fetch_api_key',
      auth: 'none',
      params: { username: p.string(), password: p.string() },
    },
    // Password guessing is bounded per account inside fetchApiKey, whatever address it comes from.
    async ({ realm, params }) => fetchApiKey(ctx, realm, params.username, params.password),
  );
}
