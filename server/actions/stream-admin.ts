import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import { isOwner } from '../domain/roles.js';
import { streamToApi } from '../domain/serialize.js';
import { renderStreamDescription } from '../markdown/index.js';
import {
  activeSubscriberIds,
  canAccessStream,
  isSubscribed,
  streamAudience,
} from '../lib/access.js';
import { decodeLoose, MAX_DB_INT, ownerRequired } from '../lib/admin-checks.js';
import {
  mayCreatePrivateStreams,
  mayCreatePublicStreams,
  mayCreateWebPublicStreams,
  webPublicStreamsEnabled,
} from '../lib/policies.js';
import {
  defaultStreamIds,
  firstMessageIds,
  MAX_STREAM_DESCRIPTION_LENGTH,
  streamForUser,
  streamToAdminister,
  validateStreamName,
} from '../lib/streams.js';
import { forgetArchivedStream, setDefaultStream } from './default-streams.js';
import { permissionGroupName } from './realm-admin.js';
import { markdownContext } from './markdown-context.js';

export interface StreamChanges {
  new_name?: string;
  description?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  stream_post_policy?: number;
  /** deprecated: true means stream_post_policy 2 */
  is_announcement_only?: boolean;
  /** raw: a positive number of days, "unlimited" or "realm_default" */
  message_retention_days?: string;
  /** raw: a group id, or {"new": id, "old": id} */
  can_remove_subscribers_group?: string;
}

function parseRetention(raw: string): number | null {
  const v = decodeLoose(raw.trim());
  if (v === 'realm_default') return null;
  if (v === 'unlimited' || v === 'forever') return -1;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= MAX_DB_INT) return v;
  throw badRequest(`Bad value for 'message_retention_days': ${raw}`);
}

function parseGroupChange(raw: string): { next: number; expected?: number } {
  const v = decodeLoose(raw.trim());
  const isId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  if (isId(v)) return { next: v };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (isId(o.new) && (o.old === undefined || isId(o.old)))
      return { next: o.new, expected: o.old as number | undefined };
  }
  throw badRequest('Invalid can_remove_subscribers_group');
}

interface Privacy {
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
}

/** The privacy the request asks for, checked against the rules every stream must follow. */
function proposedPrivacy(stream: Stream, c: StreamChanges, isDefault: boolean): Privacy {
  const invite_only = c.is_private ?? !!stream.invite_only;
  const is_web_public = c.is_web_public ?? !!stream.is_web_public;
  // As upstream, a public stream's history is always public: a request for a public stream without
  // it (the Python bindings' edit-stream example sends one) is not refused but corrected.
  const history_public_to_subscribers = !invite_only
    ? true
    : (c.history_public_to_subscribers ??
      (c.is_private !== undefined ? !c.is_private : !!stream.history_public_to_subscribers));
  if (is_web_public && invite_only) throw badRequest('Invalid parameters');
  if (invite_only && (c.is_default_stream ?? isDefault))
    throw badRequest('A default channel cannot be private.');
  return { invite_only, is_web_public, history_public_to_subscribers };
}

function checkPrivacyPermission(realm: Realm, actor: User, c: StreamChanges) {
  if (c.is_private !== undefined) {
    if (
      !(c.is_private ? mayCreatePrivateStreams(realm, actor) : mayCreatePublicStreams(realm, actor))
    )
      throw badRequest('Insufficient permission');
  }
  if (c.is_web_public) {
    if (!webPublicStreamsEnabled(realm)) throw badRequest('Web-public channels are not enabled.');
    if (!mayCreateWebPublicStreams(realm, actor)) throw badRequest('Insufficient permission');
  }
}

type EventSink = (property: string, value: unknown, extra?: Record<string, unknown>) => void;

/** A validated PATCH /streams request: only what it changes is set. */
interface StreamPlan {
  privacy: Privacy;
  isDefault?: boolean;
  newName?: string;
  description?: string;
  postPolicy?: number;
  retention?: number | null;
  removeSubscribersGroup?: number;
}

