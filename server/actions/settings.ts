import crypto from 'node:crypto';
import { presenceSharingChanged } from './presence.js';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { DeliveredEvent, Delivery } from '../events/types.js';
import type { UserSettingsEvent } from '../../src/api/model/events.js';
import type { User as WireUser } from '../../src/api/model/user.js';
import { badRequest } from '../domain/errors.js';
import { hashPassword, newPasswordProblem } from '../domain/password.js';
import { passwordMatches } from './password-check.js';
import { storeEmailChange } from './user-email.js';
import {
  AVAILABLE_NOTIFICATION_SOUNDS,
  parseSettings,
  USER_SETTING_DEFAULTS,
} from '../domain/settings.js';
import { isValidTimezone, LANGUAGES } from '../domain/languages.js';
import {
  USER_SETTING_NAMES,
  USER_SETTINGS,
  type RealmUserSettingName,
  type UserSettingCheck,
  type UserSettingName,
  type UserSettingSpec,
} from '../../src/api/model/user-settings.js';
import { activeUserIds } from '../lib/access.js';
import { realmSettings } from '../lib/realm.js';
import { addressInUse, validateEmail, validateFullName } from './users.js';
import { deleteAllDrafts } from './drafts.js';
import { queueEmailChangeMail } from './mail.js';
import { userUpdated } from './announce-user.js';

const CHECKS: Record<UserSettingCheck, (value: string) => boolean> = {
  language: (v) => v in LANGUAGES,
  timezone: isValidTimezone,
  notification_sound: (v) => AVAILABLE_NOTIFICATION_SOUNDS.includes(v),
};

/** Every personal setting PATCH /settings accepts: the shared list, nothing more. */
export const SETTING_NAMES: readonly UserSettingName[] = USER_SETTING_NAMES;

// The error texts are the reference server's: a malformed value is "not a boolean/integer", a
// well-formed one outside the allowed set is "Invalid".
function parseValue(name: string, raw: string, spec: UserSettingSpec): string | number | boolean {
  switch (spec.kind) {
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw badRequest(`${name} is not a boolean`);
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw badRequest(`${name} is not an integer`);
      const n = Number(raw);
      if (n < spec.min || n > spec.max) throw badRequest(`Invalid ${name}`);
      return n;
    }
    case 'enum': {
      const values: readonly (number | string)[] = spec.values;
      const numeric = typeof values[0] === 'number';
      const value = numeric ? Number(raw) : raw;
      if (numeric && !/^-?\d+$/.test(raw)) throw badRequest(`${name} is not an integer`);
      if (!values.includes(value)) throw badRequest(`Invalid ${name}`);
      return value;
    }
    case 'string':
      if (!CHECKS[spec.check](raw)) throw badRequest(`Invalid ${name}`);
      return raw;
  }
}

/**
 * The `user_settings` event for one changed setting. The value was validated against the list by
 * parseValue, which tsc cannot follow from a name known only at run time: hence the one cast.
 */
function settingEvent(
  property: UserSettingName,
  value: string | number | boolean,
): DeliveredEvent<UserSettingsEvent> {
  const event = {
    type: 'user_settings',
    op: 'update',
    property,
    value,
  } as DeliveredEvent<UserSettingsEvent>;
  return property === 'default_language'
    ? { ...event, language_name: LANGUAGES[value as string] }
    : event;
}

export interface SettingsChange {
  settings: Record<string, string>;
  full_name?: string;
  email?: string;
  old_password?: string;
  new_password?: string;
}

/** PATCH /settings */
export async function updateSettings(
  ctx: AppContext,
  realm: Realm,
  user: User,
  change: SettingsChange,
) {
  const { parsed, fullName, newEmail, passwordHash } = await checkSettingsChange(
    ctx,
    realm,
    user,
    change,
  );

  return transact(ctx, async (trx, events) => {
    const fresh = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(fresh.settings || '{}');
    const current = currentSettings(fresh);
    const { updates, userObjectChanges } = await applySettingValues(
      { trx, events, realm, user },
      parsed,
      current,
      stored,
    );
    if (Object.keys(parsed).some((name) => !onRow(name))) updates.settings = JSON.stringify(stored);
    if (fullName !== undefined && fullName !== fresh.full_name) {
      updates.full_name = fullName;
      events.push(
        userUpdated(realm, await activeUserIds(trx, realm.id), {
          user_id: user.id,
          full_name: fullName,
        }),
      );
    }
    for (const change of userObjectChanges) {
      events.push(
        userUpdated(realm, await activeUserIds(trx, realm.id), { user_id: user.id, ...change }),
      );
    }
    if (passwordHash) updates.password_hash = passwordHash;
    if (Object.keys(updates).length)
      await trx
        .updateTable('users')
        .set(updates as any)
        .where('id', '=', user.id)
        .execute();
    if (
      'email_address_visibility' in parsed &&
      parsed.email_address_visibility !== current.email_address_visibility
    )
      await storeEmailChange(ctx, trx, realm, fresh, { settings: JSON.stringify(stored) }, events);
    if (newEmail !== undefined && newEmail !== fresh.delivery_email)
      await requestEmailChange(ctx, trx, realm, { ...fresh, ...updates } as User, newEmail);
    return {};
  });
}

