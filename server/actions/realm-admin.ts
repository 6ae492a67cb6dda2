import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { queueControl, type Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { LANGUAGES } from '../domain/languages.js';
import { isOwner } from '../domain/roles.js';
import { parseSettings, REALM_SETTING_DEFAULTS } from '../domain/settings.js';
import { activeUserIds } from '../lib/access.js';
import { findSystemGroupId, realmDescriptionHtml, realmSettings } from '../lib/realm.js';
import { decodeLoose, isDbId, ownerRequired, requireAdmin } from '../lib/admin-checks.js';

type Rule =
  | { kind: 'bool' }
  | { kind: 'enum'; values: readonly number[] }
  /** seconds: a positive integer, or null / "unlimited" for no limit; never 0 */
  | { kind: 'limit' }
  /** days: a positive integer, or -1 / "unlimited" to keep messages forever */
  | { kind: 'retention' }
  | { kind: 'count' }
  | { kind: 'language' }
  | { kind: 'text'; max: number }
  | { kind: 'jitsi' }
  /** a stream id, or -1 for none */
  | { kind: 'stream' };

const bool: Rule = { kind: 'bool' };
const limit: Rule = { kind: 'limit' };
const oneOf = (...values: number[]): Rule => ({ kind: 'enum', values });
const COMMON_POLICY = oneOf(1, 2, 3, 4);
const stream: Rule = { kind: 'stream' };

/** The video call providers this server offers (as in realm_available_video_chat_providers). */
export const VIDEO_CHAT_PROVIDER_IDS = [0, 1];
/** Zulip's GIPHY ratings: 0 disabled, then Y, G, PG, PG-13 and R. */
const GIPHY_RATINGS = [0, 1, 2, 3, 4, 5];
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Every organization setting PATCH /realm accepts, with its validation. */
export const REALM_SETTING_RULES: Record<string, Rule> = {
  invite_to_realm_policy: oneOf(1, 2, 3, 4, 6),
  invite_required: bool,
  move_messages_between_streams_policy: oneOf(1, 2, 3, 4, 6),
  edit_topic_policy: oneOf(1, 2, 3, 4, 5, 6),
  allow_message_editing: bool,
  allow_edit_history: bool,
  message_content_edit_limit_seconds: limit,
  message_content_delete_limit_seconds: limit,
  move_messages_within_stream_limit_seconds: limit,
  move_messages_between_streams_limit_seconds: limit,
  delete_own_message_policy: oneOf(1, 2, 3, 4, 5),
  inline_image_preview: bool,
  inline_url_embed_preview: bool,
  mandatory_topics: bool,
  message_retention_days: { kind: 'retention' },
  name_changes_disabled: bool,
  avatar_changes_disabled: bool,
  email_changes_disabled: bool,
  emails_restricted_to_domains: bool,
  disallow_disposable_email_addresses: bool,
  send_welcome_emails: bool,
  message_content_allowed_in_email_notifications: bool,
  enable_spectator_access: bool,
  want_advertise_in_communities_directory: bool,
  video_chat_provider: oneOf(...VIDEO_CHAT_PROVIDER_IDS),
  jitsi_server_url: { kind: 'jitsi' },
  giphy_rating: oneOf(...GIPHY_RATINGS),
  waiting_period_threshold: { kind: 'count' },
  digest_emails_enabled: bool,
  digest_weekday: oneOf(0, 1, 2, 3, 4, 5, 6),
  private_message_policy: oneOf(1, 2),
  user_group_edit_policy: oneOf(1, 2, 3, 4),
  default_code_block_language: { kind: 'text', max: 100 },
  enable_read_receipts: bool,
  presence_disabled: bool,
  create_public_stream_policy: COMMON_POLICY,
  create_private_stream_policy: COMMON_POLICY,
  create_web_public_stream_policy: oneOf(2, 4, 6, 7),
  invite_to_stream_policy: COMMON_POLICY,
  add_custom_emoji_policy: COMMON_POLICY,
  wildcard_mention_policy: oneOf(1, 2, 3, 5, 6, 7),
  default_language: { kind: 'language' },
  org_type: oneOf(...ORG_TYPES),
  enable_guest_user_indicator: bool,
  enable_guest_user_dm_warning: bool,
  require_unique_names: bool,
  bot_creation_policy: oneOf(1, 2, 3),
  new_stream_announcements_stream_id: stream,
  signup_announcements_stream_id: stream,
  zulip_update_announcements_stream_id: stream,
  email_address_visibility: oneOf(1, 2, 3, 4, 5),
};

/** Older names of settings, still accepted. */
export const REALM_SETTING_ALIASES: Record<string, string> = {
  notifications_stream_id: 'new_stream_announcements_stream_id',
  signup_notifications_stream_id: 'signup_announcements_stream_id',
  create_multiuse_invite_group_id: 'create_multiuse_invite_group',
};

/** Changing these needs an owner, as on the real server. */
const OWNER_ONLY = new Set([
  'invite_to_realm_policy',
  'invite_required',
  'create_multiuse_invite_group',
  'message_retention_days',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
  'authentication_methods',
]);

/** Settings clients have always learned from `update_dict` only, never from `update`. */
const DICT_ONLY = new Set([
  'allow_message_editing',
  'edit_topic_policy',
  'message_content_edit_limit_seconds',
  'create_multiuse_invite_group',
  'authentication_methods',
]);

const AUTHENTICATION_METHODS: Record<string, boolean> = { Email: true, Dev: false, LDAP: false };

function parseInteger(name: string, raw: string): number {
  const text = raw.trim();
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw badRequest(`${name} is not an integer`);
  return Number(text);
}

function parseSetting(name: string, raw: string, rule: Rule): unknown {
  switch (rule.kind) {
    case 'bool': {
      const text = raw.trim().toLowerCase();
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw badRequest(`${name} is not a boolean`);
    }
    case 'enum': {
      const n = parseInteger(name, raw);
      if (!rule.values.includes(n)) throw badRequest(`Invalid ${name} ${n}`);
      return n;
    }
    case 'limit': {
      const v = decodeLoose(raw.trim());
      if (v === null || v === 'unlimited') return null;
      if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
      throw badRequest(`Bad value for '${name}': ${raw}`);
    }
    case 'retention': {
      const v = decodeLoose(raw.trim());
      if (v === 'unlimited' || v === -1) return -1;
      if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
      throw badRequest(`Bad value for '${name}': ${raw}`);
    }
    case 'count': {
      const n = parseInteger(name, raw);
      if (n < 0) throw badRequest(`${name} must not be negative`);
      return n;
    }
    case 'language':
      if (!(raw in LANGUAGES)) throw badRequest(`Invalid ${name} '${raw}'`);
      return raw;
    case 'text':
      if (raw.includes('\u0000')) throw badRequest(`${name} must not contain null bytes`);
      if (raw.length > rule.max)
        throw badRequest(`${name} is too long (limit: ${rule.max} characters)`);
      return raw;
    case 'jitsi': {
      const v = decodeLoose(raw.trim());
      if (v === 'default' || v === null) return null;
      if (typeof v === 'string' && v.length <= 200 && /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v))
        return v;
      throw badRequest(`${name} is not an allowed_type`);
    }
    case 'stream': {
      const n = parseInteger(name, raw);
      if (n < -1 || n === 0) throw badRequest(`Invalid ${name}`);
      return n;
    }
  }
}

