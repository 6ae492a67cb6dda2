import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import type { UserStatusEvent } from '../../src/api/model/index.js';
import { badRequest } from '../domain/errors.js';
import { activeUserIds } from '../lib/access.js';
import { userInRealm } from './user-admin.js';
import { checkEmojiRequest, emojiData } from './reactions.js';

/**
 * A person's status (POST /users/me/status): "away", a short text and an emoji. A request
 * changes only the parts it names; an empty text or emoji name clears that part.
 */

export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusChange {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** A status as the register snapshot and events describe it: only the parts that are set. */
export interface WireStatus {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

interface StatusRow {
  user_id: number;
  away: 0 | 1;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

function wireStatus(row: StatusRow): WireStatus {
  const out: WireStatus = {};
  if (row.away) out.away = true;
  if (row.status_text) out.status_text = row.status_text;
  if (row.emoji_name) {
    out.emoji_name = row.emoji_name;
    out.emoji_code = row.emoji_code;
    out.reaction_type = row.reaction_type;
  }
  return out;
}

/** `user_status` of the register snapshot: everyone in the organization who set something. */
export async function statusSnapshot(db: Database, realmId: number) {
  const rows = await db
    .selectFrom('user_statuses')
    .selectAll()
    .where('realm_id', '=', realmId)
    .execute();
  const out: Record<string, WireStatus> = {};
  for (const row of rows) {
    const status = wireStatus(row);
    if (Object.keys(status).length) out[String(row.user_id)] = status;
  }
  return out;
}

async function resolveEmoji(db: Database, realm: Realm, change: StatusChange) {
  if (change.emoji_name === undefined) {
    if (change.emoji_code !== undefined || change.reaction_type !== undefined)
      throw badRequest(
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      );
    return undefined;
  }
  const name = change.emoji_name;
  if (!name) return { name: '', code: '', type: '' };
  const known = change.emoji_code === undefined ? await emojiData(db, realm, name) : undefined;
  const emoji = {
    name,
    code: change.emoji_code ?? known!.code,
    type: change.reaction_type ?? known?.type ?? 'unicode_emoji',
  };
  await checkEmojiRequest(db, realm, emoji);
  return emoji;
}

/** POST /users/me/status */
export async function updateStatus(
  ctx: AppContext,
  realm: Realm,
  user: User,
  change: StatusChange,
) {
  if (
    change.away === undefined &&
    change.status_text === undefined &&
    change.emoji_name === undefined &&
    change.emoji_code === undefined &&
    change.reaction_type === undefined
  )
    throw badRequest('Client did not pass any new values.');
  const text = change.status_text?.trim();
  if (text !== undefined && text.length > MAX_STATUS_TEXT_LENGTH)
    throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  const emoji = await resolveEmoji(ctx.db, realm, change);
  return transact(ctx, async (trx, events) => {
    const current = await trx
      .selectFrom('user_statuses')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const next: StatusRow = {
      user_id: user.id,
      away: change.away === undefined ? (current?.away ?? 0) : change.away ? 1 : 0,
      status_text: text ?? current?.status_text ?? '',
      emoji_name: emoji?.name ?? current?.emoji_name ?? '',
      emoji_code: emoji?.code ?? current?.emoji_code ?? '',
      reaction_type: emoji?.type ?? current?.reaction_type ?? '',
    };
    if (current)
      await trx.updateTable('user_statuses').set(next).where('user_id', '=', user.id).execute();
    else
      await trx
        .insertInto('user_statuses')
        .values({ ...next, realm_id: realm.id })
        .execute();
    // The event names what the request changed, cleared parts as empty strings.
    const event: Omit<UserStatusEvent, 'id'> = { type: 'user_status', user_id: user.id };
    if (change.away !== undefined) event.away = change.away;
    if (text !== undefined) event.status_text = text;
    if (emoji) {
      event.emoji_name = emoji.name;
      event.emoji_code = emoji.code;
      event.reaction_type = emoji.type as UserStatusEvent['reaction_type'];
    }
    events.push({ realmId: realm.id, userIds: await activeUserIds(trx, realm.id), event });
    return {};
  });
}

/** GET /users/{user_id}/status */
export async function getStatus(db: Database, realm: Realm, userId: number) {
  const target = await userInRealm(db, realm, userId);
  const row = await db
    .selectFrom('user_statuses')
    .selectAll()
    .where('user_id', '=', target.id)
    .executeTakeFirst();
  return { status: row ? wireStatus(row) : {} };
}
