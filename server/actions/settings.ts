import crypto from 'node:crypto';
import { presenceSharingChanged } from './presence.js';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { hashPassword } from '../domain/password.js';
import { passwordMatches } from './password-check.js';
import { storeEmailChange } from './user-email.js';
import { AVAILABLE_NOTIFICATION_SOUNDS, parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { isValidTimezone, LANGUAGES } from '../domain/languages.js';
import { activeUserIds } from './access.js';
import { realmSettings } from './realm.js';
import { addressInUse, validateEmail, validateFullName } from './users.js';
import { deleteAllDrafts } from './drafts.js';

type Rule = { kind: 'bool' } | { kind: 'enum'; values: readonly (number | string)[] } | { kind: 'int'; min: number; max: number } | { kind: 'custom'; check: (v: string) => boolean };

const bool: Rule = { kind: 'bool' };
const ints = (...values: number[]): Rule => ({ kind: 'enum', values });
const strings = (...values: string[]): Rule => ({ kind: 'enum', values });

/** Every personal setting PATCH /settings accepts, with its validation. */
export const SETTING_RULES: Record<string, Rule> = {
  twenty_four_hour_time: bool, dense_mode: bool, starred_message_counts: bool, fluid_layout_width: bool,
  high_contrast_mode: bool, enable_drafts_synchronization: bool, translate_emoticons: bool,
  display_emoji_reaction_users: bool, web_escape_navigates_to_home_view: bool, left_side_userlist: bool,
  color_scheme: ints(1, 2, 3), demote_inactive_streams: ints(1, 2, 3), user_list_style: ints(1, 2, 3),
  web_stream_unreads_count_display_policy: ints(1, 2, 3), desktop_icon_count_display: ints(1, 2, 3),
  web_mark_read_on_scroll_policy: ints(1, 2, 3), web_channel_default_view: ints(1, 2, 3, 4),
  web_font_size_px: { kind: 'int', min: 12, max: 20 }, web_line_height_percent: { kind: 'int', min: 122, max: 158 },
  default_language: { kind: 'custom', check: (v) => v in LANGUAGES },
  web_home_view: strings('recent_topics', 'inbox', 'all_messages'),
  emojiset: strings('google', 'google-blob', 'twitter', 'text'),
  timezone: { kind: 'custom', check: isValidTimezone },
  notification_sound: { kind: 'custom', check: (v) => AVAILABLE_NOTIFICATION_SOUNDS.includes(v) },
  email_notifications_batching_period_seconds: { kind: 'int', min: 120, max: 7 * 86400 },
  enable_stream_desktop_notifications: bool, enable_stream_email_notifications: bool,
  enable_stream_push_notifications: bool, enable_stream_audible_notifications: bool,
  enable_desktop_notifications: bool, enable_sounds: bool, enable_offline_email_notifications: bool,
  enable_offline_push_notifications: bool, enable_online_push_notifications: bool,
  enable_followed_topic_desktop_notifications: bool, enable_followed_topic_email_notifications: bool,
  enable_followed_topic_push_notifications: bool, enable_followed_topic_audible_notifications: bool,
  enable_digest_emails: bool, enable_marketing_emails: bool, enable_login_emails: bool,
  message_content_in_email_notifications: bool, pm_content_in_desktop_notifications: bool,
  wildcard_mentions_notify: bool, enable_followed_topic_wildcard_mentions_notify: bool,
  realm_name_in_email_notifications_policy: ints(1, 2, 3),
  automatically_follow_topics_policy: ints(1, 2, 3, 4), automatically_unmute_topics_in_muted_streams_policy: ints(1, 2, 3, 4),
  automatically_follow_topics_where_mentioned: bool, presence_enabled: bool, enter_sends: bool,
  send_private_typing_notifications: bool, send_stream_typing_notifications: bool, send_read_receipts: bool,
  receives_typing_notifications: bool, allow_private_data_export: bool, email_address_visibility: ints(1, 2, 3, 4, 5),
  web_animate_image_previews: strings('always', 'on_hover', 'never'), web_navigate_to_sent_message: bool,
  web_suggest_update_timezone: bool, hide_ai_features: bool,
  resolved_topic_notice_auto_read_policy: strings('always', 'except_followed', 'never'),
  web_left_sidebar_unreads_count_summary: bool, web_left_sidebar_show_channel_folders: bool,
};

function parseValue(name: string, raw: string, rule: Rule): string | number | boolean {
  switch (rule.kind) {
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw badRequest(`${name} is not a boolean`);
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw badRequest(`${name} is not an integer`);
      const n = Number(raw);
      if (n < rule.min || n > rule.max) throw badRequest(`Invalid ${name}`);
      return n;
    }
    case 'enum': {
      const numeric = typeof rule.values[0] === 'number';
      const value = numeric ? Number(raw) : raw;
      if (numeric && !/^-?\d+$/.test(raw)) throw badRequest(`${name} is not an integer`);
      if (!rule.values.includes(value)) throw badRequest(`Invalid ${name}`);
      return value;
    }
    case 'custom':
      if (!rule.check(raw)) throw badRequest(`Invalid ${name}`);
      return raw;
  }
}

export interface SettingsChange {
  settings: Record<string, string>;
  full_name?: string;
  email?: string;
  old_password?: string;
  new_password?: string;
}

