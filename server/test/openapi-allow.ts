/** Where this server (feature level 222) and the newer upstream OpenAPI file knowingly differ. */

/**
 * Fields the newer upstream schema (feature level ~420) and the API this server implements
 * (level 222, api-spec.md) disagree on, per operation. Nothing else is relaxed.
 */
const VERSION_FIELDS = {
  service_feature_level:
    'api-spec.md names the version fields service_*; upstream only zulip_* (sent too)',
  service_version: 'api-spec.md Versioning mandates it; upstream only has zulip_version (sent too)',
  service_merge_base: 'api-spec.md mandates it; upstream only has zulip_merge_base (sent too)',
};
const NEWER_STREAM_FIELDS = {
  can_subscribe_group: 'stream field new at feature level 357',
  folder_id: 'stream field new at feature level 389',
  is_recently_active: 'stream field new at feature level 323',
  subscriber_count: 'stream field new at feature level 394',
};
const BILLING_ADMIN = {
  is_billing_admin: 'api-spec.md own-user field; upstream dropped it at level 363',
};
export const ALLOW: Record<string, Record<string, string>> = {
  'GET /server_settings': {
    ...VERSION_FIELDS,
    parley_extensions:
      "Parley's own additions to the API, announced for our client; named parley_* so no client mistakes it for a reference field",
  },
  'POST /register': {
    ...VERSION_FIELDS,
    ...NEWER_STREAM_FIELDS,
    ...BILLING_ADMIN,
    realm_authentication_methods:
      'api-spec.md: method name to boolean; objects only from level 241',
    realm_default_streams: 'api-spec.md: stream objects; plain ids only from level 330',
    realm_meet_server_url:
      'api-spec.md name of the custom meeting server (realm_jitsi_server_url sent too)',
    server_meet_server_url:
      'api-spec.md name of the server default meeting server (server_jitsi_server_url sent too)',
    realm_gif_rating: 'api-spec.md name of the GIF rating (realm_giphy_rating sent too)',
    realm_invite_to_realm_policy:
      'api-spec.md invitation policy (integer); a group setting upstream from 321',
    realm_move_messages_between_streams_policy:
      'api-spec.md integer policy; a group setting upstream later',
    realm_edit_topic_policy: 'api-spec.md integer policy; a group setting upstream later',
    realm_private_message_policy:
      'api-spec.md integer policy; replaced upstream by direct-message groups',
    realm_user_group_edit_policy: 'api-spec.md integer policy; a group setting upstream later',
    realm_invite_to_stream_policy:
      'integer policy of level 222; upstream has can_add_subscribers_group',
    realm_delete_own_message_policy:
      'integer policy of level 222; upstream has can_delete_own_message_group',
    realm_add_custom_emoji_policy:
      'integer policy of level 222; upstream has can_add_custom_emoji_group',
    realm_bot_creation_policy:
      'integer policy of level 222; upstream has can_create_bots_group (344)',
    'realm_default_stream_groups.streams':
      'api-spec.md: stream objects; plain ids upstream from level 330',
    dense_mode:
      'api-spec.md lists dense_mode among the display settings; upstream removed it at level 364',
    email_address: 'subscription field until level 226',
    allow_owners_group:
      'server_supported_permission_settings field of level 221; removed upstream at 326',
    id_field_name:
      'server_supported_permission_settings field of level 221; removed upstream at 326',
  },
  'GET /users/me': BILLING_ADMIN,
  'GET /users': BILLING_ADMIN,
  'GET /users/{user_id}': BILLING_ADMIN,
  'GET /users/{email}': BILLING_ADMIN,
  'GET /streams': NEWER_STREAM_FIELDS,
  'GET /streams/{stream_id}': NEWER_STREAM_FIELDS,
  'GET /users/me/subscriptions': { email_address: 'subscription field until level 226' },
};
/** The same for events, keyed by `type` or `type:op`. */
export const EVENT_ALLOW: Record<string, Record<string, string>> = {
  message: {
    local_id: 'api-spec.md: the sending queue gets local_id; the upstream schema omits it',
  },
  'realm_user:add': BILLING_ADMIN,
  'stream:create': NEWER_STREAM_FIELDS,
  'stream:delete': {
    streams: 'full stream objects until level 343 (the upstream description says so)',
  },
  'subscription:add': { email_address: 'subscription field until level 226' },
  default_streams: {
    default_streams: 'api-spec.md: stream objects; plain ids upstream from level 330',
  },
  default_stream_groups: {
    'default_stream_groups.streams': 'api-spec.md: stream objects; ids from level 330',
  },
};
