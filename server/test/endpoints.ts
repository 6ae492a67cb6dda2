import type { Method } from './openapi.js';
import { DEMO_PASSWORD, type TestServer } from './harness.js';
import { TestClient } from './client.js';

/**
 * Every endpoint the server registers, called as a real client would, in an order that makes each
 * call valid; then a few calls that fail on purpose. Shared by the OpenAPI and malformed sweeps.
 */

export type Who = 'hamlet' | 'othello' | 'iago' | 'desdemona' | 'yorick' | 'bot' | 'anon';
export type Vars = Record<string, any>;
export interface Step {
  method: Method;
  /** the path as upstream names it (templated), or the server's own for NOT_UPSTREAM ones */
  path: string;
  /** the upstream path whose schema applies, when it differs from `path` */
  schemaPath?: string;
  as?: Who;
  params?: (v: Vars) => Record<string, unknown>;
  pathValues?: (v: Vars) => Record<string, string | number>;
  status?: number;
  /** a component schema the body must match instead of the operation's (an error it does not list) */
  component?: string;
  then?: (body: any, v: Vars) => void;
}

export const CAPS = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
};
const narrowGeneral = [{ operator: 'channel', operand: 'general' }];
/** A 1x1 PNG, for custom emoji. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** '/user_uploads/2/ab/cd/x.txt' -> the realm id and the rest, as the temporary-URL endpoint takes them. */
const uploadPathValues = (url: string) => ({
  realm_id_str: url.split('/')[2]!,
  filename: url.split('/').slice(3).join('/'),
});
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

