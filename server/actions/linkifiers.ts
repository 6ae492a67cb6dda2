import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { activeUserIds } from './access.js';
import { isDbId, requireAdmin } from './admin-checks.js';
export { expandUrlTemplate } from '../markdown/index.js';

/**
 * Linkifiers: patterns in the real server's (Python / RE2) regular-expression syntax, with named
 * groups, and RFC 6570 URL templates whose variables are exactly those groups.
 */

const invalid = (field: 'pattern' | 'url_template' | '__all__', msg: string) =>
  badRequest(msg, { errors: { [field]: [msg] } });

export interface CompiledPattern {
  regexp: RegExp;
  groups: string[];
}

/**
 * Compiles a linkifier pattern written for the real server into a JavaScript RegExp (named
 * groups `(?P<name>...)`, a leading `(?i)` flag). Constructs RE2 refuses are refused here too.
 */
export function compileLinkifierPattern(pattern: string): CompiledPattern {
  const bad = (why: string) => invalid('pattern', `Bad regular expression: ${why}`);
  if (pattern.trim() === '') throw invalid('pattern', 'pattern cannot be blank');
  if (pattern.includes('\u0000')) throw invalid('pattern', 'pattern must not contain null bytes');
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline) {
    if (!/^[ims]+$/.test(inline[1])) throw bad(`invalid perl operator: (?${inline[1]})`);
    flags = [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  const lookaround = /\(\?<?[=!]/.exec(source);
  if (lookaround) throw bad(`invalid perl operator: ${lookaround[0]}`);
  const backref = /\\[1-9]|\(\?P=\w*\)?|\\k</.exec(source);
  if (backref) throw bad(`invalid escape sequence: ${backref[0]}`);
  const groups: string[] = [];
  source = source.replace(/\(\?P?<([^>]*)>/g, (whole, name: string) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw bad(`invalid named capture group: ${whole}`);
    if (groups.includes(name)) throw bad(`duplicate capture group name: ${name}`);
    groups.push(name);
    return `(?<${name}>`;
  });
  source = source.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$');
  let regexp: RegExp | null = null;
  let error = '';
  for (const extra of ['', 'u']) {
    try {
      regexp = new RegExp(source, flags + extra);
      break;
    } catch (err) {
      error ||= (err as Error).message.replace(/^Invalid regular expression: /, '');
    }
  }
  if (!regexp) throw bad(error);
  return { regexp, groups };
}

/** The JavaScript RegExp for a stored linkifier pattern (global, for scanning message text). */
export function linkifierRegExp(pattern: string): RegExp {
  const { regexp } = compileLinkifierPattern(pattern);
  return new RegExp(regexp.source, regexp.flags + 'g');
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

/**
 * Expands a URL template with string values, as RFC 6570 defines it for simple (non-list)
 * variables; for rendering linkified text.
 */
/** Checks a pattern and template pair as the real server does, naming the first mismatch. */
export function validateLinkifier(pattern: string, urlTemplate: string) {
  const { groups } = compileLinkifierPattern(pattern);
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
