import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import { avatarUrl } from '../domain/serialize.js';
import { activeUserIds } from './access.js';
import { EMOJI_IMAGE_TYPES, imageFormat } from './realm-emoji.js';
import { realmSettings } from './realm.js';
import { fileTooLarge, syncFile, type IncomingFile } from './uploads.js';

/**
 * Uploaded avatars: one image per person under <dataDir>/avatars/<realm_id>/users/, named by the
 * user id and the image's real format. Without one, /avatar/<id> draws initials. Each change bumps
 * `avatar_version`, which is part of the avatar URL, so caches never show an old image.
 */

export const MAX_AVATAR_FILE_MIB = 5;

const avatarsDir = (ctx: AppContext, realmId: number) =>
  path.join(ctx.config.dataDir, 'avatars', String(realmId), 'users');

/** The uploaded image of a user, if they have one: its path and content type. */
export async function uploadedAvatar(ctx: AppContext, realmId: number, userId: number) {
  for (const [ext, type] of Object.entries(EMOJI_IMAGE_TYPES)) {
    const file = path.join(avatarsDir(ctx, realmId), `${userId}.${ext}`);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile()) return { file, type, size: stat.size };
  }
  return undefined;
}

async function removeUploaded(ctx: AppContext, realmId: number, userId: number) {
  for (const ext of Object.keys(EMOJI_IMAGE_TYPES))
    await fs.promises.rm(path.join(avatarsDir(ctx, realmId), `${userId}.${ext}`), { force: true });
}

function checkAllowed(realm: Realm, user: User) {
  if (realmSettings(realm).avatar_changes_disabled && !isAdmin(user))
    throw badRequest('Avatar changes are disabled in this organization.');
}

/** Bumps the version and tells everyone the new URL. */
async function avatarChanged(ctx: AppContext, realm: Realm, user: User, source: 'U' | 'G') {
  return transact(ctx, async (trx, events) => {
    const fresh = await trx
      .selectFrom('users')
      .select(['id', 'avatar_version'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const version = fresh.avatar_version + 1;
    await trx
      .updateTable('users')
      .set({ avatar_version: version })
      .where('id', '=', user.id)
      .execute();
    const url = avatarUrl(ctx, { id: user.id, avatar_version: version });
    events.push({
      realmId: realm.id,
      userIds: await activeUserIds(trx, realm.id),
      event: {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: user.id,
          avatar_url: url,
          avatar_source: source,
          avatar_url_medium: url,
          avatar_version: version,
        },
      },
    });
    return { avatar_url: url };
  });
}

/** POST /users/me/avatar (multipart, one image) */
export async function uploadAvatar(
  ctx: AppContext,
  realm: Realm,
  user: User,
  files: IncomingFile[],
) {
  checkAllowed(realm, user);
  if (files.length !== 1) throw badRequest('You must upload exactly one avatar.');
  const file = files[0]!;
  if (file.tooLarge || file.size > MAX_AVATAR_FILE_MIB * 1024 * 1024)
    throw fileTooLarge(MAX_AVATAR_FILE_MIB);
  const format = await imageFormat(file.tmpPath);
  if (!format) throw badRequest('Invalid image format');
  const dir = avatarsDir(ctx, realm.id);
  await fs.promises.mkdir(dir, { recursive: true });
  await syncFile(file.tmpPath);
  await removeUploaded(ctx, realm.id, user.id);
  await fs.promises.rename(file.tmpPath, path.join(dir, `${user.id}.${format.ext}`));
  return avatarChanged(ctx, realm, user, 'U');
}

/** DELETE /users/me/avatar: back to the drawn initials. */
export async function deleteAvatar(ctx: AppContext, realm: Realm, user: User) {
  checkAllowed(realm, user);
  await removeUploaded(ctx, realm.id, user.id);
  return avatarChanged(ctx, realm, user, 'G');
}
