import type { CustomProfileField, CustomProfileFieldType } from '../../src/api/model/index.js';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Updateable } from 'kysely';
import type { CustomProfileFieldTable, Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { activeUserIds } from '../lib/access.js';
import { isDbId, requireAdmin } from '../lib/admin-checks.js';
import { clearValuesOutsideChoices, FIELD_TYPE, isHttpUrl } from './profile-values.js';

/**
 * Custom profile field definitions (administrators only). `field_data` is stored and sent as
 * JSON text, as upstream does; only choice lists (type 3) and external accounts (type 7) use it.
 */
export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
export const MAX_SUMMARY_FIELDS = 2;

export const DEFAULT_EXTERNAL_ACCOUNTS: Record<
  string,
  { text: string; url_pattern: string; name: string }
> = {
  twitter: {
    text: 'Twitter',
    url_pattern: 'https://twitter.com/%(username)s',
    name: 'Twitter username',
  },
  github: {
    text: 'GitHub',
    url_pattern: 'https://github.com/%(username)s',
    name: 'GitHub username',
  },
};

export type ProfileField = Awaited<ReturnType<typeof realmFields>>[number];

export async function realmFields(db: Database, realmId: number) {
  return db
    .selectFrom('custom_profile_fields')
    .selectAll()
    .where('realm_id', '=', realmId)
    .orderBy('order')
    .orderBy('id')
    .execute();
}

/** A field as `custom_profile_fields` (register, events) and GET /realm/profile_fields show it. */
export function profileFieldToApi(f: ProfileField): CustomProfileField {
  const out: CustomProfileField = {
    // the column holds only the API's field types (checked on creation)
    id: f.id,
    name: f.name,
    type: f.field_type as CustomProfileFieldType,
    hint: f.hint,
    field_data: f.field_data,
    order: f.order,
    required: !!f.required,
    editable_by_user: !!f.editable_by_user,
  };
  if (f.display_in_profile_summary) out.display_in_profile_summary = true;
  return out;
}

export async function profileFieldObjects(db: Database, realmId: number) {
  return (await realmFields(db, realmId)).map(profileFieldToApi);
}

/** Everyone hears the whole new list after any change to the definitions. */
async function fieldsEvent(trx: Database, realm: Realm, events: Delivery[]) {
  events.push({
    realmId: realm.id,
    userIds: await activeUserIds(trx, realm.id),
    event: { type: 'custom_profile_fields', fields: await profileFieldObjects(trx, realm.id) },
  });
}

function checkChoices(
  data: Record<string, unknown>,
): Record<string, { text: string; order: string }> {
  const keys = Object.keys(data);
  if (!keys.length) throw badRequest('Field must have at least one choice.');
  const out: Record<string, { text: string; order: string }> = {};
  const texts = new Set<string>();
  for (const key of keys) {
    const choice = data[key];
    const where = `field_data["${key}"]`;
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice))
      throw badRequest(`${where} is not a dict`);
    const { text, order, ...extra } = choice as Record<string, unknown>;
    if (Object.keys(extra).length)
      throw badRequest(`Unexpected arguments: ${Object.keys(extra).join(', ')}`);
    if (typeof text !== 'string') throw badRequest(`${where}["text"] is not a string`);
    if (!text.trim()) throw badRequest(`${where}["text"] cannot be blank.`);
    if (`${key}${text}${String(order)}`.includes('\u0000'))
      throw badRequest(`${where} contains NUL characters`);
    if (typeof order !== 'string' && !(typeof order === 'number' && Number.isSafeInteger(order)))
      throw badRequest(`${where}["order"] is not a string`);
    if (texts.has(text)) throw badRequest('Field must not have duplicate choices.');
    texts.add(text);
    out[key] = { text, order: String(order) };
  }
  return out;
}

