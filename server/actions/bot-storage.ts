import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';

/**
 * What a bot keeps between runs (upstream zerver/lib/bot_storage.py): text values under text
 * keys, at most USER_STATE_SIZE_LIMIT characters of keys and values together per bot. The
 * `zulip_bots` state handler reads and writes it through GET, PUT and DELETE /bot_storage.
 */

/** settings.USER_STATE_SIZE_LIMIT of the reference server, in characters (code points). */
export const BOT_STORAGE_LIMIT = 10_000_000;

/** Characters as Python counts them: a character outside the BMP is one, not two. */
export function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

function requireBot(user: User) {
  if (!user.is_bot) throw badRequest('Must be a bot user');
}

const keyMissing = () => badRequest('Key does not exist.');

/** GET /bot_storage: the values of `keys`, or of every key when none (or an empty list) is named. */
export async function getBotStorage(ctx: AppContext, user: User, keys: string[] | undefined) {
  requireBot(user);
  let q = ctx.db.selectFrom('bot_storage').select(['key', 'value']).where('user_id', '=', user.id);
  const named = keys && keys.length > 0 ? [...new Set(keys)] : undefined;
  if (named) q = q.where('key', 'in', named);
  const rows = await q.orderBy('key').execute();
  if (named && rows.length < named.length) throw keyMissing();
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const storage: Record<string, string> = {};
  for (const key of named ?? rows.map((r) => r.key)) storage[key] = byKey.get(key)!;
  return { storage };
}

/**
 * PUT /bot_storage: sets every entry of `storage` or none. The bot's total after the change
 * (keys and values, in characters) may not pass the limit.
 */
export async function putBotStorage(
  ctx: AppContext,
  user: User,
  storage: Record<string, string>,
  limit = BOT_STORAGE_LIMIT,
) {
  requireBot(user);
  const entries = Object.entries(storage);
  if (entries.length === 0) return {};
  return transact(ctx, async (trx) => {
    const existing = await trx
      .selectFrom('bot_storage')
      .select([
        'key',
        sql<number>`length(${sql.ref('key')}) + length(${sql.ref('value')})`.as('size'),
      ])
      .where('user_id', '=', user.id)
      .execute();
    const sizes = new Map(existing.map((r) => [r.key, Number(r.size)]));
    let total = existing.reduce((sum, r) => sum + Number(r.size), 0);
    for (const [key, value] of entries) {
      total += codePoints(key) + codePoints(value) - (sizes.get(key) ?? 0);
      sizes.set(key, codePoints(key) + codePoints(value));
    }
    if (total > limit)
      throw badRequest(
        `Request exceeds storage limit by ${total - limit} characters. The limit is ${limit} characters.`,
      );
    for (const [key, value] of entries)
      await trx
        .insertInto('bot_storage')
        .values({ user_id: user.id, key, value })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value }))
        .execute();
    return {};
  });
}

/** DELETE /bot_storage: removes `keys` (all of them, or none when one is missing), or every key. */
export async function deleteBotStorage(ctx: AppContext, user: User, keys: string[] | undefined) {
  requireBot(user);
  return transact(ctx, async (trx) => {
    const named = keys && keys.length > 0 ? [...new Set(keys)] : undefined;
    let q = trx.deleteFrom('bot_storage').where('user_id', '=', user.id);
    if (named) {
      const found = await trx
        .selectFrom('bot_storage')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .where('key', 'in', named)
        .executeTakeFirstOrThrow();
      if (Number(found.n) < named.length) throw keyMissing();
      q = q.where('key', 'in', named);
    }
    await q.execute();
    return {};
  });
}
