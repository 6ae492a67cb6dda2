import type { Database } from '../db/index.js';
import type { Realm, Stream } from '../db/schema.js';
import { badRequest } from '../domain/errors.js';
import { renderStreamDescription } from '../markdown/index.js';
import { systemGroupId } from '../lib/realm.js';
import { MAX_STREAM_DESCRIPTION_LENGTH, validateStreamName } from '../lib/streams.js';

export interface NewStreamOptions {
  name: string;
  description?: string;
  invite_only?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  stream_post_policy?: number;
  message_retention_days?: number | null;
  can_remove_subscribers_group?: number;
  creatorId: number | null;
}

export async function insertStream(
  db: Database,
  realm: Realm,
  opts: NewStreamOptions,
): Promise<Stream> {
  const name = validateStreamName(opts.name);
  const description = (opts.description ?? '').replace(/\n/g, ' ');
  if (description.length > MAX_STREAM_DESCRIPTION_LENGTH)
    throw badRequest('Channel description too long');
  const groupId =
    opts.can_remove_subscribers_group ?? (await systemGroupId(db, realm.id, 'role:administrators'));
  const inviteOnly = !!opts.invite_only && !opts.is_web_public;
  return db
    .insertInto('streams')
    .values({
      realm_id: realm.id,
      name,
      description,
      rendered_description: description
        ? renderStreamDescription(description, { users: [], streams: [] })
        : '',
      invite_only: inviteOnly ? 1 : 0,
      is_web_public: opts.is_web_public ? 1 : 0,
      history_public_to_subscribers: inviteOnly
        ? opts.history_public_to_subscribers === false
          ? 0
          : 1
        : 1,
      stream_post_policy: opts.stream_post_policy ?? 1,
      message_retention_days: opts.message_retention_days ?? null,
      date_created: Math.floor(Date.now() / 1000),
      can_remove_subscribers_group: groupId,
      creator_id: opts.creatorId,
      deactivated: 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
