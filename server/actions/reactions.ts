import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { emojiCodeForName } from '../markdown/index.js';
import { accessibleMessage } from './get-messages.js';
import { realmSettings } from './realm.js';

export interface ReactionRequest {
  emojiName: string;
  emojiCode?: string;
  reactionType?: string;
}

/** Resolves the emoji a reaction names; Unicode emoji only (no custom emoji yet). */
function resolveEmoji(req: ReactionRequest): { name: string; code: string; type: string } {
  const type = req.reactionType ?? 'unicode_emoji';
  if (type !== 'unicode_emoji') throw badRequest(`Invalid emoji type '${type}'`);
  const code = emojiCodeForName(req.emojiName);
  if (!code) throw badRequest(`Emoji '${req.emojiName}' does not exist`);
  if (req.emojiCode !== undefined && req.emojiCode !== code) throw badRequest(`Invalid emoji code '${req.emojiCode}'`);
  return { name: req.emojiName, code, type };
}

/** Reactions as message records carry them. */
export async function reactionsFor(db: Database, messageIds: number[]) {
  const map = new Map<number, Record<string, unknown>[]>();
  if (!messageIds.length) return map;
  const rows = await db
    .selectFrom('reactions')
    .innerJoin('users', 'users.id', 'reactions.user_id')
    .select(['reactions.message_id', 'reactions.user_id', 'reactions.emoji_name', 'reactions.emoji_code', 'reactions.reaction_type', 'users.email', 'users.full_name'])
    .where('reactions.message_id', 'in', messageIds)
    .execute();
  for (const r of rows) {
    const list = map.get(r.message_id) ?? [];
    list.push({
      emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, user_id: r.user_id,
      user: { id: r.user_id, email: r.email, full_name: r.full_name, is_mirror_dummy: false },
    });
    map.set(r.message_id, list);
  }
  return map;
}

async function changeReaction(ctx: AppContext, realm: Realm, user: User, messageId: number, req: ReactionRequest, op: 'add' | 'remove') {
  const message = await accessibleMessage(ctx, realm, user, messageId);
  if (!message) throw badRequest('Invalid message(s)');
  const emoji = resolveEmoji(req);
  return transact(ctx, async (trx, events) => {
    const existing = await trx.selectFrom('reactions').select('user_id').where('message_id', '=', messageId)
      .where('user_id', '=', user.id).where('emoji_code', '=', emoji.code).where('reaction_type', '=', emoji.type).executeTakeFirst();
    if (op === 'add') {
      if (existing) throw badRequest('Reaction already exists.');
      await trx.insertInto('reactions').values({ message_id: messageId, user_id: user.id, emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type }).execute();
      // Reacting to a message from a stream's history adds it to the user's messages.
      await trx.insertInto('user_messages').values({ user_id: user.id, message_id: messageId, flags: message.flags })
        .onConflict((oc) => oc.doNothing()).execute();
    } else {
      if (!existing) throw badRequest("Reaction doesn't exist.");
      await trx.deleteFrom('reactions').where('message_id', '=', messageId).where('user_id', '=', user.id)
        .where('emoji_code', '=', emoji.code).where('reaction_type', '=', emoji.type).execute();
    }
    const audience = (await trx.selectFrom('user_messages').select('user_id').where('message_id', '=', messageId).execute()).map((r) => r.user_id);
    events.push({
      realmId: realm.id,
      userIds: audience,
      event: {
        type: 'reaction', op, message_id: messageId, user_id: user.id,
        user: { user_id: user.id, email: user.email, full_name: user.full_name },
        emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type,
      },
    });
    return {};
  });
}

export const addReaction = (ctx: AppContext, realm: Realm, user: User, id: number, req: ReactionRequest) => changeReaction(ctx, realm, user, id, req, 'add');
export const removeReaction = (ctx: AppContext, realm: Realm, user: User, id: number, req: ReactionRequest) => changeReaction(ctx, realm, user, id, req, 'remove');

/** GET /messages/{id}/read_receipts */
export async function readReceipts(ctx: AppContext, realm: Realm, user: User, messageId: number) {
  if (!realmSettings(realm).enable_read_receipts) throw badRequest('Read receipts are disabled in this organization.');
  const message = await accessibleMessage(ctx, realm, user, messageId);
  if (!message) throw badRequest('Invalid message(s)');
  const rows = await ctx.db.selectFrom('user_messages').innerJoin('users', 'users.id', 'user_messages.user_id')
    .select(['users.id', 'users.settings', 'users.is_active', 'users.is_bot'])
    .where('user_messages.message_id', '=', messageId)
    .where((eb) => eb(eb('user_messages.flags', '&', 1), '!=', 0))
    .execute();
  const mutedMe = new Set((await ctx.db.selectFrom('muted_users').select('user_id').where('muted_user_id', '=', user.id).execute()).map((r) => r.user_id));
  const mutedByMe = new Set((await ctx.db.selectFrom('muted_users').select('muted_user_id').where('user_id', '=', user.id).execute()).map((r) => r.muted_user_id));
  const userIds = rows
    .filter((r) => r.id !== message.sender_id && r.is_active && !r.is_bot && !mutedMe.has(r.id) && !mutedByMe.has(r.id))
    .filter((r) => parseSettings(USER_SETTING_DEFAULTS, r.settings).send_read_receipts)
    .map((r) => r.id)
    .sort((a, b) => a - b);
  return { user_ids: userIds };
}