function checkExternalAccount(data: Record<string, unknown>): Record<string, string> {
  const subtype = data.subtype;
  if (subtype === undefined) throw badRequest('subtype key is missing from field_data');
  if (typeof subtype !== 'string') throw badRequest('field_data["subtype"] is not a string');
  if (subtype !== 'custom') {
    if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) throw badRequest('Invalid external account type');
    return { subtype };
  }
  const pattern = data.url_pattern;
  if (typeof pattern !== 'string' || !pattern)
    throw badRequest('Custom external account must define URL pattern');
  if (pattern.split('%(username)s').length !== 2) throw badRequest('Malformed URL pattern.');
  if (pattern.includes('\u0000'))
    throw badRequest('field_data["url_pattern"] contains NUL characters');
  if (!isHttpUrl(pattern.replace('%(username)s', 'username')))
    throw badRequest('field_data["url_pattern"] is not a URL');
  return { subtype, url_pattern: pattern };
}

/** field_data as stored: JSON text for types 3 and 7, empty otherwise. */
function storedFieldData(type: number, data: Record<string, unknown> | undefined): string {
  if (type === FIELD_TYPE.SELECT) return JSON.stringify(checkChoices(data ?? {}));
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) return JSON.stringify(checkExternalAccount(data ?? {}));
  return '';
}

function isDefaultExternalAccount(type: number, fieldData: string): boolean {
  if (type !== FIELD_TYPE.EXTERNAL_ACCOUNT) return false;
  try {
    return JSON.parse(fieldData).subtype !== 'custom';
  } catch {
    return false;
  }
}

function checkLabel(name: string, hint: string) {
  if (!name.trim()) throw badRequest('Label cannot be blank.');
  if (name.length > MAX_FIELD_NAME_LENGTH)
    throw badRequest(`name is too long (limit: ${MAX_FIELD_NAME_LENGTH} characters)`);
  if (hint.length > MAX_FIELD_HINT_LENGTH)
    throw badRequest(`hint is too long (limit: ${MAX_FIELD_HINT_LENGTH} characters)`);
}

function checkSummary(fields: ProfileField[], type: number, exceptId?: number) {
  if (type === FIELD_TYPE.LONG_TEXT || type === FIELD_TYPE.USER)
    throw badRequest('Field type not supported for display in profile summary.');
  if (
    fields.filter((f) => f.id !== exceptId && f.display_in_profile_summary).length >=
    MAX_SUMMARY_FIELDS
  )
    throw badRequest(
      `Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`,
    );
}

function checkNameFree(fields: ProfileField[], name: string, exceptId?: number) {
  if (fields.some((f) => f.id !== exceptId && f.name === name))
    throw badRequest('A field with that label already exists.');
}

export interface NewProfileField {
  name: string;
  hint: string;
  field_type: number;
  field_data?: Record<string, unknown>;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
}