/** PATCH /settings */
export async function updateSettings(ctx: AppContext, realm: Realm, user: User, change: SettingsChange) {
  const parsed: Record<string, string | number | boolean> = {};
  for (const [name, raw] of Object.entries(change.settings)) parsed[name] = parseValue(name, raw, SETTING_RULES[name]);
  const rs = realmSettings(realm);
  let fullName: string | undefined;
  if (change.full_name !== undefined) {
    if (rs.name_changes_disabled && user.role > 200) throw badRequest('Name changes are disabled in this organization.');
    fullName = validateFullName(change.full_name);
  }
  let newEmail: string | undefined;
  if (change.email !== undefined) {
    if (rs.email_changes_disabled && user.role > 200) throw badRequest('Email address changes are disabled in this organization.');
    newEmail = validateEmail(change.email);
  }
  let passwordHash: string | undefined;
  if (change.new_password !== undefined) {
    if (change.old_password === undefined) throw badRequest('Please fill out all fields.', {});
    if (!(await passwordMatches(ctx, realm.id, user.email, user.password_hash, change.old_password))) throw badRequest('Wrong password!');
    if (change.new_password.length < 6) throw badRequest('New password is too weak!');
    passwordHash = await hashPassword(change.new_password, ctx.config.scryptCost);
  }

  return transact(ctx, async (trx, events) => {
    const fresh = await trx.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const stored = JSON.parse(fresh.settings || '{}');
    const current = { ...parseSettings(USER_SETTING_DEFAULTS, fresh.settings), timezone: fresh.timezone } as Record<string, unknown>;
    const settingEvent = (property: string, value: unknown): Delivery => {
      const event: Record<string, unknown> = { type: 'user_settings', op: 'update', property, value };
      if (property === 'default_language') event.language_name = LANGUAGES[value as string];
      return { realmId: realm.id, userIds: [user.id], event: event as any };
    };
    const updates: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (current[name] === value) continue;
      if (name === 'timezone') updates.timezone = value;
      else stored[name] = value;
      events.push(settingEvent(name, value));
      if (name === 'enable_drafts_synchronization' && value === false) await deleteAllDrafts(trx, user.id);
      if (name === 'presence_enabled') await presenceSharingChanged(trx, realm, user, value === true, events);
    }
    if (Object.keys(parsed).some((n) => n !== 'timezone')) updates.settings = JSON.stringify(stored);
    if (fullName !== undefined && fullName !== fresh.full_name) {
      updates.full_name = fullName;
      events.push({
        realmId: realm.id, userIds: await activeUserIds(trx, realm.id),
        event: { type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } },
      });
    }
    if (parsed.timezone !== undefined && parsed.timezone !== fresh.timezone) {
      events.push({
        realmId: realm.id, userIds: await activeUserIds(trx, realm.id),
        event: { type: 'realm_user', op: 'update', person: { user_id: user.id, timezone: parsed.timezone } },
      });
    }
    if (passwordHash) updates.password_hash = passwordHash;
    if (Object.keys(updates).length) await trx.updateTable('users').set(updates as any).where('id', '=', user.id).execute();
    if ('email_address_visibility' in parsed && parsed.email_address_visibility !== current.email_address_visibility)
      await storeEmailChange(ctx, trx, realm, fresh, { settings: JSON.stringify(stored) }, events);
    if (newEmail !== undefined && newEmail !== fresh.delivery_email) {
      const taken = await addressInUse(trx, realm.id, newEmail);
      if (taken) throw badRequest(`Email '${newEmail}' already in use`);
      const token = crypto.randomBytes(20).toString('hex');
      await trx.insertInto('email_changes').values({ token, user_id: user.id, new_email: newEmail, created: Math.floor(Date.now() / 1000) }).execute();
      sendConfirmation(ctx, newEmail, `${ctx.config.externalUrl}/accounts/confirm_new_email/${token}`);
    }
    return {};
  });
}

/**
 * No mail server is configured: confirmation mails go to the server log and to an outbox file
 * in the data directory that an administrator can read (outbox.jsonl).
 */
export function sendConfirmation(ctx: AppContext, to: string, link: string) {
  const mail = { to, subject: 'Confirm your new email address for Parley', link, at: new Date().toISOString() };
  // Printed whatever the log level: with no mail server, this is how the link reaches people.
  console.log(`[outbox] ${mail.subject} -> ${to}: ${link}`);
  try {
    fs.mkdirSync(ctx.config.dataDir, { recursive: true });
    fs.appendFileSync(path.join(ctx.config.dataDir, 'outbox.jsonl'), JSON.stringify(mail) + '\n');
  } catch (err) {
    ctx.log.error?.(err as any);
  }
}

/** The link in the confirmation mail: applies the change once. */
export async function confirmEmailChange(ctx: AppContext, token: string): Promise<string | null> {
  return transact(ctx, async (trx, events) => {
    const row = await trx.selectFrom('email_changes').selectAll().where('token', '=', token).executeTakeFirst();
    if (!row || Date.now() / 1000 - row.created > 86400) return null;
    await trx.deleteFrom('email_changes').where('token', '=', token).execute();
    const user = await trx.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirstOrThrow();
    if (!user.is_active) return 'deactivated';
    if (await addressInUse(trx, user.realm_id, row.new_email)) return null;
    const realm = await trx.selectFrom('realms').selectAll().where('id', '=', user.realm_id).executeTakeFirstOrThrow();
    await storeEmailChange(ctx, trx, realm, user, { delivery_email: row.new_email }, events);
    return row.new_email;
  });
}
