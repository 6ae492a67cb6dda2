import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { avatarPathOwner } from '../domain/avatar-paths.js';
import { badRequest, notFound, notLoggedIn, realmDeactivated } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import { avatarUrl } from '../domain/serialize.js';
import { activeUserIds } from '../lib/access.js';
import { EMOJI_IMAGE_TYPES, imageFormat } from './realm-emoji.js';
import { realmSettings } from '../lib/realm.js';
import { fileTooLarge, type IncomingFile } from './uploads.js';
import { userUpdated } from './announce-user.js';

/**
 * Uploaded avatars: one image per person at `avatars/<realm_id>/users/` in the file store, named
 * by the user id and the image's real format; without one, the person's initials are drawn.
 * Everyone's avatar is public at an unguessable path (domain/avatar-paths.ts), which changes with
 * `avatar_version` at each change, so caches never show an old image. By id, `/avatar/<id>`
 * answers only people of the organization and, while spectator access is on, spectators.
 */

export const MAX_AVATAR_FILE_MIB = 5;

const IMAGE_EXTENSIONS = Object.keys(EMOJI_IMAGE_TYPES);

const avatarKey = (realmId: number, userId: number, ext: string) =>
  `avatars/${realmId}/users/${userId}.${ext}`;

/** The uploaded image of a user, if they have one: the stored file and its content type. */
export async function uploadedAvatar(ctx: AppContext, realmId: number, userId: number) {
  const found = await ctx.files.find(
    IMAGE_EXTENSIONS.map((ext) => avatarKey(realmId, userId, ext)),
  );
  if (!found) return undefined;
  const ext = found.key.slice(found.key.lastIndexOf('.') + 1);
  return { file: found.file, type: EMOJI_IMAGE_TYPES[ext]! };
}

/** Whose avatar a request shows: the person's name for drawn initials, and their upload. */
export interface AvatarOwner {
  id: number;
  realm_id: number;
  full_name: string;
}

const personInRealm = (ctx: AppContext, realmId: number, id: number) =>
  ctx.db
    .selectFrom('users')
    .select(['id', 'realm_id', 'full_name', 'avatar_version'])
    .where('realm_id', '=', realmId)
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * GET /avatar/{user_id}: for people of the organization, and for spectators while spectator
 * access is on (upstream's `avatar` view). Anyone else gets the same 401 whatever the id, before
 * any lookup, so nothing tells which ids are people. An id that names nobody here gets null
 * (drawn as "?").
 */
export async function avatarOfId(
  ctx: AppContext,
  realm: Realm,
  viewer: User | null,
  idText: string,
): Promise<AvatarOwner | null> {
  if (!viewer && realm.deactivated) throw realmDeactivated();
  if (!viewer && !realmSettings(realm).enable_spectator_access) throw notLoggedIn();
  const id = /^\d{1,10}$/.test(idText) ? Number(idText) : NaN;
  return (Number.isSafeInteger(id) && (await personInRealm(ctx, realm.id, id))) || null;
}

/**
 * GET /user_avatars/{realm_id}/{file}: the avatar a path was made for, while it is the current
 * one. Public, as upstream's avatar files are; a made-up, altered or outdated path is not found.
 */
export async function avatarOfPath(
  ctx: AppContext,
  realmIdText: string,
  file: string,
): Promise<AvatarOwner> {
  const realmId = /^\d{1,9}$/.test(realmIdText) ? Number(realmIdText) : NaN;
  const owner = Number.isSafeInteger(realmId) ? avatarPathOwner(ctx.keys, realmId, file) : null;
  const person = owner && (await personInRealm(ctx, realmId, owner.userId));
  if (!person || person.avatar_version !== owner.version) throw notFound();
  return person;
}

/** Removes the person's uploaded image, in every format but `keep`. */
async function removeUploaded(ctx: AppContext, realmId: number, userId: number, keep?: string) {
  for (const ext of IMAGE_EXTENSIONS)
    if (ext !== keep) await ctx.files.remove(avatarKey(realmId, userId, ext));
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
    const url = avatarUrl(ctx, { id: user.id, realm_id: realm.id, avatar_version: version });
    events.push(
      userUpdated(realm, await activeUserIds(trx, realm.id), {
        user_id: user.id,
        avatar_url: url,
        avatar_source: source,
        avatar_url_medium: url,
        avatar_version: version,
      }),
    );
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
  // The new image replaces one of its format; one of another format goes after it, so that the
  // person is never without an image meanwhile.
  await ctx.files.put(avatarKey(realm.id, user.id, format.ext), file.tmpPath);
  await removeUploaded(ctx, realm.id, user.id, format.ext);
  return avatarChanged(ctx, realm, user, 'U');
}

/** DELETE /users/me/avatar: back to the drawn initials. */
export async function deleteAvatar(ctx: AppContext, realm: Realm, user: User) {
  checkAllowed(realm, user);
  await removeUploaded(ctx, realm.id, user.id);
  return avatarChanged(ctx, realm, user, 'G');
}