function parseName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('name cannot be blank');
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('name contains invalid characters');
  if (name.length > MAX_REALM_NAME_LENGTH)
    throw badRequest(`name is too long (limit: ${MAX_REALM_NAME_LENGTH} characters)`);
  return name;
}

function parseDescription(raw: string): string {
  if (raw.includes('\u0000')) throw badRequest('description must not contain null bytes');
  if (raw.length > MAX_REALM_DESCRIPTION_LENGTH)
    throw badRequest(`description is too long (limit: ${MAX_REALM_DESCRIPTION_LENGTH} characters)`);
  return raw;
}

function parseAuthenticationMethods(raw: string): Record<string, boolean> {
  const v = decodeLoose(raw);
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badRequest('authentication_methods is not a dict');
  const result = { ...AUTHENTICATION_METHODS };
  for (const [method, enabled] of Object.entries(v)) {
    if (!(method in AUTHENTICATION_METHODS))
      throw badRequest(`Invalid authentication method: ${method}`);
    if (typeof enabled !== 'boolean')
      throw badRequest(`authentication_methods["${method}"] is not a boolean`);
    if (enabled && !AUTHENTICATION_METHODS[method])
      throw badRequest(`Authentication method ${method} is not available on this server`);
    result[method] = enabled;
  }
  if (!Object.values(result).includes(true))
    throw badRequest('At least one authentication method must be enabled.');
  return result;
}

