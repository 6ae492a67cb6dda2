import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest, noSuchObject } from '../domain/errors.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import { streamForUser } from '../lib/streams.js';
import type { Draft } from '../../src/api/model/index.js';

export interface DraftInput {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

/** Validates one draft object as the API defines it; `name` prefixes error messages. */
export function checkDraft(value: unknown, name: string): DraftInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest(`${name} is not a dict`);
  const d = value as Record<string, unknown>;
  if ('id' in d) throw badRequest(`${name} must not contain an id`);
  for (const key of Object.keys(d)) {
    if (!['type', 'to', 'topic', 'content', 'timestamp'].includes(key))
      throw badRequest(`${name} has an unknown key '${key}'`);
  }
  if (d.type !== '' && d.type !== 'stream' && d.type !== 'private')
    throw badRequest(`${name}["type"] is not an allowed value`);
  if (!Array.isArray(d.to) || !d.to.every((x) => typeof x === 'number' && Number.isSafeInteger(x)))
    throw badRequest(`${name}["to"] is not a list of integers`);
  if (typeof d.topic !== 'string') throw badRequest(`${name}["topic"] is not a string`);
  if (typeof d.content !== 'string') throw badRequest(`${name}["content"] is not a string`);
  if (d.topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if (d.content.includes('\u0000')) throw badRequest('Content must not contain null bytes');
  if (
    d.timestamp !== undefined &&
    (typeof d.timestamp !== 'number' || !Number.isFinite(d.timestamp) || d.timestamp < 0)
  )
    throw badRequest(`${name}["timestamp"] is not a number`);
  return {
    type: d.type,
    to: d.to as number[],
    topic: d.topic,
    content: d.content,
    timestamp: d.timestamp === undefined ? undefined : Math.floor(d.timestamp as number),
  };
}

function draftsEnabled(user: User) {
  if (!parseSettings(USER_SETTING_DEFAULTS, user.settings).enable_drafts_synchronization)
    throw badRequest('User has disabled synchronizing drafts.');
}

/** Checks the addressees exist and may be seen, and normalises `to` and `topic` for the type. */
async function normaliseAddress(
  trx: Database,
  realm: Realm,
  user: User,
  d: DraftInput,
): Promise<DraftInput> {
  if (d.type === 'stream') {
    if (d.to.length !== 1)
      throw badRequest('Must specify exactly 1 channel ID for channel messages');
    await streamForUser(trx, realm, user, { id: d.to[0] });
    return d;
  }
  if (d.type === 'private') {
    const ids = [...new Set(d.to)];
    if (ids.length) {
      const found = await trx
        .selectFrom('users')
        .select('id')
        .where('realm_id', '=', realm.id)
        .where('id', 'in', ids)
        .execute();
      if (found.length !== ids.length) throw badRequest('Invalid user ID');
    }
    return { ...d, to: ids, topic: '' };
  }
  return { ...d, to: [], topic: '' };
}

// The column only ever holds the wire's draft types (normaliseAddress checks them).
const draftToApi = (r: {
  id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  timestamp: number;
}): Draft => ({
  id: r.id,
  type: r.type as Draft['type'],
  to: JSON.parse(r.to_ids) as number[],
  topic: r.topic,
  content: r.content,
  timestamp: r.timestamp,
});

/** GET /drafts */
export async function getDrafts(ctx: AppContext, user: User) {
  draftsEnabled(user);
  const rows = await ctx.db
    .selectFrom('drafts')
    .selectAll()
    .where('user_id', '=', user.id)
    .orderBy('id')
    .execute();
  return { count: rows.length, drafts: rows.map(draftToApi) };
}

/** POST /drafts */
export async function createDrafts(
  ctx: AppContext,
  realm: Realm,
  user: User,
  drafts: DraftInput[],
) {
  draftsEnabled(user);
  return transact(ctx, async (trx, events) => {
    const created = [];
    for (const raw of drafts) {
      const d = await normaliseAddress(trx, realm, user, raw);
      const row = await trx
        .insertInto('drafts')
        .values({
          user_id: user.id,
          type: d.type,
          to_ids: JSON.stringify(d.to),
          topic: d.topic,
          content: d.content,
          timestamp: d.timestamp ?? Math.floor(Date.now() / 1000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      created.push(draftToApi(row));
    }
    if (created.length)
      events.push({
        realmId: realm.id,
        userIds: [user.id],
        event: { type: 'drafts', op: 'add', drafts: created },
      });
    return { ids: created.map((d) => d.id) };
  });
}

/** PATCH /drafts/{id} */
export async function editDraft(
  ctx: AppContext,
  realm: Realm,
  user: User,
  id: number,
  draft: DraftInput,
) {
  draftsEnabled(user);
  return transact(ctx, async (trx, events) => {
    const existing = await trx
      .selectFrom('drafts')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!existing) throw noSuchObject('Draft does not exist');
    const d = await normaliseAddress(trx, realm, user, draft);
    const row = await trx
      .updateTable('drafts')
      .set({
        type: d.type,
        to_ids: JSON.stringify(d.to),
        topic: d.topic,
        content: d.content,
        timestamp: d.timestamp ?? Math.floor(Date.now() / 1000),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    events.push({
      realmId: realm.id,
      userIds: [user.id],
      event: { type: 'drafts', op: 'update', draft: draftToApi(row) },
    });
    return {};
  });
}

/** DELETE /drafts/{id} */
export async function deleteDraft(ctx: AppContext, realm: Realm, user: User, id: number) {
  draftsEnabled(user);
  return transact(ctx, async (trx, events) => {
    const res = await trx
      .deleteFrom('drafts')
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!Number(res.numDeletedRows)) throw noSuchObject('Draft does not exist');
    events.push({
      realmId: realm.id,
      userIds: [user.id],
      event: { type: 'drafts', op: 'remove', draft_id: id },
    });
    return {};
  });
}

/** Turning synchronisation off deletes the stored drafts (inside the settings transaction). */
export async function deleteAllDrafts(trx: Database, userId: number) {
  await trx.deleteFrom('drafts').where('user_id', '=', userId).execute();
}
