import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, User } from '../db/schema.js';
import { linkedUploadPaths, mayReadUpload } from '../lib/upload-access.js';

/**
 * The claims of messages on the uploads they link (lib/upload-access.ts says who may read an
 * upload through them), written with the messages they belong to.
 */

/**
 * Claims the uploads a new message links, those its sender may read. Called inside the sending
 * transaction (`trx`), so that the message and its claims commit together.
 */
export async function claimLinkedUploads(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  sender: User,
  message: { id: number; rendered_content: string },
) {
  const paths = linkedUploadPaths(message.rendered_content);
  if (paths.length)
    await updateClaims({ ...ctx, db: trx }, realm, sender, message.id, paths, new Set());
}

/**
 * After an edit of a message's content: links that are gone release their claims, new links are
 * claimed if the sender (the only one who may edit content) may read them. Links kept keep their
 * claims, and a link that claimed nothing before is tried again.
 */
export async function reclaimLinkedUploads(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  sender: User,
  messageId: number,
  renderedContent: string,
) {
  const held = await trx
    .selectFrom('attachment_claims')
    .select('attachment_id')
    .where('message_id', '=', messageId)
    .execute();
  await updateClaims(
    { ...ctx, db: trx },
    realm,
    sender,
    messageId,
    linkedUploadPaths(renderedContent),
    new Set(held.map((h) => h.attachment_id)),
  );
}

/** Deleted messages claim nothing any more. */
export async function releaseClaims(trx: Database, messageIds: number[]) {
  for (let i = 0; i < messageIds.length; i += 500)
    await trx
      .deleteFrom('attachment_claims')
      .where('message_id', 'in', messageIds.slice(i, i + 500))
      .execute();
}

async function updateClaims(
  ctx: AppContext,
  realm: Realm,
  sender: User,
  messageId: number,
  paths: string[],
  held: Set<number>,
) {
  const linked = paths.length
    ? await ctx.db
        .selectFrom('attachments')
        .selectAll()
        .where('realm_id', '=', realm.id)
        .where('path_id', 'in', paths)
        .execute()
    : [];
  const linkedIds = new Set(linked.map((a) => a.id));
  const released = [...held].filter((id) => !linkedIds.has(id));
  if (released.length)
    await ctx.db
      .deleteFrom('attachment_claims')
      .where('message_id', '=', messageId)
      .where('attachment_id', 'in', released)
      .execute();
  for (const attachment of linked) {
    if (held.has(attachment.id)) continue;
    if (!(await mayReadUpload(ctx, realm, sender, attachment))) {
      // As upstream: the message goes out, but the link stays dead for whoever may not read the file.
      ctx.log.warn?.(
        `User ${sender.id} linked upload ${attachment.id} in message ${messageId} without access to it`,
      );
      continue;
    }
    await ctx.db
      .insertInto('attachment_claims')
      .values({ attachment_id: attachment.id, message_id: messageId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * GET /attachments: the files the person uploaded, newest first, each with the messages that link
 * it (upstream Attachment.to_dict: times in milliseconds), and the bytes the whole organization
 * has uploaded.
 */
export async function listOwnAttachments(db: Database, realmId: number, userId: number) {
  const files = await db
    .selectFrom('attachments')
    .select(['id', 'file_name', 'path_id', 'size', 'create_time'])
    .where('owner_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const claims = files.length
    ? await db
        .selectFrom('attachment_claims')
        .innerJoin('messages', 'messages.id', 'attachment_claims.message_id')
        .select(['attachment_claims.attachment_id', 'messages.id', 'messages.date_sent'])
        .where(
          'attachment_claims.attachment_id',
          'in',
          files.map((f) => f.id),
        )
        .orderBy('messages.id')
        .execute()
    : [];
  const used = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.sum<number>('size').as('bytes'))
    .where('realm_id', '=', realmId)
    .executeTakeFirst();
  return {
    attachments: files.map((f) => ({
      id: f.id,
      name: f.file_name,
      path_id: f.path_id,
      size: f.size,
      create_time: f.create_time * 1000,
      messages: claims
        .filter((c) => c.attachment_id === f.id)
        .map((c) => ({ id: c.id, date_sent: c.date_sent * 1000 })),
    })),
    upload_space_used: Number(used?.bytes ?? 0),
  };
}