/** The checks of a settings change that need no transaction: values, name, address, password. */
async function checkSettingsChange(
  ctx: AppContext,
  realm: Realm,
  user: User,
  change: SettingsChange,
) {
  const parsed: Record<string, string | number | boolean> = {};
  for (const [name, raw] of Object.entries(change.settings))
    parsed[name] = parseValue(name, raw, USER_SETTINGS[name as UserSettingName]);
  const rs = realmSettings(realm);
  let fullName: string | undefined;
  if (change.full_name !== undefined) {
    if (rs.name_changes_disabled && user.role > 200)
      throw badRequest('Name changes are disabled in this organization.');
    fullName = validateFullName(change.full_name);
  }
  let newEmail: string | undefined;
  if (change.email !== undefined) {
    if (rs.email_changes_disabled && user.role > 200)
      throw badRequest('Email address changes are disabled in this organization.');
    newEmail = validateEmail(change.email);
  }
  let passwordHash: string | undefined;
  if (change.new_password !== undefined) {
    if (change.old_password === undefined) throw badRequest('Please fill out all fields.', {});
    if (
      !(await passwordMatches(ctx, realm.id, user.email, user.password_hash, change.old_password))
    )
      throw badRequest('Wrong password!');
    // The reference's words for any new password its rules refuse.
    if (newPasswordProblem(change.new_password)) throw badRequest('New password is too weak!');
    passwordHash = await hashPassword(change.new_password, ctx.config.scryptCost);
  }
  return { parsed, fullName, newEmail, passwordHash };
}

/** Settings that are user-object properties are columns of the same name, and everyone sees them. */
const onRow = (name: string) => 'realmUser' in USER_SETTINGS[name as UserSettingName];

/** The user's settings as they stand: the stored ones over the defaults, and the user's columns. */
function currentSettings(fresh: User): Record<string, unknown> {
  const current: Record<string, unknown> = {
    ...parseSettings(USER_SETTING_DEFAULTS, fresh.settings),
  };
  for (const name of SETTING_NAMES)
    if (onRow(name)) current[name] = fresh[name as keyof typeof fresh];
  return current;
}

/**
 * Applies each setting whose value changes: a user_settings event each, and what follows from
 * turning off draft synchronization or presence sharing. A column's value goes to the returned
 * `updates` (and `userObjectChanges`, for everyone to see); any other into `stored`.
 */
async function applySettingValues(
  at: { trx: Database; events: Delivery[]; realm: Realm; user: User },
  parsed: Record<string, string | number | boolean>,
  current: Record<string, unknown>,
  stored: Record<string, unknown>,
) {
  const { trx, events, realm, user } = at;
  const updates: Record<string, unknown> = {};
  const userObjectChanges: Partial<Pick<WireUser, RealmUserSettingName>>[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (current[name] === value) continue;
    if (onRow(name)) {
      updates[name] = value;
      userObjectChanges.push({ [name]: value });
    } else stored[name] = value;
    events.push({
      realmId: realm.id,
      userIds: [user.id],
      event: settingEvent(name as UserSettingName, value),
    });
    if (name === 'enable_drafts_synchronization' && value === false)
      await deleteAllDrafts(trx, user.id);
    if (name === 'presence_enabled')
      await presenceSharingChanged(trx, realm, user, value === true, events);
  }
  return { updates, userObjectChanges };
}

/** A new address waits for its confirmation: the link in the mail applies it. */
async function requestEmailChange(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  user: User,
  newEmail: string,
) {
  const taken = await addressInUse(trx, realm.id, newEmail);
  if (taken) throw badRequest(`Email '${newEmail}' already in use`);
  const token = crypto.randomBytes(20).toString('hex');
  await trx
    .insertInto('email_changes')
    .values({
      token,
      user_id: user.id,
      new_email: newEmail,
      created: Math.floor(Date.now() / 1000),
    })
    .execute();
  await queueEmailChangeMail(
    ctx,
    trx,
    realm,
    user,
    newEmail,
    token,
    `${ctx.config.externalUrl}/accounts/confirm_new_email/${token}`,
  );
}

/** The link in the confirmation mail: applies the change once. */
export async function confirmEmailChange(ctx: AppContext, token: string): Promise<string | null> {
  return transact(ctx, async (trx, events) => {
    const row = await trx
      .selectFrom('email_changes')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirst();
    if (!row || Date.now() / 1000 - row.created > 86400) return null;
    await trx.deleteFrom('email_changes').where('token', '=', token).execute();
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', row.user_id)
      .executeTakeFirstOrThrow();
    if (!user.is_active) return 'deactivated';
    if (await addressInUse(trx, user.realm_id, row.new_email)) return null;
    const realm = await trx
      .selectFrom('realms')
      .selectAll()
      .where('id', '=', user.realm_id)
      .executeTakeFirstOrThrow();
    await storeEmailChange(ctx, trx, realm, user, { delivery_email: row.new_email }, events);
    return row.new_email;
  });
}
