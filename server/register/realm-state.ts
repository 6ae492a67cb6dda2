import type { AppContext } from '../context.js';
import type { Realm } from '../db/schema.js';
import { cachedRow } from '../db/row-cache.js';
import { isAdmin } from '../domain/roles.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../domain/password.js';
import { botToApi } from '../domain/serialize.js';
import { OUTGOING_WEBHOOK_BOT } from '../domain/bot-services.js';
import { servicesOf } from '../lib/service-bots.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  EMOJISETS,
  USER_SETTING_DEFAULTS,
} from '../domain/settings.js';
import { realmDescriptionHtml, realmIconUrl, realmSettings } from '../lib/realm.js';
import { EMOJI_DATA_PATH } from '../markdown/index.js';
import { multiuseInviteGroupId, SPEC_SETTING_NAMES } from '../actions/realm-admin.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from '../domain/message-text.js';
import { MAX_FILE_UPLOAD_MIB } from '../actions/uploads.js';
import { profileFieldObjects } from '../actions/profile-fields.js';
import { presenceSnapshot } from '../actions/presence.js';
import { userGroupObjects } from '../actions/user-groups.js';
import { realmEmojiDict } from '../actions/realm-emoji.js';
import type { Section } from './snapshot.js';

/** The snapshot's sections about the organization: its settings, bots, emoji, groups, presence. */

/** The video-meeting server used when the organization sets none (server_meet_server_url). */
export const SERVER_MEET_URL = 'https://meet.jit.si';

export const realmState: Section = async ({ ctx, realm }) => ({
  ...realmFields(ctx, realm),
  realm_create_multiuse_invite_group: await multiuseInviteGroupId(ctx.db, realm),
});

export const customProfileFieldsState: Section = async ({ ctx, realm }) => ({
  custom_profile_fields: await profileFieldObjects(ctx.db, realm.id),
  custom_profile_field_types: {
    SHORT_TEXT: { id: 1, name: 'Text (short)' },
    LONG_TEXT: { id: 2, name: 'Text (long)' },
    SELECT: { id: 3, name: 'List of options' },
    DATE: { id: 4, name: 'Date picker' },
    URL: { id: 5, name: 'Link' },
    USER: { id: 6, name: 'Users' },
    EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
    PRONOUNS: { id: 8, name: 'Pronouns' },
  },
});

export const presenceState: Section = ({ ctx, realm, opts }) =>
  presenceSnapshot(ctx.db, realm, { slim: opts.slimPresence });

/** Administrators see every bot, others the bots they own. */
export const realmBotsState: Section = async ({ ctx, realm, user }) => {
  const db = ctx.db;
  const bots = await cachedRow(db, `bots:${realm.id}`, () =>
    db
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realm.id)
      .where('is_bot', '=', 1)
      .execute(),
  );
  const visible = (bots ?? []).filter((b) => isAdmin(user) || b.bot_owner_id === user.id);
  const withServices = visible.filter((b) => b.bot_type === OUTGOING_WEBHOOK_BOT).map((b) => b.id);
  const services = await servicesOf(db, withServices);
  return { realm_bots: visible.map((b) => botToApi(ctx, b, services.get(b.id))) };
};

export const realmEmojiState: Section = async ({ ctx, realm }) => ({
  realm_emoji: await realmEmojiDict(ctx.db, realm.id),
});

/** Clients that cannot read URL templates get no linkifiers rather than wrong ones. */
export const realmLinkifiersState: Section = async ({ ctx, realm, opts }) => {
  const rows = await ctx.db
    .selectFrom('linkifiers')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .orderBy('order')
    .orderBy('id')
    .execute();
  return {
    realm_linkifiers: opts.capabilities.linkifier_url_template
      ? rows.map((r) => ({ id: r.id, pattern: r.pattern, url_template: r.url_template }))
      : [],
  };
};

export const realmUserGroupsState: Section = async ({ ctx, realm }) => ({
  realm_user_groups: await userGroupObjects(ctx.db, realm.id),
});

export const realmUserSettingsDefaultsState: Section = () => ({
  realm_user_settings_defaults: {
    ...USER_SETTING_DEFAULTS,
    available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
    emojiset_choices: EMOJISETS,
  },
});

