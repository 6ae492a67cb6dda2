import { TOPIC } from './world.js';
import {
  ACCOUNTS,
  adminRequired,
  bad,
  guestsRefused,
  insufficient,
  invalidChannel,
  type Row,
} from './types.js';

/**
 * Channels, subscriptions and default channels. The reference rules live in zerver/lib/streams.py:
 * `access_stream_by_id` refuses a private channel one is not in ("Invalid channel ID"), with
 * `allow_realm_admin` letting administrators read its metadata and members;
 * `access_stream_for_delete_or_update` lets administrators change or archive any channel;
 * `list_to_streams` applies create_*_stream_policy; `can_subscribe_other_users` applies
 * invite_to_stream_policy (pinned in world.ts: public channels moderators, private channels
 * administrators, web-public owners, subscribing others moderators).
 */
const showsDesign = (list: any[] | undefined, design: number) =>
  (list ?? []).some((s) => s.stream_id === design);
const admins = ['administrator', 'owner'] as const;
const invalidDesignName = bad("Invalid channel name 'design'");

export const STREAM_ROWS: Row[] = [
  {
    route: 'GET /streams',
    who: { hide: ACCOUNTS },
    call: (c) => c.get('/streams'),
    reveals: (b, _t, w) => showsDesign(b.streams, w.stream.design),
    seenBy: 'cordelia',
  },
  {
    route: 'GET /streams/:stream_id',
    who: { allow: admins, rest: invalidChannel },
    call: (c, _t, w) => c.get(`/streams/${w.stream.design}`),
  },
  {
    route: 'GET /get_stream_id',
    who: { rest: invalidDesignName },
    call: (c) => c.get('/get_stream_id', { stream: 'design' }),
  },
  {
    route: 'GET /streams/:stream_id/members',
    who: { allow: admins, rest: invalidChannel },
    call: (c, _t, w) => c.get(`/streams/${w.stream.design}/members`),
  },
  {
    route: 'GET /users/:user/subscriptions/:stream_id',
    who: { allow: admins, rest: invalidChannel },
    call: (c, _t, w) => c.get(`/users/${w.id.cordelia}/subscriptions/${w.stream.design}`),
  },
  {
    route: 'GET /users/me/subscriptions',
    who: { hide: ACCOUNTS },
    call: (c) => c.get('/users/me/subscriptions'),
    reveals: (b, _t, w) => showsDesign(b.subscriptions, w.stream.design),
    seenBy: 'cordelia',
  },
  {
    route: 'POST /users/me/subscriptions',
    variant: 'join a private channel',
    // filter_stream_authorization: nobody joins a private channel by themselves, administrators
    // neither. A new channel per actor, so that one wrongly let in changes nothing for later rows.
    who: {
      deny: { guest: guestsRefused },
      rest: bad(/^Unable to access channel \(matrix-[a-z0-9]+\)\.$/),
    },
    setup: (w) => w.privateStream(),
    fresh: true,
    call: (c, s: { name: string }) =>
      c.post('/users/me/subscriptions', { subscriptions: [{ name: s.name }] }),
  },
  {
    route: 'POST /users/me/subscriptions',
    variant: 'subscribe someone else to a public channel',
    who: { allow: ['moderator', ...admins], deny: { guest: guestsRefused }, rest: insufficient },
    setup: async (w) => (await w.account('member')).id,
    fresh: true,
    call: (c, user: number) =>
      c.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'engineering' }],
        principals: [user],
      }),
  },
  {
    route: 'POST /users/me/subscriptions',
    variant: 'create a public channel',
    who: { allow: ['moderator', ...admins], deny: { guest: guestsRefused }, rest: insufficient },
    call: (c, _t, w) =>
      c.post('/users/me/subscriptions', { subscriptions: [{ name: w.unique('pub-') }] }),
  },
  {
    route: 'POST /users/me/subscriptions',
    variant: 'create a private channel',
    who: { allow: admins, deny: { guest: guestsRefused }, rest: insufficient },
    call: (c, _t, w) =>
      c.post('/users/me/subscriptions', {
        subscriptions: [{ name: w.unique('priv-') }],
        invite_only: true,
      }),
  },
  {
    route: 'POST /users/me/subscriptions',
    variant: 'create a web-public channel',
    who: { allow: ['owner'], deny: { guest: guestsRefused }, rest: insufficient },
    call: (c, _t, w) =>
      c.post('/users/me/subscriptions', {
        subscriptions: [{ name: w.unique('web-') }],
        is_web_public: true,
      }),
  },
  {
    route: 'DELETE /users/me/subscriptions',
    variant: 'leave design',
    // Not being subscribed is no error: design comes back in not_removed.
    who: { allow: ACCOUNTS },
    call: (c) => c.delete('/users/me/subscriptions', { subscriptions: ['design'] }),
  },
  {
    route: 'DELETE /users/me/subscriptions',
    variant: 'remove someone else from a private channel',
    // can_remove_subscribers_from_stream: access (administrators pass) and can_remove_subscribers_group.
    who: { allow: admins, rest: insufficient },
    setup: (w) => w.privateStream(),
    fresh: true,
    call: (c, s: { name: string }, w) =>
      c.delete('/users/me/subscriptions', { subscriptions: [s.name], principals: [w.id.cordelia] }),
  },
  {
    route: 'POST /users/me/subscriptions/properties',
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: w.stream.design, property: 'color', value: '#ffffff' }],
      }),
  },
  {
    route: 'POST /user_topics',
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.post('/user_topics', { stream_id: w.stream.design, topic: TOPIC, visibility_policy: 1 }),
  },
  {
    route: 'PATCH /users/me/subscriptions/muted_topics',
    who: { rest: invalidChannel },
    call: (c, _t, w) =>
      c.patch('/users/me/subscriptions/muted_topics', {
        op: 'add',
        stream_id: w.stream.design,
        topic: TOPIC,
      }),
  },
  {
    route: 'PATCH /streams/:stream_id',
    variant: 'describe design',
    who: { allow: admins, rest: invalidChannel },
    call: (c, _t, w) =>
      c.patch(`/streams/${w.stream.design}`, { description: w.unique('Private mockups ') }),
  },
  {
    route: 'PATCH /streams/:stream_id',
    variant: 'make a public channel web-public',
    who: { allow: ['owner'], deny: { administrator: insufficient }, rest: adminRequired },
    setup: (w) => w.publicStream(),
    fresh: true,
    call: (c, s: { id: number }) => c.patch(`/streams/${s.id}`, { is_web_public: true }),
  },
  {
    route: 'DELETE /streams/:stream_id',
    who: { allow: admins, rest: invalidChannel },
    setup: (w) => w.privateStream(),
    fresh: true,
    call: (c, s: { id: number }) => c.delete(`/streams/${s.id}`),
  },
  {
    route: 'POST /streams/:stream_id/delete_topic',
    // @require_realm_admin first, then access_stream_by_id without the administrators' exception.
    who: { deny: { administrator: invalidChannel, owner: invalidChannel }, rest: adminRequired },
    setup: (w) => w.designTopic(),
    fresh: true,
    call: (c, topic: string, w) =>
      c.post(`/streams/${w.stream.design}/delete_topic`, { topic_name: topic }),
  },
  {
    route: 'POST /default_streams',
    variant: 'a private channel',
    who: { deny: { administrator: invalidChannel, owner: invalidChannel }, rest: adminRequired },
    setup: (w) => w.privateStream(),
    fresh: true,
    call: (c, s: { id: number }) => c.post('/default_streams', { stream_id: s.id }),
  },
  {
    route: 'DELETE /default_streams',
    who: { allow: admins, rest: adminRequired },
    call: (c, _t, w) => c.delete('/default_streams', { stream_id: w.stream.design }),
  },
  {
    route: 'POST /default_stream_groups/create',
    variant: 'with design',
    who: {
      deny: { administrator: invalidDesignName, owner: invalidDesignName },
      rest: adminRequired,
    },
    call: (c, _t, w) =>
      c.post('/default_stream_groups/create', {
        group_name: w.unique('dsg '),
        description: 'x',
        stream_names: ['design'],
      }),
  },
  {
    route: 'POST /default_stream_groups/create',
    variant: 'with a public channel',
    who: { allow: admins, rest: adminRequired },
    call: (c, _t, w) =>
      c.post('/default_stream_groups/create', {
        group_name: w.unique('dsg '),
        description: 'x',
        stream_names: ['engineering'],
      }),
  },
  {
    route: 'PATCH /default_stream_groups/:group_id',
    who: { allow: admins, rest: adminRequired },
    call: (c, _t, w) =>
      c.patch(`/default_stream_groups/${w.shared.defaultStreamGroup}`, {
        new_description: w.unique('described '),
      }),
  },
  {
    route: 'PATCH /default_stream_groups/:group_id/streams',
    variant: 'add design',
    who: {
      deny: { administrator: invalidDesignName, owner: invalidDesignName },
      rest: adminRequired,
    },
    call: (c, _t, w) =>
      c.patch(`/default_stream_groups/${w.shared.defaultStreamGroup}/streams`, {
        op: 'add',
        stream_names: ['design'],
      }),
  },
  {
    route: 'DELETE /default_stream_groups/:group_id',
    who: { allow: admins, rest: adminRequired },
    setup: (w) => w.defaultStreamGroup(),
    fresh: true,
    call: (c, id: number) => c.delete(`/default_stream_groups/${id}`),
  },
];