/** Checks the whole request before anything is written. */
async function planStreamChanges(
  trx: Database,
  realm: Realm,
  actor: User,
  stream: Stream,
  c: StreamChanges,
): Promise<StreamPlan> {
  const isDefault = (await defaultStreamIds(trx, realm.id)).has(stream.id);
  const privacy = proposedPrivacy(stream, c, isDefault);
  const subscribed = await isSubscribed(trx, actor.id, stream.id);
  // Who may read the channel, and who may remove its subscribers, are changed only by those who
  // can reach it: administrators' access to channels they are not in stops at its other settings.
  if (
    (c.is_private !== undefined || c.can_remove_subscribers_group !== undefined) &&
    !canAccessStream(actor, stream, subscribed)
  )
    throw badRequest('Invalid channel ID');
  checkPrivacyPermission(realm, actor, c);
  if (c.message_retention_days !== undefined && !isOwner(actor)) throw ownerRequired();
  const plan: StreamPlan = { privacy, isDefault: c.is_default_stream };
  if (c.message_retention_days !== undefined)
    plan.retention = parseRetention(c.message_retention_days);
  plan.postPolicy =
    c.stream_post_policy ??
    (c.is_announcement_only === undefined ? undefined : c.is_announcement_only ? 2 : 1);
  if (plan.postPolicy !== undefined && ![1, 2, 3, 4].includes(plan.postPolicy))
    throw badRequest('Invalid stream_post_policy');
  if (c.new_name !== undefined) plan.newName = await checkNewName(trx, realm, stream, c.new_name);
  if (c.description !== undefined) {
    plan.description = c.description.replace(/\n/g, ' ');
    if (plan.description.length > MAX_STREAM_DESCRIPTION_LENGTH)
      throw badRequest(
        `description is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`,
      );
    if (plan.description.includes('\u0000'))
      throw badRequest('description must not contain null bytes');
  }
  if (c.can_remove_subscribers_group !== undefined) {
    const change = parseGroupChange(c.can_remove_subscribers_group);
    await permissionGroupName(trx, realm, 'can_remove_subscribers_group', change.next);
    if (change.expected !== undefined && change.expected !== stream.can_remove_subscribers_group)
      throw badRequest("'old' value does not match the expected value.");
    plan.removeSubscribersGroup = change.next;
  }
  return plan;
}

/** PATCH /streams/{stream_id} */
export async function updateStream(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  streamId: number,
  c: StreamChanges,
) {
  return transact(ctx, async (trx, events) => {
    let stream = await streamToAdminister(trx, realm, actor, streamId);
    const plan = await planStreamChanges(trx, realm, actor, stream, c);
    const { privacy } = plan;
    if (
      privacy.invite_only !== !!stream.invite_only ||
      privacy.is_web_public !== !!stream.is_web_public ||
      privacy.history_public_to_subscribers !== !!stream.history_public_to_subscribers
    )
      stream = await changePrivacy(trx, realm, stream, privacy, events);
    if (plan.isDefault !== undefined)
      await setDefaultStream(trx, realm, stream, plan.isDefault, events);

    const audience = await streamAudience(trx, stream);
    const emit: EventSink = (property, value, extra = {}) =>
      events.push({
        realmId: realm.id,
        userIds: audience,
        event: {
          type: 'stream',
          op: 'update',
          stream_id: stream.id,
          name: stream.name,
          property,
          value,
          ...extra,
        },
      });
    const set = async (changes: Partial<Stream>) => {
      await trx.updateTable('streams').set(changes).where('id', '=', stream.id).execute();
      stream = { ...stream, ...changes };
    };
    if (plan.description !== undefined && plan.description !== stream.description) {
      const description = plan.description;
      const rendered = description
        ? renderStreamDescription(description, await markdownContext(trx, realm, actor))
        : '';
      await set({ description, rendered_description: rendered });
      emit('description', description, { rendered_description: rendered });
    }
    if (plan.postPolicy !== undefined && plan.postPolicy !== stream.stream_post_policy) {
      await set({ stream_post_policy: plan.postPolicy });
      emit('stream_post_policy', plan.postPolicy);
      emit('is_announcement_only', plan.postPolicy === 2);
    }
    if (plan.retention !== undefined && plan.retention !== stream.message_retention_days) {
      await set({ message_retention_days: plan.retention });
      emit('message_retention_days', plan.retention);
    }
    if (
      plan.removeSubscribersGroup !== undefined &&
      plan.removeSubscribersGroup !== stream.can_remove_subscribers_group
    ) {
      await set({ can_remove_subscribers_group: plan.removeSubscribersGroup });
      emit('can_remove_subscribers_group', plan.removeSubscribersGroup);
    }
    if (plan.newName !== undefined) {
      emit('name', plan.newName); // the event names the stream by its old name
      await set({ name: plan.newName });
    }
    return {};
  });
}

