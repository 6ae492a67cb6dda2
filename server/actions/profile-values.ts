import type { CustomProfileFieldChange } from '../../src/api/model/index.js';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { parseClientJson } from '../domain/client-json.js';
import { badRequest } from '../domain/errors.js';
import { renderMarkdown } from '../markdown/index.js';
import { activeUserIds } from '../lib/access.js';
import { isDbId } from '../lib/admin-checks.js';
import { isAdmin } from '../domain/roles.js';
import { userUpdated } from './announce-user.js';

/**
 * Users' values for the custom profile fields: validated per field type, rendered as Markdown
 * for the text types, and announced to everyone as `realm_user` updates.
 */
export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
export const MAX_SHORT_TEXT_LENGTH = 50;
export const MAX_LONG_TEXT_LENGTH = 500;
const RENDERED_TYPES: number[] = [FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT];

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && !/\s/.test(text)
    );
  } catch {
    return false;
  }
}

export interface ProfileEntry {
  id: number;
  value: unknown;
}

/** `data` of PATCH /users/me/profile_data and `profile_data` of PATCH /users/{id}: [{id, value}]. */
export function checkProfileEntries(
  items: Record<string, unknown>[],
  name: string,
): ProfileEntry[] {
  return items.map((item, i) => {
    const where = `${name}[${i}]`;
    if (typeof item.id !== 'number' || !Number.isSafeInteger(item.id))
      throw badRequest(`${where}["id"] is not an integer`);
    if (!('value' in item)) throw badRequest(`${where} is missing "value"`);
    return { id: item.id, value: item.value };
  });
}

type FieldRow = {
  id: number;
  name: string;
  field_type: number;
  field_data: string;
  editable_by_user: 0 | 1;
};

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);

function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

function userIdList(field: FieldRow, value: unknown): number[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = parseClientJson(value);
    } catch {
      list = null;
    }
  }
  if (
    !Array.isArray(list) ||
    !list.every((id) => typeof id === 'number' && Number.isSafeInteger(id))
  )
    throw badRequest(`${field.name} is not a list of user IDs`);
  return [...new Set(list as number[])];
}