function realmFields(ctx: AppContext, realm: Realm) {
  const settings = realmSettings(realm);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) {
    // email_address_visibility became a user setting at feature level 163.
    if (k === 'create_multiuse_invite_group_name' || k === 'email_address_visibility') continue;
    out[`realm_${k}`] = v;
    if (SPEC_SETTING_NAMES[k]) out[`realm_${SPEC_SETTING_NAMES[k]}`] = v;
  }
  Object.assign(
    out,
    realmIdentityFields(ctx, realm),
    serverLimitFields(),
    otherServerFields(ctx, settings),
  );
  delete out.demo_organization_scheduled_deletion_date;
  return out;
}

/** Who the organization is and what it offers, in the order the snapshot lists them. */
function realmIdentityFields(ctx: AppContext, realm: Realm) {
  const url = ctx.config.externalUrl;
  return {
    realm_create_multiuse_invite_group: null,
    realm_name: realm.name,
    realm_description: realmDescriptionHtml(realm),
    realm_date_created: realm.date_created,
    realm_uri: url,
    realm_url: url,
    // Emoji names by code for the mobile apps (level 140), served by routes/assets.ts.
    server_emoji_data_url: `${url}${EMOJI_DATA_PATH}`,
    realm_icon_url: realmIconUrl(ctx, realm),
    realm_icon_source: 'G',
    realm_logo_url: '',
    realm_logo_source: 'D',
    realm_night_logo_url: '',
    realm_night_logo_source: 'D',
    realm_bot_domain: 'parley.bots',
    realm_authentication_methods: { Email: true, Dev: false, LDAP: false },
    realm_available_video_chat_providers: {
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
    },
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_is_zephyr_mirror_realm: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_upload_quota_mib: null,
    realm_domains: [],
    realm_default_external_accounts: {},
    realm_incoming_webhook_bots: [],
    realm_embedded_bots: [],
    realm_welcome_message_custom_text: '',
    realm_empty_topic_display_name: 'general chat',
  };
}

/** The server's limits and timings that clients follow. */
function serverLimitFields() {
  return {
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_avatar_file_size_mib: 5,
    max_file_upload_size_mib: MAX_FILE_UPLOAD_MIB,
    max_message_length: MAX_MESSAGE_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_bulk_new_subscription_messages: 100,
    server_typing_started_wait_period_milliseconds: 10000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_expiry_period_milliseconds: 15000,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: true,
    server_jitsi_server_url: SERVER_MEET_URL,
    server_meet_server_url: SERVER_MEET_URL,
    server_can_summarize_topics: false,
    server_thumbnail_formats: [],
    server_supported_permission_settings: permissionSettings(),
  };
}

/** What clients read but this server does not offer (digests, GIPHY, plans). */
function otherServerFields(ctx: AppContext, settings: ReturnType<typeof realmSettings>) {
  return {
    settings_send_digest_emails: false,
    realm_message_edit_history_visibility_policy: 'all',
    password_min_length: PASSWORD_MIN_LENGTH,
    password_max_length: PASSWORD_MAX_LENGTH,
    password_min_guesses: 10000,
    giphy_rating_options: { disabled: { name: 'GIPHY integration disabled', id: -1 } },
    giphy_api_key: '',
    development_environment: false,
    event_queue_longpoll_timeout_seconds: ctx.config.longPollSeconds + 40,
    jitsi_server_url: settings.jitsi_server_url ?? SERVER_MEET_URL,
    demo_organization_scheduled_deletion_date: undefined,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    stop_words: [],
  };
}

function permissionSettings() {
  const setting = (required: boolean, allowInternet = false) => ({
    require_system_group: required,
    allow_internet_group: allowInternet,
    allow_owners_group: false,
    allow_nobody_group: true,
    allow_everyone_group: true,
    default_group_name: 'role:everyone',
    id_field_name: 'can_mention_group',
    default_for_system_groups: null,
    allowed_system_groups: [],
  });
  return {
    realm: {
      create_multiuse_invite_group: {
        ...setting(true),
        default_group_name: 'role:administrators',
        id_field_name: 'create_multiuse_invite_group_id',
      },
    },
    stream: {
      can_remove_subscribers_group: {
        ...setting(true),
        default_group_name: 'role:administrators',
        id_field_name: 'can_remove_subscribers_group_id',
      },
    },
    group: {
      can_mention_group: {
        ...setting(false),
        default_for_system_groups: 'role:nobody',
        id_field_name: 'can_mention_group_id',
      },
    },
  };
}
