import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p, type ParamSpec } from '../http/params.js';
import { acceptFiles, filesOf } from '../http/multipart.js';
import { realmDescriptionHtml, realmIconUrl, realmSettings } from '../lib/realm.js';
import { REALM_SETTING_ALIASES, REALM_SETTING_RULES, updateRealm } from '../actions/realm-admin.js';
import {
  addLinkifier,
  getLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
  updateLinkifier,
} from '../actions/linkifiers.js';
import { addRealmEmoji, deactivateRealmEmoji, getRealmEmoji } from '../actions/realm-emoji.js';
import {
  createProfileField,
  deleteProfileField,
  getProfileFields,
  reorderProfileFields,
  updateProfileField,
} from '../actions/profile-fields.js';
import { realmPresence } from '../actions/presence.js';
import { versionFields } from '../register/register.js';
import { WEB_PUBLIC_EVENTS } from '../lib/web-public-events.js';
import type { Config } from '../config.js';

/*
 * The API documentation's "Server & organizations" section: the server's settings, the
 * organization's own settings, linkifiers, custom emoji, custom profile fields, and everyone's
 * presence.
 */

/**
 * The extensions this server offers (see docs/architecture.md): `mail_log`, the organization's
 * outgoing mail for its administrators (GET /parley/mail), and, unless the configuration turns
 * it off, `web_public_events`, the web-public channels' events live for visitors
 * (GET /parley/web_public_events).
 */
export function parleyExtensions(config: Config): string[] {
  return ['mail_log', ...(config.webPublicEvents ? [WEB_PUBLIC_EVENTS] : [])];
}

/** What a client learns before logging in: how to log in, and which organization this is. */
function serverSettings(app: FastifyInstance, { ctx }: RoutesOptions) {
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
        // Parley's additions to the API, by name, for clients that know them (ours); a field
        // other clients ignore, named so that it cannot be taken for one of the reference's.
        parley_extensions: parleyExtensions(ctx.config),
      };
    },
  );
}

const realmParams: ParamSpec = Object.fromEntries(
  [
    ...Object.keys(REALM_SETTING_RULES),
    'name',
    'description',
    'authentication_methods',
    'create_multiuse_invite_group',
  ].map((name) => [name, p.raw().optional()]),
);

/** The organization's settings, and everyone's presence. */
function organization(app: FastifyInstance, { ctx }: RoutesOptions) {
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

  route(app, ctx, { method: 'GET', path: '/realm/presence', params: {} }, async ({ realm }) =>
    realmPresence(ctx, realm),
  );
}

function linkifiers(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(app, ctx, { method: 'GET', path: '/realm/linkifiers', params: {} }, async ({ realm }) =>
    getLinkifiers(ctx, realm),
  );

  route(
    app,
    ctx,
    { method: 'PATCH', path: '/realm/linkifiers', params: { ordered_linkifier_ids: p.intList() } },
    async ({ realm, user, params }) =>
      reorderLinkifiers(ctx, realm, user, params.ordered_linkifier_ids),
  );

  const linkifier = { pattern: p.string(), url_template: p.string() };
  route(
    app,
    ctx,
    { method: 'POST', path: '/realm/filters', params: linkifier },
    async ({ realm, user, params }) => addLinkifier(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/realm/filters/:filter_id',
      pathInts: ['filter_id'],
      params: linkifier,
    },
    async ({ realm, user, params, pathInt }) =>
      updateLinkifier(ctx, realm, user, pathInt('filter_id'), params),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/realm/filters/:filter_id', pathInts: ['filter_id'], params: {} },
    async ({ realm, user, pathInt }) => removeLinkifier(ctx, realm, user, pathInt('filter_id')),
  );
}

/**
 * Custom emoji: an image comes as a multipart file (http/multipart.ts). The images themselves
 * are served with the other images, in assets.ts.
 */
async function customEmoji(scope: FastifyInstance, { ctx }: RoutesOptions) {
  await scope.register(acceptFiles, { ctx });
  route(scope, ctx, { method: 'GET', path: '/realm/emoji', params: {} }, async ({ realm }) =>
    getRealmEmoji(ctx, realm),
  );

  route(
    scope,
    ctx,
    { method: 'POST', path: '/realm/emoji/:emoji_name', callers: 'humans', params: {} },
    async ({ realm, user, path: p, raw }) =>
      addRealmEmoji(ctx, realm, user, p.emoji_name ?? '', filesOf(raw)),
  );

  route(
    scope,
    ctx,
    { method: 'DELETE', path: '/realm/emoji/:emoji_name', params: {} },
    async ({ realm, user, path: p }) => deactivateRealmEmoji(ctx, realm, user, p.emoji_name ?? ''),
  );
}

function profileFields(app: FastifyInstance, { ctx }: RoutesOptions) {
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
}

export async function serverAndOrganizationRoutes(app: FastifyInstance, opts: RoutesOptions) {
  serverSettings(app, opts);
  organization(app, opts);
  linkifiers(app, opts);
  app.register(customEmoji, opts);
  profileFields(app, opts);
}