export const STEPS: Step[] = [
  { method: 'GET', path: '/server_settings', as: 'anon' },
  {
    method: 'POST',
    path: '/fetch_api_key',
    as: 'anon',
    params: () => ({ username: 'hamlet@example.com', password: DEMO_PASSWORD }),
  },
  {
    method: 'POST',
    path: '/register',
    params: () => ({ apply_markdown: true, client_capabilities: CAPS }),
    then: (b, v) => (v.q.hamlet = b.queue_id),
  },
  {
    method: 'POST',
    path: '/register',
    params: () => ({ include_subscribers: true }),
    then: (b, v) => (v.q.legacy = b.queue_id),
  },
  {
    method: 'POST',
    path: '/register',
    as: 'othello',
    params: () => ({ client_capabilities: CAPS }),
    then: (b, v) => (v.q.othello = b.queue_id),
  },
  {
    method: 'POST',
    path: '/register',
    as: 'iago',
    params: () => ({ client_capabilities: CAPS, all_public_streams: true }),
    then: (b, v) => (v.q.iago = b.queue_id),
  },
  {
    method: 'POST',
    path: '/register',
    as: 'anon',
    params: () => ({ client_gravatar: false }),
    then: (b, v) => (v.spectatorQueue = b.queue_id),
  },
  { method: 'GET', path: '/users/me' },
  { method: 'GET', path: '/users', params: () => ({ include_custom_profile_fields: true }) },
  { method: 'GET', path: '/users/{user_id}', pathValues: (v) => ({ user_id: v.othelloId }) },
  { method: 'GET', path: '/users/{email}', pathValues: () => ({ email: 'othello@example.com' }) },
  {
    method: 'POST',
    path: '/users',
    as: 'desdemona',
    params: () => ({
      email: `horatio-${Date.now()}@example.com`,
      password: 'a-long-password',
      full_name: 'Horatio',
    }),
    then: (b, v) => (v.horatioId = b.user_id),
  },
  {
    method: 'GET',
    path: '/streams',
    as: 'iago',
    params: () => ({ include_all_active: true, include_default: true, include_web_public: true }),
  },
  { method: 'GET', path: '/streams/{stream_id}', pathValues: (v) => ({ stream_id: v.generalId }) },
  { method: 'GET', path: '/get_stream_id', params: () => ({ stream: 'general' }) },
  { method: 'GET', path: '/users/me/subscriptions', params: () => ({ include_subscribers: true }) },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    params: () => ({
      subscriptions: [{ name: 'openapi check', description: 'made by the **test**' }],
    }),
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    params: (v) => ({ subscriptions: [{ name: 'openapi check' }], principals: [v.othelloId] }),
  },
  {
    method: 'GET',
    path: '/get_stream_id',
    params: () => ({ stream: 'openapi check' }),
    then: (b, v) => (v.checkId = b.stream_id),
  },
  {
    method: 'GET',
    path: '/streams/{stream_id}/members',
    pathValues: (v) => ({ stream_id: v.checkId }),
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    params: (v) => ({
      subscription_data: [
        { stream_id: v.generalId, property: 'color', value: '#aabbcc' },
        { stream_id: v.generalId, property: 'is_muted', value: false },
      ],
    }),
  },
  {
    method: 'POST',
    path: '/messages',
    params: (v) => ({
      type: 'stream',
      to: 'general',
      topic: 'openapi',
      content: 'Hello @**Othello, the Moor of Venice** :smile:',
      queue_id: v.q.hamlet,
      local_id: '1.5',
    }),
    then: (b, v) => (v.msgId = b.id),
  },
  {
    method: 'POST',
    path: '/messages',
    params: (v) => ({ type: 'direct', to: [v.othelloId], content: 'a direct word' }),
    then: (b, v) => (v.dmId = b.id),
  },
  {
    method: 'GET',
    path: '/messages',
    params: () => ({ anchor: 'newest', num_before: 3, narrow: narrowGeneral }),
  },
  {
    method: 'GET',
    path: '/messages',
    as: 'anon',
    params: () => ({
      anchor: 'oldest',
      num_after: 2,
      narrow: [{ operator: 'channel', operand: 'welcome' }],
    }),
  },
  { method: 'GET', path: '/messages/{message_id}', pathValues: (v) => ({ message_id: v.msgId }) },
  {
    method: 'GET',
    path: '/messages/matches_narrow',
    params: (v) => ({ msg_ids: [v.msgId, v.dmId], narrow: narrowGeneral }),
  },
  { method: 'POST', path: '/messages/render', params: () => ({ content: '**bold** and `code`' }) },
  {
    method: 'POST',
    path: '/messages/flags',
    params: (v) => ({ messages: [v.msgId], op: 'add', flag: 'starred' }),
  },
  {
    method: 'POST',
    path: '/messages/flags/narrow',
    params: (v) => ({
      anchor: String(v.msgId),
      num_before: 0,
      num_after: 0,
      narrow: [],
      op: 'remove',
      flag: 'starred',
    }),
  },
  {
    method: 'PATCH',
    path: '/messages/{message_id}',
    pathValues: (v) => ({ message_id: v.msgId }),
    params: () => ({ content: 'Hello again, edited' }),
  },
  {
    method: 'GET',
    path: '/messages/{message_id}/history',
    pathValues: (v) => ({ message_id: v.msgId }),
  },
  {
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    pathValues: (v) => ({ message_id: v.msgId }),
    params: () => ({ emoji_name: 'smile' }),
  },
  {
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    pathValues: (v) => ({ message_id: v.msgId }),
    params: () => ({ emoji_name: 'smile' }),
  },
  {
    method: 'POST',
    path: '/messages',
    params: () => ({
      type: 'stream',
      to: 'general',
      topic: 'openapi',
      content: '/poll Lunch?\nPizza',
    }),
    then: (b, v) => (v.pollId = b.id),
  },
  {
    method: 'POST',
    path: '/submessage',
    as: 'othello',
    params: (v) => ({
      message_id: v.pollId,
      msg_type: 'widget',
      content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
    }),
  },
  {
    method: 'GET',
    path: '/messages/{message_id}/read_receipts',
    pathValues: (v) => ({ message_id: v.msgId }),
  },
  { method: 'POST', path: '/typing', params: (v) => ({ op: 'start', to: [v.othelloId] }) },
  {
    method: 'POST',
    path: '/typing',
    params: (v) => ({ op: 'stop', type: 'stream', stream_id: v.generalId, topic: 'openapi' }),
  },
  {
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    pathValues: (v) => ({ stream_id: v.generalId }),
  },
  {
    method: 'POST',
    path: '/user_topics',
    params: (v) => ({ stream_id: v.generalId, topic: 'openapi', visibility_policy: 2 }),
  },
  {
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    params: () => ({ op: 'add', stream: 'general', topic: 'openapi muted' }),
  },
  {
    method: 'POST',
    path: '/mark_topic_as_read',
    as: 'othello',
    params: (v) => ({ stream_id: v.generalId, topic_name: 'openapi' }),
  },
  {
    method: 'POST',
    path: '/mark_stream_as_read',
    as: 'othello',
    params: (v) => ({ stream_id: v.generalId }),
  },
  { method: 'POST', path: '/mark_all_as_read', as: 'othello' },
  {
    method: 'POST',
    path: '/drafts',
    params: (v) => ({
      drafts: [{ type: 'stream', to: [v.generalId], topic: 'openapi', content: 'draft' }],
    }),
    then: (b, v) => (v.draftId = b.ids[0]),
  },
  { method: 'GET', path: '/drafts' },
  {
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    pathValues: (v) => ({ draft_id: v.draftId }),
    params: (v) => ({
      draft: { type: 'private', to: [v.othelloId], topic: '', content: 'redraft' },
    }),
  },
  { method: 'DELETE', path: '/drafts/{draft_id}', pathValues: (v) => ({ draft_id: v.draftId }) },
  {
    method: 'POST',
    path: '/scheduled_messages',
    params: (v) => ({
      type: 'stream',
      to: v.generalId,
      topic: 'later',
      content: 'scheduled',
      scheduled_delivery_timestamp: inAnHour(),
    }),
    then: (b, v) => (v.scheduledId = b.scheduled_message_id),
  },
  { method: 'GET', path: '/scheduled_messages' },
  {
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
    pathValues: (v) => ({ scheduled_message_id: v.scheduledId }),
    params: () => ({ content: 'rescheduled' }),
  },
  {
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    pathValues: (v) => ({ scheduled_message_id: v.scheduledId }),
  },
  {
    method: 'PATCH',
    path: '/settings',
    params: () => ({ twenty_four_hour_time: true, enable_sounds: false }),
  },
  {
    method: 'PATCH',
    path: '/settings/display',
    schemaPath: '/settings',
    params: () => ({ dense_mode: false }),
  },
  {
    method: 'PATCH',
    path: '/settings/notifications',
    schemaPath: '/settings',
    params: () => ({ enable_digest_emails: false }),
  },
  // Like the real server, PATCH /realm names the changed settings in its answer.
  {
    method: 'PATCH',
    path: '/realm',
    as: 'iago',
    params: () => ({ default_code_block_language: 'python' }),
    component: 'JsonSuccessBase',
  },
  {
    method: 'POST',
    path: '/realm/filters',
    as: 'iago',
    params: () => ({
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://tracker.example.com/{id}',
    }),
    then: (b, v) => (v.filterId = b.id),
  },
  { method: 'GET', path: '/realm/linkifiers' },
  {
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    as: 'iago',
    pathValues: (v) => ({ filter_id: v.filterId }),
    params: () => ({
      pattern: 'T(?P<id>[0-9]+)',
      url_template: 'https://tracker.example.com/t/{id}',
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/linkifiers',
    as: 'iago',
    params: (v) => ({ ordered_linkifier_ids: [v.filterId] }),
  },
  {
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    as: 'iago',
    pathValues: (v) => ({ filter_id: v.filterId }),
  },
  {
    method: 'POST',
    path: '/default_streams',
    as: 'iago',
    params: (v) => ({ stream_id: v.checkId }),
  },
  {
    method: 'DELETE',
    path: '/default_streams',
    as: 'iago',
    params: (v) => ({ stream_id: v.checkId }),
  },
  {
    method: 'POST',
    path: '/default_stream_groups/create',
    as: 'iago',
    params: () => ({
      group_name: 'starters',
      description: 'for newcomers',
      stream_names: ['engineering'],
    }),
  },
  {
    method: 'POST',
    path: '/register',
    as: 'iago',
    params: () => ({ fetch_event_types: ['default_stream_groups'] }),
    then: (b, v) => (v.groupId = b.realm_default_stream_groups[0].id),
  },
  {
    method: 'PATCH',
    path: '/default_stream_groups/{group_id}',
    as: 'iago',
    pathValues: (v) => ({ group_id: v.groupId }),
    params: () => ({ new_description: 'for everyone new' }),
  },
  {
    method: 'PATCH',
    path: '/default_stream_groups/{group_id}/streams',
    as: 'iago',
    pathValues: (v) => ({ group_id: v.groupId }),
    params: () => ({ op: 'add', stream_names: ['welcome'] }),
  },
  {
    method: 'DELETE',
    path: '/default_stream_groups/{group_id}',
    as: 'iago',
    pathValues: (v) => ({ group_id: v.groupId }),
  },
  {
    method: 'POST',
    path: '/invites',
    as: 'iago',
    params: (v) => ({ invitee_emails: 'rosalind@example.com', stream_ids: [v.generalId] }),
  },
  {
    method: 'POST',
    path: '/invites/multiuse',
    as: 'iago',
    params: () => ({ invite_expires_in_minutes: 60 }),
  },
  {
    method: 'GET',
    path: '/invites',
    as: 'iago',
    then: (b, v) => {
      v.inviteId = b.invites.find((i: any) => !i.is_multiuse).id;
      v.linkId = b.invites.find((i: any) => i.is_multiuse).id;
    },
  },
  {
    method: 'POST',
    path: '/invites/{invite_id}/resend',
    as: 'iago',
    pathValues: (v) => ({ invite_id: v.inviteId }),
  },
  {
    method: 'DELETE',
    path: '/invites/{invite_id}',
    as: 'iago',
    pathValues: (v) => ({ invite_id: v.inviteId }),
  },
  {
    method: 'DELETE',
    path: '/invites/multiuse/{invite_id}',
    as: 'iago',
    pathValues: (v) => ({ invite_id: v.linkId }),
  },
  {
    method: 'POST',
    path: '/bots',
    as: 'iago',
    // Not upstream's OpenAPI: the success envelope with the new bot's id and key.
    component: 'JsonSuccessBase',
    params: () => ({ full_name: 'Sweep Bot', short_name: 'sweep' }),
    then: (b, v) => {
      v.botId = b.user_id;
    },
  },
  // Not upstream's OpenAPI: the success envelope with the list (`bots`) or values (`storage`).
  {
    method: 'POST',
    path: '/users/me/apns_device_token',
    params: () => ({ token: 'c0ffee00', appid: 'org.zulip.Zulip' }),
  },
  {
    method: 'POST',
    path: '/mobile_push/test_notification',
    params: () => ({ token: 'c0ffee00' }),
  },
  {
    method: 'POST',
    path: '/mobile_push/test_notification',
    params: () => ({ token: 'no-such-device' }),
    status: 400,
    // Upstream's 400 is a oneOf of two CodedError schemas that the same body matches both of.
    component: 'CodedError',
  },
  { method: 'DELETE', path: '/users/me/apns_device_token', params: () => ({ token: 'c0ffee00' }) },
  {
    method: 'POST',
    path: '/users/me/android_gcm_reg_id',
    params: () => ({ token: 'fcm-token-1' }),
  },
  {
    method: 'DELETE',
    path: '/users/me/android_gcm_reg_id',
    params: () => ({ token: 'fcm-token-1' }),
  },
  {
    method: 'DELETE',
    path: '/users/me/android_gcm_reg_id',
    params: () => ({ token: 'fcm-token-1' }),
    status: 400,
    // Upstream's 400 is a oneOf of two identical CodedError schemas, which nothing can match once.
    component: 'CodedError',
  },
  { method: 'GET', path: '/bots', as: 'iago', component: 'JsonSuccessBase' },
  { method: 'GET', path: '/parley/mail', as: 'iago', component: 'JsonSuccessBase' },
  { method: 'GET', path: '/parley/web_public_events', as: 'anon', component: 'JsonSuccessBase' },
  {
    method: 'PUT',
    path: '/bot_storage',
    as: 'bot',
    params: () => ({ storage: JSON.stringify({ count: '1', other: 'x' }) }),
  },
  {
    method: 'GET',
    path: '/bot_storage',
    as: 'bot',
    component: 'JsonSuccessBase',
    params: () => ({ keys: '["count"]' }),
  },
  { method: 'DELETE', path: '/bot_storage', as: 'bot', params: () => ({ keys: '["other"]' }) },
  {
    method: 'PATCH',
    path: '/bots/{bot_id}',
    as: 'iago',
    component: 'JsonSuccessBase',
    pathValues: (v) => ({ bot_id: v.botId }),
    params: () => ({ full_name: 'Swept Bot' }),
  },
  {
    method: 'POST',
    path: '/bots/{bot_id}/api_key/regenerate',
    as: 'iago',
    component: 'JsonSuccessBase',
    pathValues: (v) => ({ bot_id: v.botId }),
  },
  {
    method: 'DELETE',
    path: '/bots/{bot_id}',
    as: 'iago',
    pathValues: (v) => ({ bot_id: v.botId }),
  },
  {
    method: 'PATCH',
    path: '/streams/{stream_id}',
    as: 'iago',
    pathValues: (v) => ({ stream_id: v.checkId }),
    params: () => ({ description: 'checked' }),
  },
  {
    method: 'POST',
    path: '/messages',
    params: () => ({ type: 'stream', to: 'openapi check', topic: 'doomed', content: 'soon gone' }),
  },
  {
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    as: 'iago',
    pathValues: (v) => ({ stream_id: v.checkId }),
    params: () => ({ topic_name: 'doomed' }),
  },
  {
    method: 'DELETE',
    path: '/messages/{message_id}',
    as: 'iago',
    pathValues: (v) => ({ message_id: v.msgId }),
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    params: () => ({ subscriptions: ['openapi check'] }),
  },
  {
    method: 'DELETE',
    path: '/streams/{stream_id}',
    as: 'iago',
    pathValues: (v) => ({ stream_id: v.checkId }),
  },
  {
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    pathValues: (v) => ({ muted_user_id: v.horatioId }),
  },
  {
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    pathValues: (v) => ({ muted_user_id: v.horatioId }),
  },
  {
    method: 'POST',
    path: '/users/me/alert_words',
    params: () => ({ alert_words: ['elsinore', 'ghost'] }),
  },
  { method: 'GET', path: '/users/me/alert_words' },
  { method: 'DELETE', path: '/users/me/alert_words', params: () => ({ alert_words: ['ghost'] }) },
  {
    method: 'POST',
    path: '/users/me/presence',
    params: () => ({ status: 'active', new_user_input: true }),
  },
  { method: 'GET', path: '/realm/presence' },
  {
    method: 'POST',
    path: '/users/me/status',
    params: () => ({ status_text: 'Reading', emoji_name: 'book', away: false }),
  },
  {
    method: 'GET',
    path: '/users/{user_id}/status',
    pathValues: (v) => ({ user_id: v.othelloId }),
  },
  {
    method: 'GET',
    path: '/users/{user_id_or_email}/presence',
    pathValues: () => ({ user_id_or_email: 'hamlet@example.com' }),
  },
  { method: 'GET', path: '/user_groups' },
  {
    method: 'POST',
    path: '/user_groups/create',
    params: (v) => ({
      name: 'players',
      description: 'the troupe',
      members: [v.hamletId, v.othelloId],
    }),
    then: (b, v) => (v.groupId = b.group_id),
  },
  {
    method: 'POST',
    path: '/user_groups/create',
    params: (v) => ({ name: 'prompters', description: 'behind the stage', members: [v.hamletId] }),
    then: (b, v) => (v.subgroupId = b.group_id),
  },
  {
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    pathValues: (v) => ({ user_group_id: v.groupId }),
    params: () => ({ description: 'the whole troupe' }),
  },
  {
    method: 'POST',
    path: '/user_groups/{user_group_id}/members',
    pathValues: (v) => ({ user_group_id: v.groupId }),
    params: (v) => ({ add: [v.horatioId] }),
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    pathValues: (v) => ({ user_group_id: v.groupId }),
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    pathValues: (v) => ({ user_group_id: v.groupId, user_id: v.othelloId }),
  },
  {
    method: 'POST',
    path: '/user_groups/{user_group_id}/subgroups',
    pathValues: (v) => ({ user_group_id: v.groupId }),
    params: (v) => ({ add: [v.subgroupId] }),
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    pathValues: (v) => ({ user_group_id: v.groupId }),
  },
  {
    method: 'DELETE',
    path: '/user_groups/{user_group_id}',
    pathValues: (v) => ({ user_group_id: v.subgroupId }),
  },
  {
    method: 'POST',
    path: '/realm/profile_fields',
    as: 'iago',
    params: () => ({ name: 'Favourite play', hint: 'Which one?', field_type: 1 }),
    then: (b, v) => (v.fieldId = b.id),
  },
  { method: 'GET', path: '/realm/profile_fields' },
  {
    method: 'PATCH',
    path: '/realm/profile_fields',
    as: 'iago',
    params: (v) => ({ order: [v.fieldId] }),
  },
  {
    method: 'PATCH',
    path: '/realm/profile_fields/{field_id}',
    as: 'iago',
    pathValues: (v) => ({ field_id: v.fieldId }),
    params: () => ({ hint: 'Pick one' }),
  },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    params: (v) => ({ data: [{ id: v.fieldId, value: 'Hamlet' }] }),
  },
  { method: 'DELETE', path: '/users/me/profile_data', params: (v) => ({ data: [v.fieldId] }) },
  {
    method: 'DELETE',
    path: '/realm/profile_fields/{field_id}',
    as: 'iago',
    pathValues: (v) => ({ field_id: v.fieldId }),
  },
  {
    method: 'PATCH',
    path: '/users/{user_id}',
    as: 'iago',
    pathValues: (v) => ({ user_id: v.horatioId }),
    params: () => ({ full_name: 'Horatio, a friend' }),
  },
  {
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    pathValues: (v) => ({ user_id: v.othelloId, stream_id: v.generalId }),
  },
  {
    method: 'DELETE',
    path: '/users/{user_id}',
    as: 'iago',
    pathValues: (v) => ({ user_id: v.horatioId }),
  },
  {
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    as: 'iago',
    pathValues: (v) => ({ user_id: v.horatioId }),
  },
  { method: 'DELETE', path: '/users/me', as: 'yorick' },
  // Files travel as multipart bodies: a File among the parameters makes the test client send one.
  {
    method: 'POST',
    path: '/user_uploads',
    params: () => ({ file: new File(['swept\n'], 'zulip.txt', { type: 'text/plain' }) }),
    then: (b, v) => (v.upload = b.url),
  },
  {
    method: 'GET',
    path: '/user_uploads/{realm_id_str}/{filename}',
    pathValues: (v) => uploadPathValues(v.upload),
  },
  {
    method: 'GET',
    path: '/attachments',
    then: (b, v) => {
      v.attachmentId = b.attachments.find((a: any) => v.upload.endsWith(a.path_id)).id;
    },
  },
  {
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    pathValues: (v) => ({ attachment_id: v.attachmentId }),
  },
  {
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    pathValues: (v) => ({ attachment_id: v.attachmentId }),
    status: 400,
  },
  {
    method: 'POST',
    path: '/realm/emoji/{emoji_name}',
    as: 'iago',
    pathValues: () => ({ emoji_name: 'green_tick' }),
    params: () => ({ file: new File([PNG], 'green_tick.png', { type: 'image/png' }) }),
  },
  {
    method: 'POST',
    path: '/users/me/avatar',
    params: () => ({ file: new File([PNG], 'me.png', { type: 'image/png' }) }),
    // upstream answers with the new `avatar_url` beside the envelope
    component: 'JsonSuccessBase',
  },
  { method: 'DELETE', path: '/users/me/avatar', component: 'JsonSuccessBase' },
  { method: 'GET', path: '/realm/emoji' },
  {
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    as: 'iago',
    pathValues: () => ({ emoji_name: 'green_tick' }),
  },
  {
    method: 'POST',
    path: '/register',
    params: () => ({ event_types: ['message'] }),
    then: (b, v) => (v.spareQueue = b.queue_id),
  },
  {
    method: 'GET',
    path: '/events',
    params: (v) => ({ queue_id: v.spareQueue, last_event_id: -1, dont_block: true }),
  },
  { method: 'DELETE', path: '/events', params: (v) => ({ queue_id: v.spareQueue }) },
  // Errors, validated against the operation's error schema where upstream gives one.
  { method: 'GET', path: '/users/me', as: 'anon', status: 401 },
  {
    method: 'POST',
    path: '/messages',
    params: () => ({ type: 'stream', to: 'general', topic: 't' }),
    status: 400,
    component: 'MissingArgumentError',
  },
  {
    method: 'POST',
    path: '/messages',
    params: () => ({ type: 'stream', to: 'no such stream', topic: 't', content: 'x' }),
    status: 400,
    component: 'NonExistingChannelNameError',
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    params: () => ({ subscriptions: ['no such stream'] }),
    status: 400,
  },
  {
    method: 'GET',
    path: '/streams/{stream_id}',
    pathValues: () => ({ stream_id: 999999 }),
    status: 400,
  },
  {
    method: 'GET',
    path: '/messages/{message_id}',
    pathValues: () => ({ message_id: 999999 }),
    status: 400,
  },
  {
    method: 'GET',
    path: '/get_stream_id',
    params: () => ({ stream: 'no such stream' }),
    status: 400,
  },
  {
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    pathValues: () => ({ draft_id: 999999 }),
    params: () => ({ draft: { type: '', to: [], topic: '', content: 'x' } }),
    status: 404,
  },
  // Upstream answers 404 here; realm.test.ts pins the 400 this server gives (the code is BAD_REQUEST either way).
  {
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    pathValues: () => ({ scheduled_message_id: 999999 }),
    status: 404,
  },
  {
    method: 'GET',
    path: '/events',
    params: () => ({ queue_id: 'nope:nope', last_event_id: -1 }),
    status: 400,
  },
  {
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    as: 'iago',
    pathValues: () => ({ emoji_name: 'no_such_emoji' }),
    status: 404,
  },
];

