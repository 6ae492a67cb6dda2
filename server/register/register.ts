import { type AppContext, writesPublished } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { DomainError, badRequest } from '../domain/errors.js';
import { realmSettings, realmDescriptionHtml, realmIconUrl } from '../lib/realm.js';
import { firstMessageIds, realmStreams } from '../lib/streams.js';
import { streamToApi } from '../domain/serialize.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from '../domain/message-text.js';
import { checkKnownOperators, narrowLookup, parseNarrow, queueNarrow } from '../lib/narrow.js';
import type { QueueNarrow } from '../domain/message-facts.js';
import { mayAccessPublicStreams } from '../lib/access.js';
import { FEATURE_LEVEL, SERVICE_VERSION, initialState } from './initial-state.js';
import type { ClientCapabilities } from '../events/queue.js';
import type { QueueRefusal } from '../events/event-queues.js';
import type { ClientGone } from '../events/types.js';

export interface RegisterParams {
  apply_markdown: boolean;
  client_gravatar?: boolean;
  include_subscribers: boolean;
  slim_presence: boolean;
  event_types?: string[];
  fetch_event_types?: string[];
  all_public_streams: boolean;
  narrow: unknown;
  client_capabilities: Record<string, unknown>;
}

export function versionFields() {
  return {
    zulip_version: SERVICE_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_merge_base: SERVICE_VERSION,
    service_version: SERVICE_VERSION,
    service_feature_level: FEATURE_LEVEL,
    service_merge_base: SERVICE_VERSION,
  };
}

function capabilities(raw: Record<string, unknown>): ClientCapabilities {
  const flag = (k: string) => raw[k] === true;
  return {
    notification_settings_null: flag('notification_settings_null'),
    bulk_message_deletion: flag('bulk_message_deletion'),
    user_avatar_url_field_optional: flag('user_avatar_url_field_optional'),
    stream_typing_notifications: flag('stream_typing_notifications'),
    user_settings_object: flag('user_settings_object'),
    linkifier_url_template: flag('linkifier_url_template'),
    empty_topic_name: flag('empty_topic_name'),
  };
}

/** The queue's narrow, validated and resolved against the realm before the queue exists. */
async function registerNarrow(
  ctx: AppContext,
  realm: Realm,
  user: User,
  raw: unknown,
): Promise<QueueNarrow> {
  const terms = parseNarrow(raw);
  return terms.length ? queueNarrow(terms, await narrowLookup(ctx.db, realm, user, terms)) : [];
}

/**
 * A queue's narrow compiled again from what the client gave, by a process other than the one it
 * registered with (queues shared through Redis). A queue of someone gone since passes nothing.
 */
export async function compileQueueNarrow(
  ctx: AppContext,
  realmId: number,
  userId: number,
  raw: unknown,
): Promise<QueueNarrow> {
  const realm = await ctx.db
    .selectFrom('realms')
    .selectAll()
    .where('id', '=', realmId)
    .executeTakeFirst();
  const user = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('realm_id', '=', realmId)
    .executeTakeFirst();
  if (!realm || !user) return [() => false];
  return registerNarrow(ctx, realm, user, raw);
}

/** POST /register */
export async function registerQueue(
  ctx: AppContext,
  realm: Realm,
  user: User | null,
  params: RegisterParams,
) {
  if (user === null) return spectatorRegister(ctx, realm, params);
  // Every public channel's messages are for those who may read public channels (upstream
  // `can_access_public_streams`): not guests.
  if (params.all_public_streams && !mayAccessPublicStreams(user))
    throw badRequest('User not authorized for this query');
  const caps = capabilities(params.client_capabilities);
  const narrow = await registerNarrow(ctx, realm, user, params.narrow);
  const eventTypes = params.event_types ? new Set(params.event_types) : null;
  const fetchTypes = params.fetch_event_types ? new Set(params.fetch_event_types) : eventTypes;
  const clientGravatar = params.client_gravatar ?? true;
  // The queue exists before the snapshot is read, under the lock writers take, so every change
  // is either in the snapshot or in the queue.
  return ctx.lock.run(async () => {
    // Writes committed before the lock was ours publish their events first (after their sync).
    await writesPublished(ctx);
    const queue = await ctx.queues.create({
      userId: user.id,
      realmId: realm.id,
      eventTypes,
      narrow,
      rawNarrow: params.narrow ?? [],
      applyMarkdown: params.apply_markdown,
      clientGravatar,
      allPublicStreams: params.all_public_streams,
      capabilities: caps,
    });
    try {
      const state = await initialState(ctx, realm, user, {
        fetchTypes,
        capabilities: caps,
        includeSubscribers: params.include_subscribers,
        slimPresence: params.slim_presence,
        clientGravatar,
      });
      return { queue_id: queue.id, last_event_id: queue.lastEventId, ...versionFields(), ...state };
    } catch (err) {
      await ctx.queues.remove(queue.id, user.id).catch(() => null);
      throw err;
    }
  });
}

async function spectatorRegister(ctx: AppContext, realm: Realm, params: RegisterParams) {
  const settings = realmSettings(realm);
  // No queue filters anything for a spectator, but an unknown operator is refused everywhere.
  checkKnownOperators(parseNarrow(params.narrow));
  if (params.client_gravatar === true)
    throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
  if (params.include_subscribers)
    throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  const streams = (await realmStreams(ctx.db, realm.id)).filter((s) => s.is_web_public);
  const firsts = await firstMessageIds(
    ctx.db,
    streams.map((s) => s.id),
  );
  return {
    queue_id: null,
    last_event_id: -1,
    ...versionFields(),
    realm_name: realm.name,
    realm_description: realmDescriptionHtml(realm),
    realm_icon_url: realmIconUrl(ctx, realm),
    realm_uri: ctx.config.externalUrl,
    realm_url: ctx.config.externalUrl,
    realm_enable_spectator_access: true,
    realm_default_language: settings.default_language,
    max_message_length: MAX_MESSAGE_LENGTH,
    max_topic_length: MAX_TOPIC_LENGTH,
    streams: streams.map((s) => streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null })),
    realm_users: [],
    realm_non_active_users: [],
    subscriptions: [],
    unsubscribed: [],
    never_subscribed: [],
  };
}

/** A queue that is not the user's own is refused as upstream refuses it. */
function refused(queueId: string, refusal: QueueRefusal, notYours: string): never {
  if (refusal === 'missing')
    throw new DomainError(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 400, {
      queue_id: queueId,
    });
  throw badRequest(notYours);
}

/** GET /events */
export async function getEvents(
  ctx: AppContext,
  user: User,
  params: { queue_id: string; last_event_id?: number; dont_block: boolean },
  gone: ClientGone,
) {
  const waitMs = params.dont_block ? 0 : ctx.config.longPollSeconds * 1000;
  const events = await ctx.queues.fetch(
    params.queue_id,
    user.id,
    params.last_event_id,
    waitMs,
    gone,
  );
  if (typeof events === 'string')
    refused(params.queue_id, events, 'You are not authorized to get events from this queue');
  return { events, queue_id: params.queue_id };
}

/** DELETE /events */
export async function deleteQueue(ctx: AppContext, user: User, queueId: string) {
  const refusal = await ctx.queues.remove(queueId, user.id);
  if (refusal) refused(queueId, refusal, 'You are not authorized to access this queue');
  return {};
}