/** The value as stored (text; user lists as JSON), or an error naming the field. */
async function storedValue(
  db: Database,
  realm: Realm,
  field: FieldRow,
  value: unknown,
): Promise<string> {
  if (field.field_type === FIELD_TYPE.USER) {
    const ids = userIdList(field, value);
    const found = new Set(
      (
        await db
          .selectFrom('users')
          .select('id')
          .where('realm_id', '=', realm.id)
          .where('is_active', '=', 1)
          .where('id', 'in', ids.filter(isDbId).length ? ids.filter(isDbId) : [-1])
          .execute()
      ).map((r) => r.id),
    );
    const bad = ids.find((id) => !found.has(id));
    if (bad !== undefined) throw badRequest(`Invalid user ID: ${bad}`);
    return JSON.stringify(ids);
  }
  if (typeof value !== 'string') throw badRequest(`${field.name} is not a string`);
  if (value.includes('\u0000')) throw badRequest(`${field.name} contains NUL characters`);
  switch (field.field_type) {
    case FIELD_TYPE.LONG_TEXT:
      if (value.length > MAX_LONG_TEXT_LENGTH)
        throw badRequest(`${field.name} is too long (limit: ${MAX_LONG_TEXT_LENGTH} characters)`);
      return value;
    case FIELD_TYPE.DATE:
      if (!isDate(value)) throw badRequest(`${field.name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (!isHttpUrl(value)) throw badRequest(`${field.name} is not a URL`);
      return value;
    case FIELD_TYPE.SELECT: {
      let choices: Record<string, unknown> = {};
      try {
        choices = JSON.parse(field.field_data || '{}');
      } catch {
        /* no choices */
      }
      if (!Object.prototype.hasOwnProperty.call(choices, value))
        throw badRequest(`'${value}' is not a valid choice for '${field.name}'.`);
      return value;
    }
    default:
      if (value.length > MAX_SHORT_TEXT_LENGTH)
        throw badRequest(`${field.name} is too long (limit: ${MAX_SHORT_TEXT_LENGTH} characters)`);
      return value;
  }
}

async function valueEvent(
  trx: Database,
  realm: Realm,
  userId: number,
  field: { id: number; value: string | null; rendered_value?: string | null },
  events: Delivery[],
) {
  const custom: CustomProfileFieldChange = { id: field.id, value: field.value };
  if (field.rendered_value != null) custom.rendered_value = field.rendered_value;
  events.push(
    userUpdated(realm, await activeUserIds(trx, realm.id), {
      user_id: userId,
      custom_profile_field: custom,
    }),
  );
}

async function realmFieldRows(trx: Database, realm: Realm): Promise<Map<number, FieldRow>> {
  const rows = await trx
    .selectFrom('custom_profile_fields')
    .select(['id', 'name', 'field_type', 'field_data', 'editable_by_user'])
    .where('realm_id', '=', realm.id)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

function fieldFor(fields: Map<number, FieldRow>, id: number, asAdmin: boolean): FieldRow {
  const field = fields.get(id);
  if (!field) throw badRequest(`Field id ${id} not found.`);
  if (!asAdmin && !field.editable_by_user)
    throw badRequest(
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
  return field;
}

/**
 * Sets (or, for an empty value, clears) `target`'s values inside an open transaction. Every entry
 * is checked before anything is written; unchanged values send no event.
 */
export async function setProfileValues(
  trx: Database,
  realm: Realm,
  target: User,
  entries: ProfileEntry[],
  asAdmin: boolean,
  events: Delivery[],
) {
  const fields = await realmFieldRows(trx, realm);
  const planned: { field: FieldRow; value: string | null }[] = [];
  for (const entry of entries) {
    const field = fieldFor(fields, entry.id, asAdmin);
    planned.push({
      field,
      value: isEmpty(entry.value) ? null : await storedValue(trx, realm, field, entry.value),
    });
  }
  for (const { field, value } of planned) {
    const existing = await trx
      .selectFrom('custom_profile_values')
      .select('value')
      .where('field_id', '=', field.id)
      .where('user_id', '=', target.id)
      .executeTakeFirst();
    if (value === null) {
      if (!existing) continue;
      await trx
        .deleteFrom('custom_profile_values')
        .where('field_id', '=', field.id)
        .where('user_id', '=', target.id)
        .execute();
      await valueEvent(trx, realm, target.id, { id: field.id, value: null }, events);
      continue;
    }
    if (existing?.value === value) continue;
    const rendered = RENDERED_TYPES.includes(field.field_type)
      ? renderMarkdown(value, { users: [], streams: [] }).html
      : null;
    if (existing) {
      await trx
        .updateTable('custom_profile_values')
        .set({ value, rendered_value: rendered })
        .where('field_id', '=', field.id)
        .where('user_id', '=', target.id)
        .execute();
    } else {
      await trx
        .insertInto('custom_profile_values')
        .values({ field_id: field.id, user_id: target.id, value, rendered_value: rendered })
        .execute();
    }
    await valueEvent(
      trx,
      realm,
      target.id,
      { id: field.id, value, rendered_value: rendered },
      events,
    );
  }
}

/** After a choice list shrinks, values naming a removed choice are cleared. */
export async function clearValuesOutsideChoices(
  trx: Database,
  realm: Realm,
  fieldId: number,
  keys: string[],
  events: Delivery[],
) {
  const rows = await trx
    .selectFrom('custom_profile_values')
    .select(['user_id', 'value'])
    .where('field_id', '=', fieldId)
    .execute();
  for (const r of rows.filter((row) => !keys.includes(row.value))) {
    await trx
      .deleteFrom('custom_profile_values')
      .where('field_id', '=', fieldId)
      .where('user_id', '=', r.user_id)
      .execute();
    await valueEvent(trx, realm, r.user_id, { id: fieldId, value: null }, events);
  }
}

/** PATCH /users/me/profile_data */
export async function updateOwnProfileData(
  ctx: AppContext,
  realm: Realm,
  user: User,
  data: Record<string, unknown>[],
) {
  const entries = checkProfileEntries(data, 'data');
  return transact(ctx, async (trx, events) => {
    await setProfileValues(trx, realm, user, entries, isAdmin(user), events);
    return {};
  });
}

/** DELETE /users/me/profile_data: `data` lists field ids whose values to clear. */
export async function removeOwnProfileData(
  ctx: AppContext,
  realm: Realm,
  user: User,
  fieldIds: number[],
) {
  return transact(ctx, async (trx, events) => {
    await setProfileValues(
      trx,
      realm,
      user,
      fieldIds.map((id) => ({ id, value: null })),
      isAdmin(user),
      events,
    );
    return {};
  });
}