/** A group-setting value: a group id, or `{new, old}` as newer clients send it. */
function parseGroupSetting(name: string, raw: string): { next: number; expected?: number } {
  const v = decodeLoose(raw.trim());
  if (typeof v === 'number' && Number.isSafeInteger(v)) return { next: v };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const isId = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x);
    if (isId(o.new) && (o.old === undefined || isId(o.old)))
      return { next: o.new as number, expected: o.old as number | undefined };
  }
  throw badRequest(`Invalid ${name}`);
}

/** A system group a realm permission may be given to, by id; returns its name. */
export async function permissionGroupName(
  db: Database,
  realm: Realm,
  setting: string,
  groupId: number,
): Promise<string> {
  if (!isDbId(groupId)) throw badRequest('Invalid user group');
  const group = await db
    .selectFrom('user_groups')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('id', '=', groupId)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
  if (!group) throw badRequest('Invalid user group');
  if (!group.is_system_group) throw badRequest(`'${setting}' must be a system user group.`);
  if (group.name === 'role:internet' || group.name === 'role:owners')
    throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
  return group.name;
}

/** The id of the group allowed to create reusable invitation links (realm_create_multiuse_invite_group). */
export async function multiuseInviteGroupId(db: Database, realm: Realm): Promise<number | null> {
  return findSystemGroupId(db, realm.id, realmSettings(realm).create_multiuse_invite_group_name);
}

async function checkStreamSetting(trx: Database, realm: Realm, streamId: number) {
  if (streamId === -1) return;
  if (!isDbId(streamId)) throw badRequest('Invalid channel ID');
  const found = await trx
    .selectFrom('streams')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('id', '=', streamId)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
  if (!found) throw badRequest('Invalid channel ID');
}

