import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, MAX_ID, p, type ParamSpec } from '../http/params.js';
import { acceptFiles, filesOf } from '../http/multipart.js';
import { badRequest } from '../domain/errors.js';
import {
  createUserByAdmin,
  getOwnUser,
  getUserByEmail,
  getUserById,
  getUsers,
} from '../actions/users.js';
import {
  deactivateOwnAccount,
  deactivateUserByAdmin,
  reactivateUser,
} from '../actions/user-admin.js';
import { updateUserByAdmin } from '../actions/user-edits.js';
import { setTypingStatus } from '../actions/typing.js';
import { getStatus, updateStatus } from '../actions/user-status.js';
import { updatePresence, userPresence } from '../actions/presence.js';
import { SETTING_NAMES, updateSettings } from '../actions/settings.js';
import { removeOwnProfileData, updateOwnProfileData } from '../actions/profile-values.js';
import { muteUser, unmuteUser } from '../actions/muted-users.js';
import { addAlertWords, getAlertWords, removeAlertWords } from '../actions/alert-words.js';
import { deleteAvatar, uploadAvatar } from '../actions/avatars.js';
import {
  addPushDevice,
  PUSH_KIND,
  removePushDevice,
  testPushNotification,
} from '../actions/push-devices.js';

/*
 * The API documentation's "Users" section: people (lists, one by id or email, creating, changing,
 * deactivating), typing notifications, statuses, presence, one's own settings, profile data and
 * avatar, muted users and alert words. User groups and bots are in user-groups.ts and bots.ts.
 */

/** Own user, all users, one by id or email. */
function userLookups(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(app, ctx, { method: 'GET', path: '/users/me', params: {} }, async ({ realm, user }) =>
    getOwnUser(ctx, realm, user),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users',
      params: {
        client_gravatar: p.bool().default(true),
        include_custom_profile_fields: p.bool().default(false),
        user_ids: p.intList().optional(),
      },
    },
    async ({ realm, user, params }) =>
      getUsers(ctx, realm, user, {
        includeCustomProfileFields: params.include_custom_profile_fields,
        userIds: params.user_ids,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/:user',
      params: {
        client_gravatar: p.bool().default(true),
        include_custom_profile_fields: p.bool().default(false),
      },
    },
    async ({ realm, user, params, path }) => {
      const ref = path.user;
      if (/^\d{1,15}$/.test(ref)) {
        const id = Number(ref) <= MAX_ID ? Number(ref) : -1;
        return getUserById(ctx, realm, user, id, params.include_custom_profile_fields);
      }
      return getUserByEmail(ctx, realm, user, ref, params.include_custom_profile_fields);
    },
  );
}

/** Create, change, deactivate (someone else or oneself), reactivate. */
function userAccounts(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users',
      params: { email: p.string(), password: p.string(), full_name: p.string() },
    },
    async ({ realm, user, params }) => createUserByAdmin(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/users/:user',
      pathInts: ['user'],
      params: {
        full_name: p.string().optional(),
        role: p.int().optional(),
        profile_data: p.json(check.list(check.object)).optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateUserByAdmin(ctx, realm, user, pathInt('user'), params),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/users/:user', pathInts: ['user'], params: {} },
    async ({ realm, user, pathInt }) => deactivateUserByAdmin(ctx, realm, user, pathInt('user')),
  );

  route(
    app,
    ctx,
    { method: 'POST', path: '/users/:user/reactivate', pathInts: ['user'], params: {} },
    async ({ realm, user, pathInt }) => reactivateUser(ctx, realm, user, pathInt('user')),
  );

  route(app, ctx, { method: 'DELETE', path: '/users/me', params: {} }, async ({ realm, user }) =>
    deactivateOwnAccount(ctx, realm, user),
  );
}

/** What others see someone doing: typing, and their status. */
function typingAndStatus(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/typing',
      params: {
        op: p.oneOf(['start', 'stop'] as const),
        type: p.string().default('direct'),
        to: p.idList().optional(),
        stream_id: p.id().optional(),
        topic: p.string().optional(),
      },
    },
    async ({ realm, user, params }) => {
      if (params.type !== 'direct' && params.type !== 'stream' && params.type !== 'channel')
        throw badRequest(
          params.type === 'private'
            ? "Invalid type: 'private' is no longer supported; use 'direct'"
            : 'Invalid type',
        );
      return setTypingStatus(ctx, realm, user, {
        op: params.op,
        type: params.type === 'direct' ? 'direct' : 'stream',
        to: params.to,
        streamId: params.stream_id,
        topic: params.topic,
      });
    },
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/status',
      params: {
        away: p.bool().optional(),
        status_text: p.string().optional(),
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().optional(),
      },
    },
    async ({ realm, user, params }) => updateStatus(ctx, realm, user, params),
  );
  route(
    app,
    ctx,
    { method: 'GET', path: '/users/:user/status', pathInts: ['user'], params: {} },
    async ({ realm, pathInt }) => getStatus(ctx.db, realm, pathInt('user')),
  );
}

