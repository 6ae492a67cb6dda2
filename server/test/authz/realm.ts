import { PNG } from './world.js';
import { visitorStreamResult } from '../visitor-stream.js';
import {
  ACCOUNTS,
  accountsBut,
  adminRequired,
  bad,
  botsRefused,
  membersOnly,
  ownerRequired,
  refused,
  type Row,
} from './types.js';

/**
 * Organization settings, linkifiers, custom profile fields and custom emoji (zerver/views/realm.py,
 * realm_linkifiers.py, custom_profile_fields.py, realm_emoji.py). Changes need @require_realm_admin,
 * some settings an owner; reading is open to every account. Emoji may be added under
 * add_custom_emoji_policy (members, the default) and removed by administrators or their author.
 */
const admins = ['administrator', 'owner'] as const;
const adminsOnly = { allow: admins, rest: adminRequired };
const notLoggedIn = refused(
  401,
  'UNAUTHORIZED',
  'Not logged in: API authentication or user session required',
);

export const REALM_ROWS: Row[] = [
  {
    // A Parley extension: the organization's queued and sent mail.
    route: 'GET /parley/mail',
    who: { allow: admins, deny: { bot: botsRefused }, rest: adminRequired },
    call: (c) => c.get('/parley/mail'),
  },
  {
    // A Parley extension, public by design: the web-public channels' events, live, for visitors.
    // It reads no credentials (a deactivated account's are not even looked at) and carries only
    // what visitors may read (web-public-events.test.ts), so everyone may open it.
    route: 'GET /parley/web_public_events',
    who: { allow: ['spectator', 'deactivated', ...ACCOUNTS] },
    call: (c) => visitorStreamResult(c.baseUrl, c.headers()),
  },
  {
    route: 'GET /parley/web_public_events',
    realm: 'spectatorsOff',
    // Closed with the organization's doors: refused to everyone as spectators are refused.
    who: { rest: notLoggedIn, deny: { spectator: notLoggedIn, deactivated: notLoggedIn } },
    call: (c) => visitorStreamResult(c.baseUrl, c.headers()),
  },
  {
    route: 'PATCH /realm',
    variant: 'an administrators setting',
    who: adminsOnly,
    call: (c, _t, w) => c.patch('/realm', { description: w.unique('The demo, described by ') }),
  },
  {
    route: 'PATCH /realm',
    variant: 'an owners setting',
    // waiting_period_threshold needs an owner; 0 is its current value, so nothing really changes.
    who: { allow: ['owner'], deny: { administrator: ownerRequired }, rest: adminRequired },
    call: (c) => c.patch('/realm', { waiting_period_threshold: '0' }),
  },
  {
    route: 'GET /realm/linkifiers',
    who: { allow: ACCOUNTS },
    call: (c) => c.get('/realm/linkifiers'),
  },
  {
    route: 'PATCH /realm/linkifiers',
    who: adminsOnly,
    setup: async (w) =>
      ((await w.as.owner.get('/realm/linkifiers')).body.linkifiers as any[]).map((l) => l.id),
    call: (c, ids: number[]) => c.patch('/realm/linkifiers', { ordered_linkifier_ids: ids }),
  },
  {
    route: 'POST /realm/filters',
    who: adminsOnly,
    call: (c, _t, w) =>
      c.post('/realm/filters', {
        pattern: `#${w.unique('lf')}(?P<id>[0-9]+)`,
        url_template: 'https://example.com/{id}',
      }),
  },
  {
    route: 'PATCH /realm/filters/:filter_id',
    who: adminsOnly,
    call: (c, _t, w) =>
      c.patch(`/realm/filters/${w.shared.linkifier}`, {
        pattern: `#${w.unique('lf')}(?P<id>[0-9]+)`,
        url_template: 'https://example.com/{id}',
      }),
  },
  {
    route: 'DELETE /realm/filters/:filter_id',
    who: adminsOnly,
    setup: (w) => w.linkifier(),
    fresh: true,
    call: (c, id: number) => c.delete(`/realm/filters/${id}`),
  },
  {
    route: 'GET /realm/profile_fields',
    who: { allow: ACCOUNTS },
    call: (c) => c.get('/realm/profile_fields'),
  },
  {
    route: 'POST /realm/profile_fields',
    who: adminsOnly,
    call: (c, _t, w) =>
      c.post('/realm/profile_fields', { name: w.unique('Field '), field_type: 1 }),
  },
  {
    route: 'PATCH /realm/profile_fields',
    who: adminsOnly,
    setup: async (w) =>
      ((await w.as.owner.get('/realm/profile_fields')).body.custom_fields as any[]).map(
        (f) => f.id,
      ),
    call: (c, order: number[]) => c.patch('/realm/profile_fields', { order }),
  },
  {
    route: 'PATCH /realm/profile_fields/:field_id',
    who: adminsOnly,
    call: (c, _t, w) =>
      c.patch(`/realm/profile_fields/${w.shared.profileField}`, { hint: w.unique('hint ') }),
  },
  {
    route: 'DELETE /realm/profile_fields/:field_id',
    who: adminsOnly,
    setup: (w) => w.profileField(),
    fresh: true,
    call: (c, id: number) => c.delete(`/realm/profile_fields/${id}`),
  },
  { route: 'GET /realm/emoji', who: { allow: ACCOUNTS }, call: (c) => c.get('/realm/emoji') },
  {
    route: 'POST /realm/emoji/:emoji_name',
    who: { allow: accountsBut('guest', 'bot'), deny: membersOnly },
    call: (c, _t, w) =>
      c.post(`/realm/emoji/${w.unique('up').toLowerCase()}`, {
        file: new File([PNG], 'e.png', { type: 'image/png' }),
      }),
  },
  {
    route: 'DELETE /realm/emoji/:emoji_name',
    // check_remove_custom_emoji: administrators, or the emoji's author (cordelia here).
    who: { allow: admins, rest: bad('Must be an organization administrator or emoji author') },
    setup: (w) => w.emoji(),
    fresh: true,
    call: (c, name: string) => c.delete(`/realm/emoji/${name}`),
  },
];
