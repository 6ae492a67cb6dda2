import type { AppContext } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { isAdmin } from '../domain/roles.js';
import { streamToApi } from '../domain/serialize.js';
import {
  canAccessStream,
  canSeeStream,
  isSubscribed,
  subscribedStreamIds,
  type StreamAccessOptions,
} from './access.js';
import { adminRequired, isDbId } from './admin-checks.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';
import { allRealmStreams } from '../db/realm-streams.js';

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

export async function realmStreams(db: Database, realmId: number): Promise<Stream[]> {
  return (await allRealmStreams(db, realmId)).filter((s) => !s.deactivated);
}

export async function firstMessageIds(
  db: Database,
  streamIds: number[],
): Promise<Map<number, number>> {
  if (streamIds.length === 0) return new Map();
  // One index seek per channel: a GROUP BY over the messages would read every message of the
  // channels (a million in a large one).
  const rows = await db
    .selectFrom('streams as s')
    .select([
      's.id',
      (eb) =>
        eb
          .selectFrom('messages as m')
          .select((e) => e.fn.min('m.id').as('first'))
          .whereRef('m.stream_id', '=', 's.id')
          .as('first_id'),
    ])
    .where('s.id', 'in', streamIds)
    .execute();
  return new Map(rows.filter((r) => r.first_id !== null).map((r) => [r.id, Number(r.first_id)]));
}

export async function defaultStreamIds(db: Database, realmId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('default_streams')
    .select('stream_id')
    .where('realm_id', '=', realmId)
    .execute();
  return new Set(rows.map((r) => r.stream_id));
}

export interface StreamRef {
  id?: number;
  name?: string;
}

/** An active channel of the organization by id or (case-insensitive) name, whoever asks. */
export async function findStream(
  db: Database,
  realm: Realm,
  ref: StreamRef,
): Promise<Stream | undefined> {
  // An id beyond the column's range names nothing (and PostgreSQL would reject the comparison).
  if (ref.id !== undefined && !isDbId(ref.id)) return undefined;
  // No channel name holds NUL, and PostgreSQL refuses to compare text containing it.
  if (ref.id === undefined && (ref.name ?? '').includes('\u0000')) return undefined;
  if (ref.id !== undefined) {
    const id = ref.id;
    return cachedRow(db, `stream:${realm.id}:${id}`, () => streamById.first(db, realm.id, id));
  }
  const lowered = (ref.name ?? '').toLowerCase();
  return cachedRow(db, `stream:${realm.id}:name:${lowered}`, () =>
    streamByName.first(db, realm.id, lowered),
  );
}

const liveStreams = (db: Database, realmId: number) =>
  db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('deactivated', '=', 0);
const streamById = compiledQuery((db, realmId: number, id: number) =>
  liveStreams(db, realmId).where('id', '=', id),
);
const streamByName = compiledQuery((db, realmId: number, lowered: string) =>
  liveStreams(db, realmId).where((eb) => eb(eb.fn('lower', ['name']), '=', lowered)),
);

export interface StreamForUserOptions extends StreamAccessOptions {
  /** the refusal, which also answers an unknown channel; by default upstream's `access_stream_by_*` wording */
  missing?: () => DomainError;
}

/**
 * A channel `user` may reach (`canAccessStream`), with whether they are subscribed; anything else
 * is refused as if it did not exist: "Invalid channel ID" by id, "Invalid channel name" by name.
 */
export async function streamForUser(
  db: Database,
  realm: Realm,
  user: User | null,
  ref: StreamRef,
  opts: StreamForUserOptions = {},
): Promise<{ stream: Stream; subscribed: boolean }> {
  const missing =
    opts.missing ??
    (() =>
      ref.id !== undefined
        ? badRequest('Invalid channel ID')
        : badRequest(`Invalid channel name '${ref.name ?? ''}'`));
  const stream = await findStream(db, realm, ref);
  if (!stream) throw missing();
  const subscribed = user ? await isSubscribed(db, user.id, stream.id) : false;
  if (!canAccessStream(user, stream, subscribed, opts)) throw missing();
  return { stream, subscribed };
}

/**
 * A channel to change or archive (upstream `access_stream_for_delete_or_update`): administrators
 * may change any; others are told they are not administrators, except about a private channel
 * they are not in, which is "Invalid channel ID" as if it did not exist.
 */
export async function streamToAdminister(
  db: Database,
  realm: Realm,
  user: User,
  streamId: number,
): Promise<Stream> {
  const stream = await findStream(db, realm, { id: streamId });
  if (!stream) throw badRequest('Invalid channel ID');
  if (isAdmin(user)) return stream;
  if (stream.invite_only && !(await isSubscribed(db, user.id, stream.id)))
    throw badRequest('Invalid channel ID');
  throw adminRequired();
}

export interface GetStreamsOptions {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  include_all_active: boolean;
  include_default: boolean;
  include_owner_subscribed: boolean;
}

/** GET /streams */
export async function getStreams(
  ctx: AppContext,
  realm: Realm,
  user: User,
  opts: GetStreamsOptions,
) {
  if (opts.include_all_active && !isAdmin(user))
    throw badRequest('User not authorized for this query');
  const streams = await realmStreams(ctx.db, realm.id);
  const subscribed = await subscribedStreamIds(ctx.db, user.id);
  const ownerSubscribed =
    opts.include_owner_subscribed && user.is_bot && user.bot_owner_id
      ? await subscribedStreamIds(ctx.db, user.bot_owner_id)
      : new Set<number>();
  const defaults = await defaultStreamIds(ctx.db, realm.id);
  const selected = streams.filter((s) => {
    const sub = subscribed.has(s.id);
    if (opts.include_all_active) return true;
    if (opts.include_public && !s.invite_only && canSeeStream(user, s, sub)) return true;
    if (opts.include_web_public && s.is_web_public) return true;
    if (opts.include_subscribed && sub) return true;
    if (opts.include_default && defaults.has(s.id) && canSeeStream(user, s, sub)) return true;
    if (ownerSubscribed.has(s.id)) return true;
    return false;
  });
  const firsts = await firstMessageIds(
    ctx.db,
    selected.map((s) => s.id),
  );
  return {
    streams: selected.map((s) =>
      streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null, isDefault: defaults.has(s.id) }),
    ),
  };
}

/** GET /streams/{id}: a channel's settings, which administrators may read for any channel. */
export async function getStreamById(ctx: AppContext, realm: Realm, user: User, streamId: number) {
  const { stream } = await streamForUser(
    ctx.db,
    realm,
    user,
    { id: streamId },
    { allowRealmAdmin: true },
  );
  const firsts = await firstMessageIds(ctx.db, [stream.id]);
  return { stream: streamToApi(stream, { firstMessageId: firsts.get(stream.id) ?? null }) };
}

/** GET /get_stream_id */
export async function getStreamId(ctx: AppContext, realm: Realm, user: User, name: string) {
  const { stream } = await streamForUser(ctx.db, realm, user, { name });
  return { stream_id: stream.id };
}

export function validateStreamName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('Channel name is required.');
  if (trimmed.length > MAX_STREAM_NAME_LENGTH)
    throw badRequest(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(trimmed))
    throw badRequest(
      `Invalid character in channel name, at position ${trimmed.search(/[\u0000-\u001f\u007f-\u009f]/) + 1}.`,
    );
  return trimmed;
}
