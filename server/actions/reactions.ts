import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { emojiCodeForName, emojiNameForCode } from '../markdown/index.js';
import { activeEmojiNamed, emojiById } from './realm-emoji.js';
import { accessibleMessage } from '../lib/message-access.js';
import { realmSettings } from '../lib/realm.js';
import type { Reaction } from '../../src/api/model/index.js';

export interface ReactionRequest {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

interface ResolvedEmoji {
  name: string;
  code: string;
  type: string;
}

/** The emoji a name means in this organization: an active custom emoji first, as upstream. */
export async function emojiData(
  db: Database,
  realm: Realm,
  name: string,
): Promise<{ code: string; type: string }> {
  const custom = await activeEmojiNamed(db, realm.id, name);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  const code = emojiCodeForName(name);
  if (code) return { code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Whether (name, code, type) names an emoji that may be used for a new reaction. */
export async function checkEmojiRequest(db: Database, realm: Realm, emoji: ResolvedEmoji) {
  if (emoji.type === 'realm_emoji') {
    const custom = await emojiById(db, realm.id, emoji.code);
    if (!custom) throw badRequest('Invalid custom emoji.');
    if (custom.name !== emoji.name) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (emoji.type === 'unicode_emoji') {
    if (!emojiNameForCode(emoji.code) || emoji.code.includes('fe0f'))
      throw badRequest('Invalid emoji code.');
    // A name of the reference's table must be one of this code's names, as upstream. A name it
    // does not have, with a valid code, comes from a client that names emoji the old way
    // (zulip-js's own example reacts with `musical_note` for 1f3b5, `music` here): the reaction
    // is kept under the code's name, so every client sees the names it knows.
    const known = emojiCodeForName(emoji.name);
    if (known === emoji.code) return;
    if (known !== undefined || !/^[a-z0-9_+-]{1,60}$/.test(emoji.name))
      throw badRequest('Invalid emoji name.');
    emoji.name = emojiNameForCode(emoji.code)!;
  } else {
    throw badRequest('Invalid emoji type.');
  }
}

/**
 * Adding: the name alone finds the code and type. Someone else's reaction with the same code and
 * type is a vote for it and takes its name (even a since deactivated emoji's); a new reaction
 * must name a usable emoji. Removing: the code, or the name's current code, with the type given
 * (unicode_emoji when none is).
 */
async function changeReaction(
  ctx: AppContext,
  realm: Realm,
  user: User,
  messageId: number,
  req: ReactionRequest,
  op: 'add' | 'remove',
) {
  const message = await accessibleMessage(ctx.db, realm, user, messageId);
  if (!message) throw badRequest('Invalid message(s)');
  const emoji = await requestedEmoji(ctx, realm, req, op);
  return transact(ctx, async (trx, events) => {
    const same = (q: any) =>
      q
        .where('message_id', '=', messageId)
        .where('emoji_code', '=', emoji.code)
        .where('reaction_type', '=', emoji.type);
    const existing = await same(trx.selectFrom('reactions').select(['user_id', 'emoji_name']))
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (op === 'add') {
      if (existing) throw badRequest('Reaction already exists.');
      const vote = await same(trx.selectFrom('reactions').select('emoji_name')).executeTakeFirst();
      if (vote) emoji.name = vote.emoji_name;
      else await checkEmojiRequest(trx, realm, emoji);
      await trx
        .insertInto('reactions')
        .values({
          message_id: messageId,
          user_id: user.id,
          emoji_name: emoji.name,
          emoji_code: emoji.code,
          reaction_type: emoji.type,
        })
        .execute();
      // Reacting to a message from a stream's history adds it to the user's messages.
      await trx
        .insertInto('user_messages')
        .values({ user_id: user.id, message_id: messageId, flags: message.flags })
        .onConflict((oc) => oc.doNothing())
        .execute();
    } else {
      if (!existing) throw badRequest("Reaction doesn't exist.");
      emoji.name = existing.emoji_name;
      await same(trx.deleteFrom('reactions')).where('user_id', '=', user.id).execute();
    }
    const audience = (
      await trx
        .selectFrom('user_messages')
        .select('user_id')
        .where('message_id', '=', messageId)
        .execute()
    ).map((r) => r.user_id);
    events.push({
      realmId: realm.id,
      userIds: audience,
      event: {
        type: 'reaction',
        op,
        message_id: messageId,
        user_id: user.id,
        user: { user_id: user.id, email: user.email, full_name: user.full_name },
        emoji_name: emoji.name,
        emoji_code: emoji.code,
        reaction_type: emoji.type as Reaction['reaction_type'],
      },
    });
    return {};
  });
}

/** The emoji a request names, its code and type found from its name where they are not given. */
async function requestedEmoji(
  ctx: AppContext,
  realm: Realm,
  req: ReactionRequest,
  op: 'add' | 'remove',
): Promise<ResolvedEmoji> {
  let code = req.emojiCode;
  let type = req.reactionType;
  if (op === 'add') {
    if (code === undefined || type === undefined) {
      const data = await emojiData(ctx.db, realm, req.emojiName ?? '');
      code ??= data.code;
      type ??= data.type;
    }
  } else {
    if (code === undefined) {
      if (req.emojiName === undefined)
        throw badRequest(
          'At least one of the following arguments must be present: emoji_name, emoji_code',
        );
      code = (await emojiData(ctx.db, realm, req.emojiName)).code;
    }
    type ??= 'unicode_emoji';
  }
  return { name: req.emojiName ?? '', code, type };
}

export const addReaction = (
  ctx: AppContext,
  realm: Realm,
  user: User,
  id: number,
  req: ReactionRequest,
) => changeReaction(ctx, realm, user, id, req, 'add');
export const removeReaction = (
  ctx: AppContext,
  realm: Realm,
  user: User,
  id: number,
  req: ReactionRequest,
) => changeReaction(ctx, realm, user, id, req, 'remove');

/** GET /messages/{id}/read_receipts */
export async function readReceipts(ctx: AppContext, realm: Realm, user: User, messageId: number) {
  if (!realmSettings(realm).enable_read_receipts)
    throw badRequest('Read receipts are disabled in this organization.');
  const message = await accessibleMessage(ctx.db, realm, user, messageId);
  if (!message) throw badRequest('Invalid message(s)');
  const rows = await ctx.db
    .selectFrom('user_messages')
    .innerJoin('users', 'users.id', 'user_messages.user_id')
    .select(['users.id', 'users.settings', 'users.is_active', 'users.is_bot'])
    .where('user_messages.message_id', '=', messageId)
    .where((eb) => eb(eb('user_messages.flags', '&', 1), '!=', 0))
    .execute();
  const mutedMe = new Set(
    (
      await ctx.db
        .selectFrom('muted_users')
        .select('user_id')
        .where('muted_user_id', '=', user.id)
        .execute()
    ).map((r) => r.user_id),
  );
  const mutedByMe = new Set(
    (
      await ctx.db
        .selectFrom('muted_users')
        .select('muted_user_id')
        .where('user_id', '=', user.id)
        .execute()
    ).map((r) => r.muted_user_id),
  );
  const userIds = rows
    .filter(
      (r) =>
        r.id !== message.sender_id &&
        r.is_active &&
        !r.is_bot &&
        !mutedMe.has(r.id) &&
        !mutedByMe.has(r.id),
    )
    .filter((r) => parseSettings(USER_SETTING_DEFAULTS, r.settings).send_read_receipts)
    .map((r) => r.id)
    .sort((a, b) => a - b);
  return { user_ids: userIds };
}
