import fs from 'node:fs';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, RealmEmoji, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest, noSuchObject } from '../domain/errors.js';
import { isAdmin, isGuest } from '../domain/roles.js';
import { emojiCodeForName } from '../markdown/index.js';
import { activeUserIds } from '../lib/access.js';
import { passesPolicy } from '../lib/admin-checks.js';
import { realmSettings } from '../lib/realm.js';
import { fileTooLarge, type IncomingFile } from './uploads.js';

/**
 * Custom ("realm") emoji: an image and a name. Deactivating keeps the row and the image, since old
 * messages and reactions still show them; the name becomes free for a new emoji.
 */

export const MAX_EMOJI_FILE_MIB = 5;

/** The image formats accepted, recognised by their first bytes (the claimed type is not trusted). */
const IMAGE_SIGNATURES: { ext: string; type: string; test: (b: Buffer) => boolean }[] = [
  {
    ext: 'png',
    type: 'image/png',
    test: (b) =>
      b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    ext: 'gif',
    type: 'image/gif',
    test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
  },
  { ext: 'jpg', type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: 'webp',
    type: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  {
    ext: 'avif',
    type: 'image/avif',
    test: (b) => /^ftypavi[fs]$/.test(b.subarray(4, 12).toString('latin1')),
  },
];
export const EMOJI_IMAGE_TYPES: Record<string, string> = Object.fromEntries(
  IMAGE_SIGNATURES.map((s) => [s.ext, s.type]),
);

/** Where the file store keeps an emoji's image, named `<id>.<ext>` (served as `sourceUrl` says). */
const emojiImageKey = (realmId: number, fileName: string) =>
  `avatars/${realmId}/emoji/images/${fileName}`;

/** The stored image at /user_avatars/<realm_id>/emoji/images/<fileName>, if there is one. */
export const emojiImage = (ctx: AppContext, realmId: number, fileName: string) =>
  ctx.files.get(emojiImageKey(realmId, fileName));

const sourceUrl = (e: RealmEmoji) => `/user_avatars/${e.realm_id}/emoji/images/${e.file_name}`;

function emojiObject(e: RealmEmoji) {
  return {
    id: String(e.id),
    name: e.name,
    source_url: sourceUrl(e),
    deactivated: !!e.deactivated,
    author_id: e.author_id,
    // Only animated images get a still version upstream; this server keeps images as uploaded.
    still_url: null,
  };
}

/** Every custom emoji of the organization, deactivated ones included, keyed by id. */
export async function realmEmojiDict(db: Database, realmId: number) {
  const rows = await db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('file_name', '!=', '')
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((e) => [String(e.id), emojiObject(e)]));
}

/** The active custom emoji, for the renderer. */
export async function activeRealmEmoji(db: Database, realmId: number) {
  const rows = await db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('deactivated', '=', 0)
    .where('file_name', '!=', '')
    .execute();
  return rows.map((e) => ({ id: String(e.id), name: e.name, source_url: sourceUrl(e) }));
}

/** The active custom emoji named `name`, if any. */
export async function activeEmojiNamed(db: Database, realmId: number, name: string) {
  return db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

/** The custom emoji with this id (as reactions name it), active or not. */
export async function emojiById(db: Database, realmId: number, code: string) {
  if (!/^\d{1,9}$/.test(code)) return undefined;
  return db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('id', '=', Number(code))
    .executeTakeFirst();
}

async function notifyRealmEmoji(trx: Database, realm: Realm, events: Delivery[]) {
  events.push({
    realmId: realm.id,
    userIds: await activeUserIds(trx, realm.id),
    event: { type: 'realm_emoji', op: 'update', realm_emoji: await realmEmojiDict(trx, realm.id) },
  });
}

/** Zulip's rule: lowercase letters, digits, '-' and '_', ending with a letter or digit. */
export function checkEmojiName(name: string) {
  if (!name) throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[a-z0-9]$/.test(name)) return;
    throw badRequest('Emoji names must end with either a letter or digit.');
  }
  throw badRequest(
    'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
  );
}

export async function imageFormat(file: string) {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    return IMAGE_SIGNATURES.find((s) => s.test(head.subarray(0, bytesRead)));
  } finally {
    await handle.close();
  }
}

/** GET /realm/emoji */
export async function getRealmEmoji(ctx: AppContext, realm: Realm) {
  return { emoji: await realmEmojiDict(ctx.db, realm.id) };
}

/** POST /realm/emoji/{emoji_name}, with the checks in the real server's order. */
export async function addRealmEmoji(
  ctx: AppContext,
  realm: Realm,
  user: User,
  rawName: string,
  files: IncomingFile[],
) {
  if (isGuest(user)) throw badRequest('Not allowed for guest users');
  const name = rawName.trim().replace(/ /g, '_');
  checkEmojiName(name);
  if (!passesPolicy(realm, user, realmSettings(realm).add_custom_emoji_policy))
    throw badRequest('Insufficient permission');
  const taken = () => badRequest('A custom emoji with this name already exists.');
  if (await activeEmojiNamed(ctx.db, realm.id, name)) throw taken();
  if (files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (emojiCodeForName(name) && !isAdmin(user))
    throw badRequest('Only administrators can override built-in emoji.');
  const file = files[0]!;
  if (file.tooLarge || file.size > MAX_EMOJI_FILE_MIB * 1024 * 1024)
    throw fileTooLarge(MAX_EMOJI_FILE_MIB);
  const format = await imageFormat(file.tmpPath);
  if (!format) throw badRequest('Invalid image format');
  // Made durable before the write lock is taken, so that the lock is not held while the disk works.
  await ctx.files.prepare(file.tmpPath);
  return transact(ctx, async (trx, events) => {
    if (await activeEmojiNamed(trx, realm.id, name)) throw taken();
    const { id } = await trx
      .insertInto('realm_emoji')
      .values({ realm_id: realm.id, name, author_id: user.id, file_name: '', deactivated: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fileName = `${id}.${format.ext}`;
    // In the database store, the image commits with the emoji's row.
    await ctx.files.put(emojiImageKey(realm.id, fileName), file.tmpPath, trx);
    await trx
      .updateTable('realm_emoji')
      .set({ file_name: fileName })
      .where('id', '=', id)
      .execute();
    await notifyRealmEmoji(trx, realm, events);
    return {};
  });
}

/** DELETE /realm/emoji/{emoji_name}: its author or an administrator deactivates it. */
export async function deactivateRealmEmoji(
  ctx: AppContext,
  realm: Realm,
  user: User,
  name: string,
) {
  return transact(ctx, async (trx, events) => {
    const emoji = await activeEmojiNamed(trx, realm.id, name);
    if (!emoji) throw noSuchObject(`Emoji '${name}' does not exist`);
    if (!isAdmin(user) && emoji.author_id !== user.id)
      throw badRequest('Must be an organization administrator or emoji author');
    await trx
      .updateTable('realm_emoji')
      .set({ deactivated: 1 })
      .where('id', '=', emoji.id)
      .execute();
    await notifyRealmEmoji(trx, realm, events);
    return {};
  });
}