/** Whether someone is active, idle or offline. */
function presence(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/presence',
      callers: 'humans',
      params: {
        status: p.oneOf(['active', 'idle'] as const),
        ping_only: p.bool().default(false),
        new_user_input: p.bool().default(false),
        slim_presence: p.bool().default(false),
        last_update_id: p.int().optional(),
        history_limit_days: p.int({ min: 1 }).optional(),
      },
    },
    async ({ realm, user, params }) => updatePresence(ctx, realm, user, params),
  );
  route(
    app,
    ctx,
    { method: 'GET', path: '/users/:user/presence', params: {} },
    async ({ realm, path }) => userPresence(ctx, realm, path.user),
  );
}

const settingParams: ParamSpec = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, p.raw().optional()]),
);

/** One's own settings and custom profile data. */
function ownSettings(app: FastifyInstance, { ctx }: RoutesOptions) {
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

/** Muted users and alert words: a user's own filters on what reaches them. */
function ownFilters(app: FastifyInstance, { ctx }: RoutesOptions) {
  const muted = {
    path: '/users/me/muted_users/:muted_user_id',
    pathInts: ['muted_user_id'],
    params: {},
  };
  route(app, ctx, { method: 'POST', ...muted }, async ({ realm, user, pathInt }) =>
    muteUser(ctx, realm, user, pathInt('muted_user_id')),
  );
  route(app, ctx, { method: 'DELETE', ...muted }, async ({ realm, user, pathInt }) =>
    unmuteUser(ctx, realm, user, pathInt('muted_user_id')),
  );

  route(app, ctx, { method: 'GET', path: '/users/me/alert_words', params: {} }, async ({ user }) =>
    getAlertWords(ctx, user),
  );
  route(
    app,
    ctx,
    { method: 'POST', path: '/users/me/alert_words', params: { alert_words: p.stringList() } },
    async ({ realm, user, params }) => addAlertWords(ctx, realm, user, params.alert_words),
  );
  route(
    app,
    ctx,
    { method: 'DELETE', path: '/users/me/alert_words', params: { alert_words: p.stringList() } },
    async ({ realm, user, params }) => removeAlertWords(ctx, realm, user, params.alert_words),
  );
}

/** One's avatar: the image comes as a multipart file (http/multipart.ts). */
async function ownAvatar(scope: FastifyInstance, { ctx }: RoutesOptions) {
  await scope.register(acceptFiles, { ctx });
  route(
    scope,
    ctx,
    { method: 'POST', path: '/users/me/avatar', params: {} },
    async ({ realm, user, raw }) => uploadAvatar(ctx, realm, user, filesOf(raw)),
  );
  route(
    scope,
    ctx,
    { method: 'DELETE', path: '/users/me/avatar', params: {} },
    async ({ realm, user }) => deleteAvatar(ctx, realm, user),
  );
}

export async function userRoutes(app: FastifyInstance, opts: RoutesOptions) {
  userLookups(app, opts);
  userAccounts(app, opts);
  typingAndStatus(app, opts);
  presence(app, opts);
  ownSettings(app, opts);
  ownFilters(app, opts);
  pushDevices(app, opts);
  app.register(ownAvatar, opts);
}

/** The mobile apps' push tokens: registered after log-in, removed at log-out (people only). */
function pushDevices(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/mobile_push/test_notification',
      params: { token: p.string().optional() },
    },
    async ({ user, params }) => testPushNotification(ctx, user, params.token),
  );
  const kinds = [
    ['/users/me/apns_device_token', PUSH_KIND.APNS],
    ['/users/me/android_gcm_reg_id', PUSH_KIND.GCM],
  ] as const;
  for (const [path, kind] of kinds) {
    route(
      app,
      ctx,
      {
        method: 'POST',
        path,
        callers: 'humans',
        // Only iOS tokens name the app they are for.
        params: {
          token: p.string(),
          ...(kind === PUSH_KIND.APNS ? { appid: p.string().optional() } : {}),
        },
      },
      async ({ user, params }) =>
        addPushDevice(ctx, user, kind, params.token, (params as { appid?: string }).appid ?? null),
    );
    route(
      app,
      ctx,
      { method: 'DELETE', path, callers: 'humans', params: { token: p.string() } },
      async ({ user, params }) => removePushDevice(ctx, user, kind, params.token),
    );
  }
}
