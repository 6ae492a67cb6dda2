import type { AppContext } from '../context.js';
import type { Attachment, Realm, User } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import { accessibleMessage } from './message-access.js';
import { realmSettings } from './realm.js';
import { fileNotFound, temporaryUrlFor, uploadKey } from './upload-files.js';

/**
 * Who may read an upload, as the reference server decides it: its owner, and whoever may read a
 * message that claims it. A message claims the uploads it links only if its sender could read
 * them already, so knowing (or guessing, or overhearing) a file's URL gives no access: a link to
 * a file the sender may not read is still sent, but stays dead for everyone who lacks access.
 * Downloads and temporary URLs ask the same rule, through one indexed table of claims.
 */

const HTML_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/**
 * The upload path ids (`<realm>/<2 hex>/<random>/<name>`) that links in rendered message HTML
 * point at. Links only: a path written in code or plain text claims nothing. Absolute links count
 * too (people paste the address their browser shows); which server they name does not matter,
 * since a path id is random and the sender must be able to read the file anyway.
 */
export function linkedUploadPaths(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/href="(?:https?:\/\/[^/"]*)?\/user_uploads\/([^"?#]+)/g)) {
    const href = m[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => HTML_ENTITIES[e]!);
    try {
      found.add(decodeURIComponent(href));
    } catch {
      // A malformed escape names no upload.
    }
  }
  return [...found];
}

/** Whether `user` (null: a spectator) may read the upload: its owner, or a reader of a claiming message. */
export async function mayReadUpload(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  attachment: Attachment,
): Promise<boolean> {
  if (attachment.realm_id !== realm.id) return false;
  if (user && attachment.owner_id === user.id) return true;
  if (user) {
    // EXISTS, not a join: planners without statistics would walk all of the user's messages.
    const received = await ctx.db
      .selectFrom('attachment_claims as c')
      .select('c.message_id')
      .where('c.attachment_id', '=', attachment.id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('user_messages as um')
            .select('um.message_id')
            .where('um.user_id', '=', user.id)
            .whereRef('um.message_id', '=', 'c.message_id'),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    if (received && (await accessibleMessage(ctx.db, realm, user, received.message_id)))
      return true;
  }
  // The claiming messages the user did not receive: whether one of those may be read depends on
  // its channel alone, so one message per channel answers for all of that channel's (and
  // direct messages, never readable without being received, need no asking).
  const perChannel = await ctx.db
    .selectFrom('attachment_claims as c')
    .innerJoin('messages as m', 'm.id', 'c.message_id')
    .select((eb) => eb.fn.min('c.message_id').as('message_id'))
    .where('c.attachment_id', '=', attachment.id)
    .where('m.stream_id', 'is not', null)
    .groupBy('m.stream_id')
    .execute();
  for (const { message_id } of perChannel)
    if (await accessibleMessage(ctx.db, realm, user, Number(message_id))) return true;
  return false;
}

const notAuthorized = () =>
  new DomainError('You are not authorized to view this file.', 'BAD_REQUEST', 403);

/** The upload at `/user_uploads/<realmIdText>/<rest>`, if `user` may read it; else the error to answer. */
export async function readableUpload(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  realmIdText: string,
  rest: string,
) {
  if (!/^\d{1,9}$/.test(realmIdText) || Number(realmIdText) !== realm.id) throw fileNotFound();
  if (user === null && !realmSettings(realm).enable_spectator_access)
    throw new DomainError(
      'Not logged in: API authentication or user session required',
      'UNAUTHORIZED',
      401,
    );
  const pathId = `${realmIdText}/${rest}`;
  if (pathId.includes('\u0000') || !uploadKey(pathId)) throw fileNotFound();
  const attachment = await ctx.db
    .selectFrom('attachments')
    .selectAll()
    .where('path_id', '=', pathId)
    .where('realm_id', '=', realm.id)
    .executeTakeFirst();
  if (!attachment) throw fileNotFound();
  if (!(await mayReadUpload(ctx, realm, user, attachment))) throw notAuthorized();
  return attachment;
}

/** GET /user_uploads/{realm_id}/{filename} under /api/v1: a URL that works for a minute without credentials. */
export async function temporaryUploadUrl(
  ctx: AppContext,
  realm: Realm,
  user: User,
  realmIdText: string,
  rest: string,
) {
  return temporaryUrlFor(ctx, await readableUpload(ctx, realm, user, realmIdText, rest));
}