/** Logged-in clients for the demo users the steps act as, and the ids the steps start from. */
export async function prepare(
  server: TestServer,
): Promise<{ clients: Record<Who, TestClient>; v: Vars }> {
  const clients = { anon: new TestClient(server.url) } as Record<Who, TestClient>;
  for (const who of ['hamlet', 'othello', 'iago', 'desdemona'] as const)
    clients[who] = await TestClient.login(server.url, `${who}@example.com`, DEMO_PASSWORD);
  const v: Vars = { q: {} };
  v.othelloId = (await clients.othello.get('/users/me')).body.user_id;
  v.hamletId = (await clients.hamlet.get('/users/me')).body.user_id;
  v.generalId = (await clients.hamlet.get('/get_stream_id', { stream: 'general' })).body.stream_id;
  // POST /users needs the can_create_users permission, which no endpoint grants.
  await server.ctx.db
    .updateTable('users')
    .set({ settings: JSON.stringify({ can_create_users: true }) })
    .where('email', '=', 'desdemona@example.com')
    .execute();
  // Yorick exists to deactivate his own account.
  await clients.desdemona.post('/users', {
    email: 'yorick@example.com',
    password: 'alas-poor-yorick',
    full_name: 'Yorick',
  });
  clients.yorick = await TestClient.login(server.url, 'yorick@example.com', 'alas-poor-yorick');
  // A bot of desdemona's, for the endpoints only bots may call (bot storage).
  const bot = await clients.desdemona.post('/bots', {
    full_name: 'Store Bot',
    short_name: 'store',
  });
  clients.bot = new TestClient(server.url, 'store-bot@parley.bots', bot.body.api_key);
  return { clients, v };
}