/** PATCH /realm: `raw` holds the request's setting parameters, still as form strings. */
export async function updateRealm(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  raw: Record<string, string>,
) {
  requireAdmin(actor);
  const parsed = new Map<string, unknown>();
  for (const [name, value] of Object.entries(raw)) {
    const rule = REALM_SETTING_RULES[name];
    if (rule) parsed.set(name, parseSetting(name, value, rule));
  }
  const newName = raw.name === undefined ? undefined : parseName(raw.name);
  const newDescription =
    raw.description === undefined ? undefined : parseDescription(raw.description);
  const authMethods =
    raw.authentication_methods === undefined
      ? undefined
      : parseAuthenticationMethods(raw.authentication_methods);
  const group =
    raw.create_multiuse_invite_group === undefined
      ? undefined
      : parseGroupSetting('create_multiuse_invite_group', raw.create_multiuse_invite_group);
  if (!isOwner(actor) && Object.keys(raw).some((name) => OWNER_ONLY.has(name)))
    throw ownerRequired();

  return transact(ctx, async (trx, events) => {
    const fresh = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', realm.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(fresh.settings || '{}') as Record<string, unknown>;
    const current = parseSettings(REALM_SETTING_DEFAULTS, fresh.settings) as Record<
      string,
      unknown
    >;
    const changed: Record<string, unknown> = {};
    for (const [name, value] of parsed) {
      if (REALM_SETTING_RULES[name].kind === 'stream')
        await checkStreamSetting(trx, realm, value as number);
      if (current[name] === value) continue;
      stored[name] = value;
      changed[name] = value;
    }
    if (group) {
      const groupName = await permissionGroupName(
        trx,
        realm,
        'create_multiuse_invite_group',
        group.next,
      );
      const currentId = await multiuseInviteGroupId(trx, fresh);
      if (group.expected !== undefined && group.expected !== currentId)
        throw badRequest("'old' value does not match the expected value.");
      if (groupName !== current.create_multiuse_invite_group_name) {
        stored.create_multiuse_invite_group_name = groupName;
        changed.create_multiuse_invite_group = group.next;
      }
    }
    void authMethods; // validated; password authentication is the only method this server has
    const updates: { settings?: string; name?: string; description?: string } = {};
    if (Object.keys(changed).length) updates.settings = JSON.stringify(stored);
    if (newName !== undefined && newName !== fresh.name) updates.name = changed.name = newName;
    if (newDescription !== undefined && newDescription !== fresh.description) {
      updates.description = newDescription;
      // Clients keep the rendered description, as /register gives it.
      changed.description = realmDescriptionHtml({ ...fresh, description: newDescription });
    }
    if (!Object.keys(changed).length) return {};
    await trx.updateTable('realms').set(updates).where('id', '=', realm.id).execute();
    events.push(...realmUpdateEvents(realm.id, await activeUserIds(trx, realm.id), changed));
    const response: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(changed))
      response[k] = typeof v === 'string' ? 'updated' : v;
    return response;
  });
}

/**
 * Settings api-spec.md names differently from upstream: register carries both names, and a change
 * is announced under the spec's name too (a single-property `update`, which names any property).
 */
export const SPEC_SETTING_NAMES: Record<string, string> = {
  jitsi_server_url: 'meet_server_url',
  giphy_rating: 'gif_rating',
};

/** One `update_dict` with every change, and the single-property `update` older clients know. */
function realmUpdateEvents(
  realmId: number,
  userIds: number[],
  changed: Record<string, unknown>,
): Delivery[] {
  const deliveries: Delivery[] = [
    {
      realmId,
      userIds,
      event: { type: 'realm', op: 'update_dict', property: 'default', data: changed },
    },
  ];
  for (const [property, value] of Object.entries(changed)) {
    if (!DICT_ONLY.has(property))
      deliveries.push({
        realmId,
        userIds,
        event: { type: 'realm', op: 'update', property, value },
      });
    const specName = SPEC_SETTING_NAMES[property];
    if (specName)
      deliveries.push({
        realmId,
        userIds,
        event: { type: 'realm', op: 'update', property: specName, value },
      });
  }
  return deliveries;
}

/**
 * Deactivates an organization (a management action; the API has no endpoint for it). Every
 * authenticated request then answers REALM_DEACTIVATED; open long-polls learn it from an event.
 */
export async function deactivateRealm(ctx: AppContext, realm: Realm) {
  await transact(ctx, async (trx, events) => {
    const userIds = await activeUserIds(trx, realm.id);
    await trx.updateTable('realms').set({ deactivated: 1 }).where('id', '=', realm.id).execute();
    events.push({
      realmId: realm.id,
      userIds,
      event: { type: 'realm', op: 'deactivated', realm_id: realm.id },
    });
    // Polls that authenticate through their queue must now meet REALM_DEACTIVATED.
    events.push(queueControl(realm.id, userIds, 'reauthenticate'));
  });
}

/** Undoes deactivateRealm. */
export async function reactivateRealm(ctx: AppContext, realm: Realm) {
  await transact(ctx, (trx) =>
    trx.updateTable('realms').set({ deactivated: 0 }).where('id', '=', realm.id).execute(),
  );
}
