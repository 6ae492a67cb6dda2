import { PNG } from '../endpoints.js';
import { TestClient } from '../client.js';
import { DEMO_PASSWORD } from '../harness.js';
import {
  ACCOUNTS,
  accountsBut,
  adminRequired,
  bad,
  botsRefused,
  insufficient,
  membersOnly,
  refused,
  type Row,
} from './types.js';

/**
 * Users, their own settings and filters, and user groups (zerver/views/users.py, user_settings.py,
 * presence.py, muted_users.py, alert_words.py, custom_profile_fields.py, user_groups.py).
 * `access_user_by_id(for_admin=True)` refuses non-administrators "Insufficient permission";
 * `@human_users_only` refuses bots; `@require_member_or_admin` refuses guests and bots; group
 * changes need user_group_edit_policy (members, the default) and, below moderators,
 * membership of the group (`access_user_group_by_id`).
 */
const admins = ['administrator', 'owner'] as const;
const humans = accountsBut('bot');
const hex = (text: string) => Buffer.from(text).toString('hex');
const groupEditors = ['moderator', ...admins] as const;
const groupWho = {
  allow: groupEditors,
  deny: { ...membersOnly, member: insufficient, formerSubscriber: insufficient },
};

export const USER_ROWS: Row[] = [
  {
    route: 'POST /mobile_push/test_notification',
    // Only the caller's own devices: another person's token is not recognized.
    who: { rest: refused(400, 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized') },
    setup: async (w) => {
      const token = hex(w.unique('cordelia-phone'));
      await w.cordelia.post('/users/me/apns_device_token', { token });
      return token;
    },
    call: (c, token: string) => c.post('/mobile_push/test_notification', { token }),
  },
  // The mobile apps' push tokens (`@human_users_only`): each person's own, registered then removed.
  ...(
    [
      ['/users/me/apns_device_token', 'aa'],
      ['/users/me/android_gcm_reg_id', 'fcm-'],
    ] as const
  ).flatMap(([path, prefix]): Row[] => [
    {
      route: `POST ${path}`,
      who: { allow: humans, deny: { bot: botsRefused } },
      call: (c, _t, w) => c.post(path, { token: `${prefix}${hex(w.unique(''))}` }),
    },
    {
      route: `DELETE ${path}`,
      who: { allow: humans, deny: { bot: botsRefused } },
      call: async (c, _t, w) => {
        const token = `${prefix}${hex(w.unique(''))}`;
        await c.post(path, { token });
        return c.delete(path, { token });
      },
    },
  ]),
  {
    route: 'GET /server_settings',
    who: { allow: ['spectator', 'deactivated', ...ACCOUNTS] },
    call: (c) => c.get('/server_settings'),
  },
  {
    route: 'POST /fetch_api_key',
    // Each actor logs in with their own address; the spectator has no account and bots no password.
    who: {
      allow: humans,
      deny: {
        spectator: refused(401, 'AUTHENTICATION_FAILED'),
        bot: refused(401, 'AUTHENTICATION_FAILED'),
        deactivated: refused(401, 'USER_DEACTIVATED'),
      },
    },
    call: (c) =>
      new TestClient(c.baseUrl).post('/fetch_api_key', {
        username: c.email ?? 'nobody@example.com',
        password: DEMO_PASSWORD,
      }),
  },
  { route: 'GET /users/me', who: { allow: ACCOUNTS }, call: (c) => c.get('/users/me') },
  { route: 'GET /users', who: { allow: ACCOUNTS }, call: (c) => c.get('/users') },
  {
    route: 'GET /users/:user',
    who: { allow: ACCOUNTS },
    call: (c, _t, w) => c.get(`/users/${w.id.cordelia}`),
  },
  {
    route: 'POST /users',
    // @require_realm_admin, then can_create_users, which nobody in the demo has.
    who: {
      deny: {
        administrator: bad('User not authorized to create users'),
        owner: bad('User not authorized to create users'),
      },
      rest: adminRequired,
    },
    call: (c, _t, w) =>
      c.post('/users', {
        email: `${w.unique('created')}@example.com`,
        password: 'a-long-password',
        full_name: 'Created',
      }),
  },
  {
    route: 'DELETE /users/me',
    // Each actor is a new account of its kind, so that the only owner is never the one leaving.
    who: { allow: ACCOUNTS },
    freshActor: true,
    call: (c) => c.delete('/users/me'),
  },
  {
    route: 'DELETE /users/:user',
    who: { allow: admins, rest: insufficient },
    setup: async (w) => (await w.account('member')).id,
    fresh: true,
    call: (c, id: number) => c.delete(`/users/${id}`),
  },
  {
    route: 'POST /users/:user/reactivate',
    who: { allow: admins, rest: insufficient },
    setup: async (w) => (await w.deactivatedAccount()).id,
    fresh: true,
    call: (c, id: number) => c.post(`/users/${id}/reactivate`),
  },
  {
    route: 'PATCH /users/:user',
    who: { allow: admins, rest: insufficient },
    setup: async (w) => (await w.account('member')).id,
    fresh: true,
    call: (c, id: number) => c.patch(`/users/${id}`, { full_name: 'Renamed by someone' }),
  },
  {
    route: 'GET /users/:user/presence',
    who: { allow: ACCOUNTS },
    call: (c, _t, w) => c.get(`/users/${w.id.cordelia}/presence`),
  },
  { route: 'GET /realm/presence', who: { allow: ACCOUNTS }, call: (c) => c.get('/realm/presence') },
  {
    route: 'POST /users/me/presence',
    who: { allow: humans, deny: { bot: botsRefused } },
    call: (c) => c.post('/users/me/presence', { status: 'active' }),
  },
  {
    route: 'POST /users/me/status',
    who: { allow: ACCOUNTS },
    call: (c) => c.post('/users/me/status', { status_text: 'Reading' }),
  },
  {
    route: 'GET /users/:user/status',
    who: { allow: ACCOUNTS },
    call: (c, _t, w) => c.get(`/users/${w.id.cordelia}/status`),
  },
  {
    route: 'POST /users/me/avatar',
    who: { allow: ACCOUNTS },
    call: (c) =>
      c.post('/users/me/avatar', { file: new File([PNG], 'a.png', { type: 'image/png' }) }),
  },
  {
    route: 'DELETE /users/me/avatar',
    who: { allow: ACCOUNTS },
    call: (c) => c.delete('/users/me/avatar'),
  },
  {
    route: 'POST /users/me/muted_users/:muted_user_id',
    who: { allow: ACCOUNTS },
    setup: async (w) => (await w.account('member')).id,
    fresh: true,
    call: (c, id: number) => c.post(`/users/me/muted_users/${id}`),
  },
  {
    route: 'DELETE /users/me/muted_users/:muted_user_id',
    who: { allow: ACCOUNTS },
    setup: async (w, actor) => {
      const id = (await w.account('member')).id;
      await w.as[actor].post(`/users/me/muted_users/${id}`);
      return id;
    },
    fresh: true,
    call: (c, id: number) => c.delete(`/users/me/muted_users/${id}`),
  },
  {
    route: 'GET /users/me/alert_words',
    who: { allow: ACCOUNTS },
    call: (c) => c.get('/users/me/alert_words'),
  },
  {
    route: 'POST /users/me/alert_words',
    who: { allow: ACCOUNTS },
    call: (c) => c.post('/users/me/alert_words', { alert_words: ['mockup'] }),
  },
  {
    route: 'DELETE /users/me/alert_words',
    who: { allow: ACCOUNTS },
    call: (c) => c.delete('/users/me/alert_words', { alert_words: ['mockup'] }),
  },
  {
    route: 'PATCH /users/me/profile_data',
    who: { allow: humans, deny: { bot: botsRefused } },
    call: (c, _t, w) =>
      c.patch('/users/me/profile_data', { data: [{ id: w.shared.profileField, value: 'matrix' }] }),
  },
  {
    route: 'DELETE /users/me/profile_data',
    who: { allow: humans, deny: { bot: botsRefused } },
    call: (c, _t, w) => c.delete('/users/me/profile_data', { data: [w.shared.profileField] }),
  },
  ...['/settings', '/settings/display', '/settings/notifications'].map((path): Row => ({
    route: `PATCH ${path}`,
    who: { allow: humans, deny: { bot: botsRefused } },
    call: (c) =>
      c.patch(
        path,
        path.endsWith('notifications')
          ? { enable_sounds: 'true' }
          : { twenty_four_hour_time: 'true' },
      ),
  })),

  {
    route: 'GET /user_groups',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c) => c.get('/user_groups'),
  },
  {
    route: 'POST /user_groups/create',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) =>
      c.post('/user_groups/create', {
        name: w.unique('Group '),
        description: 'matrix',
        members: [],
      }),
  },
  {
    route: 'PATCH /user_groups/:group_id',
    who: groupWho,
    call: (c, _t, w) =>
      c.patch(`/user_groups/${w.shared.group}`, { description: w.unique('described ') }),
  },
  {
    route: 'DELETE /user_groups/:group_id',
    who: groupWho,
    setup: (w) => w.userGroup(),
    fresh: true,
    call: (c, id: number) => c.delete(`/user_groups/${id}`),
  },
  {
    route: 'POST /user_groups/:group_id/members',
    who: groupWho,
    setup: async (w) => (await w.account('member')).id,
    fresh: true,
    call: (c, user: number, w) => c.post(`/user_groups/${w.shared.group}/members`, { add: [user] }),
  },
  {
    route: 'POST /user_groups/:group_id/subgroups',
    who: groupWho,
    setup: (w) => w.userGroup(),
    fresh: true,
    call: (c, sub: number, w) => c.post(`/user_groups/${w.shared.group}/subgroups`, { add: [sub] }),
  },
  {
    route: 'GET /user_groups/:group_id/members',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) => c.get(`/user_groups/${w.shared.group}/members`),
  },
  {
    route: 'GET /user_groups/:group_id/members/:user_id',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) => c.get(`/user_groups/${w.shared.group}/members/${w.id.cordelia}`),
  },
  {
    route: 'GET /user_groups/:group_id/subgroups',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) => c.get(`/user_groups/${w.shared.group}/subgroups`),
  },
];