async function checkNewName(
  trx: Database,
  realm: Realm,
  stream: Stream,
  raw: string,
): Promise<string> {
  const name = validateStreamName(raw);
  if (name === stream.name) throw badRequest('Channel already has that name.');
  if (name.toLowerCase() !== stream.name.toLowerCase()) {
    const taken = await trx
      .selectFrom('streams')
      .select('id')
      .where('realm_id', '=', realm.id)
      .where('deactivated', '=', 0)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
    if (taken) throw badRequest('Channel name already in use.');
  }
  return name;
}

/**
 * Applies a privacy change: users who can newly see the stream get a `create` event, those who
 * lose it a `delete` event, and the rest one `invite_only` update carrying all three flags.
 */
async function changePrivacy(
  trx: Database,
  realm: Realm,
  stream: Stream,
  privacy: Privacy,
  events: Delivery[],
) {
  const before = new Set(await streamAudience(trx, stream));
  const changes = {
    invite_only: privacy.invite_only ? 1 : 0,
    is_web_public: privacy.is_web_public ? 1 : 0,
    history_public_to_subscribers: privacy.history_public_to_subscribers ? 1 : 0,
  } as const;
  await trx.updateTable('streams').set(changes).where('id', '=', stream.id).execute();
  const updated: Stream = { ...stream, ...changes };
  const after = await streamAudience(trx, updated);
  const gained = after.filter((id) => !before.has(id));
  const kept = after.filter((id) => before.has(id));
  const lost = [...before].filter((id) => !after.includes(id));
  const object = await apiStream(trx, updated);
  if (gained.length)
    events.push({
      realmId: realm.id,
      userIds: gained,
      event: { type: 'stream', op: 'create', streams: [object] },
    });
  if (lost.length)
    events.push({
      realmId: realm.id,
      userIds: lost,
      event: { type: 'stream', op: 'delete', streams: [object], stream_ids: [stream.id] },
    });
  if (kept.length)
    events.push({
      realmId: realm.id,
      userIds: kept,
      event: {
        type: 'stream',
        op: 'update',
        stream_id: stream.id,
        name: stream.name,
        property: 'invite_only',
        value: privacy.invite_only,
        history_public_to_subscribers: privacy.history_public_to_subscribers,
        is_web_public: privacy.is_web_public,
      },
    });
  return updated;
}

async function apiStream(db: Database, stream: Stream) {
  const firsts = await firstMessageIds(db, [stream.id]);
  return streamToApi(stream, { firstMessageId: firsts.get(stream.id) ?? null });
}

/** DELETE /streams/{stream_id}: archives the stream; everyone who could see it hears it is gone. */
export async function archiveStream(ctx: AppContext, realm: Realm, actor: User, streamId: number) {
  return transact(ctx, async (trx, events) => {
    const stream = await streamToAdminister(trx, realm, actor, streamId);
    const audience = await streamAudience(trx, stream);
    await forgetArchivedStream(trx, realm, stream, events);
    const object = await apiStream(trx, stream);
    await trx.updateTable('streams').set({ deactivated: 1 }).where('id', '=', stream.id).execute();
    await trx
      .updateTable('subscriptions')
      .set({ active: 0 })
      .where('stream_id', '=', stream.id)
      .execute();
    events.push({
      realmId: realm.id,
      userIds: audience,
      event: { type: 'stream', op: 'delete', streams: [object], stream_ids: [stream.id] },
    });
    return {};
  });
}

/** GET /streams/{stream_id}/members: administrators may list any channel's subscribers. */
export async function streamMembers(ctx: AppContext, realm: Realm, user: User, streamId: number) {
  const { stream } = await streamForUser(
    ctx.db,
    realm,
    user,
    { id: streamId },
    { allowRealmAdmin: true },
  );
  return { subscribers: await activeSubscriberIds(ctx.db, stream.id) };
}
