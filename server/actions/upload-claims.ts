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
