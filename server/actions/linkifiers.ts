import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { activeUserIds } from '../lib/access.js';
import { isDbId, requireAdmin } from '../lib/admin-checks.js';
import { parseLinkifierPattern } from '../markdown/index.js';
export { expandUrlTemplate } from '../markdown/index.js';

/**
 * Linkifiers: patterns in the real server's regular-expression syntax (RE2's), with named groups,
 * and RFC 6570 URL templates whose variables are exactly those groups.
 */

const invalid = (field: 'pattern' | 'url_template' | '__all__', msg: string) =>
  badRequest(msg, { errors: { [field]: [msg] } });

/**
 * Checks a linkifier pattern as the reference server does (`filter_pattern_validator`): RE2
 * must compile it, or the answer is "Bad regular expression: " and RE2's reason. Returns its
 * named groups.
 */
export function checkLinkifierPattern(pattern: string): string[] {
  if (pattern.trim() === '') throw invalid('pattern', 'pattern cannot be blank');
  if (pattern.includes('\u0000')) throw invalid('pattern', 'pattern must not contain null bytes');
  const parsed = parseLinkifierPattern(pattern);
  if (!parsed.ok) throw invalid('pattern', `Bad regular expression: ${parsed.error}`);
  return parsed.groups;
}

const VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::[1-9]\d{0,3}|\*)?$/;
const OPERATORS = '+#./;?&';

/** The variable names of an RFC 6570 URL template, or null when it is not a valid template. */
export function urlTemplateVariables(template: string): string[] | null {
  const names: string[] = [];
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{') {
      const end = template.indexOf('}', i);
      if (end < 0) return null;
      let body = template.slice(i + 1, end);
      if (body && OPERATORS.includes(body[0])) body = body.slice(1);
      if (!body) return null;
      for (const spec of body.split(',')) {
        const m = VARSPEC.exec(spec);
        if (!m) return null;
        names.push(m[1]);
      }
      i = end + 1;
    } else if (ch === '%') {
      if (!/^%[0-9A-Fa-f]{2}$/.test(template.slice(i, i + 3))) return null;
      i += 3;
    } else if (ch === '}' || /[\u0000-\u0020"'<>\\^`|\u007f]/.test(ch)) {
      return null;
    } else {
      i++;
    }
  }
  return names;
}

/** Checks a pattern and template pair as the real server does, naming the first mismatch. */
export function validateLinkifier(pattern: string, urlTemplate: string) {
  const groups = checkLinkifierPattern(pattern);
  const variables = urlTemplateVariables(urlTemplate);
  if (variables === null) throw invalid('url_template', 'Invalid URL template.');
  const unknown = variables.filter((v) => !groups.includes(v)).sort();
  if (unknown.length)
    throw invalid(
      '__all__',
      `Group '${unknown[0]}' in URL template is not present in linkifier pattern.`,
    );
  const unused = groups.filter((g) => !variables.includes(g)).sort();
  if (unused.length)
    throw invalid(
      '__all__',
      `Group '${unused[0]}' in linkifier pattern is not present in URL template.`,
    );
}

async function linkifierList(db: Database, realmId: number) {
  const rows = await db
    .selectFrom('linkifiers')
    .selectAll()
    .where('realm_id', '=', realmId)
    .orderBy('order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ pattern: r.pattern, url_template: r.url_template, id: r.id }));
}

/** Every change sends the whole ordered list; `realm_filters` is the legacy event, always empty now. */
async function notifyLinkifiers(trx: Database, realm: Realm, events: Delivery[]) {
  const userIds = await activeUserIds(trx, realm.id);
  events.push({
    realmId: realm.id,
    userIds,
    event: { type: 'realm_linkifiers', realm_linkifiers: await linkifierList(trx, realm.id) },
  });
  events.push({ realmId: realm.id, userIds, event: { type: 'realm_filters', realm_filters: [] } });
}

async function checkUnique(trx: Database, realm: Realm, pattern: string, exceptId = -1) {
  const clash = await trx
    .selectFrom('linkifiers')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('pattern', '=', pattern)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  if (clash) throw invalid('__all__', 'Realm filter with this Realm and Pattern already exists.');
}

async function existing(trx: Database, realm: Realm, id: number) {
  if (!isDbId(id)) throw badRequest('Linkifier not found.');
  const row = await trx
    .selectFrom('linkifiers')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw badRequest('Linkifier not found.');
}

/** GET /realm/linkifiers */
export async function getLinkifiers(ctx: AppContext, realm: Realm) {
  return { linkifiers: await linkifierList(ctx.db, realm.id) };
}

/** POST /realm/filters */
export async function addLinkifier(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  req: { pattern: string; url_template: string },
) {
  requireAdmin(actor);
  validateLinkifier(req.pattern, req.url_template);
  return transact(ctx, async (trx, events) => {
    await checkUnique(trx, realm, req.pattern);
    const last = await trx
      .selectFrom('linkifiers')
      .select((eb) => eb.fn.max('order').as('max'))
      .where('realm_id', '=', realm.id)
      .executeTakeFirst();
    const order = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    const row = await trx
      .insertInto('linkifiers')
      .values({ realm_id: realm.id, pattern: req.pattern, url_template: req.url_template, order })
      .returning('id')
      .executeTakeFirstOrThrow();
    await notifyLinkifiers(trx, realm, events);
    return { id: row.id };
  });
}

/** PATCH /realm/filters/{filter_id} */
export async function updateLinkifier(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  id: number,
  req: { pattern: string; url_template: string },
) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    await existing(trx, realm, id);
    validateLinkifier(req.pattern, req.url_template);
    await checkUnique(trx, realm, req.pattern, id);
    await trx
      .updateTable('linkifiers')
      .set({ pattern: req.pattern, url_template: req.url_template })
      .where('id', '=', id)
      .execute();
    await notifyLinkifiers(trx, realm, events);
    return {};
  });
}

/** DELETE /realm/filters/{filter_id} */
export async function removeLinkifier(ctx: AppContext, realm: Realm, actor: User, id: number) {
  requireAdmin(actor);
  return transact(ctx, async (trx, events) => {
    await existing(trx, realm, id);
    await trx.deleteFrom('linkifiers').where('id', '=', id).execute();
    await notifyLinkifiers(trx, realm, events);
    return {};
  });
}

/** PATCH /realm/linkifiers: the full list of ids in the new order. */
export async function reorderLinkifiers(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  orderedIds: number[],
) {
  requireAdmin(actor);
  if (new Set(orderedIds).size !== orderedIds.length)
    throw badRequest('The ordered list must not contain duplicated linkifiers');
  return transact(ctx, async (trx, events) => {
    const ids = (await linkifierList(trx, realm.id)).map((l) => l.id);
    if (ids.length !== orderedIds.length || !orderedIds.every((id) => ids.includes(id)))
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    for (const [order, id] of orderedIds.entries())
      await trx.updateTable('linkifiers').set({ order }).where('id', '=', id).execute();
    await notifyLinkifiers(trx, realm, events);
    return {};
  });
}
