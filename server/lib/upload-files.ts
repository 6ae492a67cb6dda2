import crypto from 'node:crypto';
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { Attachment } from '../db/schema.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { isStoreKey } from '../domain/file-store.js';

/** How an upload is named in the file store, found, and reached without credentials. */

/** How long a URL from GET /user_uploads/{realm_id}/{filename} works without credentials. */
export const TEMPORARY_URL_SECONDS = 60;

/**
 * Where files being received wait, whichever the file store: beside the uploads, so that the disk
 * store's rename moves them into place.
 */
export const incomingDir = (ctx: AppContext) =>
  path.join(ctx.config.dataDir, 'uploads', '.incoming');

/** The file store's key of an upload, or null for a path id that could name no file there. */
export function uploadKey(pathId: string): string | null {
  const key = `uploads/${pathId}`;
  return isStoreKey(key) ? key : null;
}

export const fileNotFound = () => new DomainError('File not found', 'BAD_REQUEST', 404);

/** Temporary URLs are signed with a secret of their own, the same in every process. */
const signature = (ctx: AppContext, payload: string) =>
  crypto.createHmac('sha256', ctx.keys.key('upload-url.key')).update(payload).digest('base64url');

/** A URL for the upload that works for a minute without credentials (for someone who may read it). */
export function temporaryUrlFor(ctx: AppContext, attachment: Attachment) {
  const payload = `${attachment.id}.${Math.floor(Date.now() / 1000) + TEMPORARY_URL_SECONDS}`;
  const name = attachment.path_id.split('/').pop()!;
  return {
    url: `/user_uploads/temporary/${payload}.${signature(ctx, payload)}/${encodeURIComponent(name)}`,
  };
}

/** The upload a temporary URL names, if its signature holds and it has not expired. */
export async function uploadForToken(ctx: AppContext, token: string, filename: string) {
  const m = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  const valid =
    m && crypto.timingSafeEqual(Buffer.from(signature(ctx, `${m[1]}.${m[2]}`)), Buffer.from(m[3]!));
  if (!m || !valid || Number(m[2]) < Date.now() / 1000) throw badRequest('Invalid token');
  const attachment = await ctx.db
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', Number(m[1]))
    .executeTakeFirst();
  if (!attachment) throw fileNotFound();
  if (attachment.path_id.split('/').pop() !== filename) throw badRequest('Invalid filename');
  return attachment;
}