/** POST /realm/profile_fields */
export async function createProfileField(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  req: NewProfileField,
) {
  requireAdmin(actor);
  if (!(Object.values(FIELD_TYPE) as number[]).includes(req.field_type))
    throw badRequest('Invalid field type.');
  const fieldData = storedFieldData(req.field_type, req.field_data);
  let name = req.name.trim();
  let hint = req.hint;
  const external = isDefaultExternalAccount(req.field_type, fieldData)
    ? DEFAULT_EXTERNAL_ACCOUNTS[JSON.parse(fieldData).subtype]
    : null;
  if (external) {
    name = external.name;
    hint = '';
  } else checkLabel(name, hint);
  return transact(ctx, async (trx, events) => {
    const fields = await realmFields(trx, realm.id);
    if (req.display_in_profile_summary) checkSummary(fields, req.field_type);
    checkNameFree(fields, name);
    const order = fields.reduce((max, f) => Math.max(max, f.order), 0) + 1;
    const field = await trx
      .insertInto('custom_profile_fields')
      .values({
        realm_id: realm.id,
        name,
        hint,
        field_type: req.field_type,
        field_data: fieldData,
        order,
        display_in_profile_summary: req.display_in_profile_summary ? 1 : 0,
        required: req.required ? 1 : 0,
        editable_by_user: req.editable_by_user ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await fieldsEvent(trx, realm, events);
    return { id: field.id };
  });
}

export interface ProfileFieldChanges {
  name?: string;
  hint?: string;
  field_data?: Record<string, unknown>;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

function fieldById(fields: ProfileField[], fieldId: number): ProfileField {
  const field = isDbId(fieldId) ? fields.find((f) => f.id === fieldId) : undefined;
  if (!field) throw badRequest(`Field id ${fieldId} not found.`);
  return field;
}

/** PATCH /realm/profile_fields/{id} */
export async function updateProfileField(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  fieldId: number,
  c: ProfileFieldChanges,
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    const fields = await realmFields(trx, realm.id);
    const field = fieldById(fields, fieldId);
    const defaultExternal = isDefaultExternalAccount(field.field_type, field.field_data);
    if (defaultExternal && (c.name !== undefined || c.hint !== undefined))
      throw badRequest('Default custom field cannot be updated.');
    const name = c.name === undefined ? field.name : c.name.trim();
    const hint = c.hint ?? field.hint;
    const changes: Updateable<CustomProfileFieldTable> = {};
    if (
      c.field_data !== undefined &&
      (field.field_type === FIELD_TYPE.SELECT || field.field_type === FIELD_TYPE.EXTERNAL_ACCOUNT)
    )
      changes.field_data = storedFieldData(field.field_type, c.field_data);
    if (!defaultExternal) checkLabel(name, hint);
    if (name !== field.name) {
      checkNameFree(fields, name, field.id);
      changes.name = name;
    }
    if (hint !== field.hint) changes.hint = hint;
    if (
      c.display_in_profile_summary !== undefined &&
      c.display_in_profile_summary !== !!field.display_in_profile_summary
    ) {
      if (c.display_in_profile_summary) checkSummary(fields, field.field_type, field.id);
      changes.display_in_profile_summary = c.display_in_profile_summary ? 1 : 0;
    }
    if (c.required !== undefined) changes.required = c.required ? 1 : 0;
    if (c.editable_by_user !== undefined) changes.editable_by_user = c.editable_by_user ? 1 : 0;
    if (Object.keys(changes).length)
      await trx
        .updateTable('custom_profile_fields')
        .set(changes)
        .where('id', '=', field.id)
        .execute();
    if (typeof changes.field_data === 'string' && field.field_type === FIELD_TYPE.SELECT)
      await clearValuesOutsideChoices(
        trx,
        realm,
        field.id,
        Object.keys(JSON.parse(changes.field_data)),
        events,
      );
    await fieldsEvent(trx, realm, events);
    return {};
  });
}

/** PATCH /realm/profile_fields: `order` lists every field id once, in the new order. */
export async function reorderProfileFields(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  order: number[],
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    const fields = await realmFields(trx, realm.id);
    const ids = new Set(fields.map((f) => f.id));
    if (
      order.length !== fields.length ||
      new Set(order).size !== order.length ||
      order.some((id) => !ids.has(id))
    )
      throw badRequest('Invalid order mapping.');
    for (const [index, id] of order.entries())
      await trx
        .updateTable('custom_profile_fields')
        .set({ order: index })
        .where('id', '=', id)
        .execute();
    await fieldsEvent(trx, realm, events);
    return {};
  });
}

/** DELETE /realm/profile_fields/{id}: the field and every user's value for it. */
export async function deleteProfileField(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  fieldId: number,
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    const field = fieldById(await realmFields(trx, realm.id), fieldId);
    await trx.deleteFrom('custom_profile_values').where('field_id', '=', field.id).execute();
    await trx.deleteFrom('custom_profile_fields').where('id', '=', field.id).execute();
    await fieldsEvent(trx, realm, events);
    return {};
  });
}

/** GET /realm/profile_fields */
export async function getProfileFields(ctx: AppContext, realm: Realm) {
  return { custom_fields: await profileFieldObjects(ctx.db, realm.id) };
}
