import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Database } from '../db/index.js';
import type { Realm, Stream, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest, streamDoesNotExist } from '../domain/errors.js';
import { isAdmin, isGuest } from '../domain/roles.js';
import { streamToApi, subscriptionToApi } from '../domain/serialize.js';
import {
  activeSubscriberIds,
  canAccessStream,
  isInGroup,
  isSubscribed,
  streamAudience,
} from '../lib/access.js';
import { checkMayCreateStream, maySubscribeOthers } from '../lib/policies.js';
import { firstMessageIds, realmStreams, validateStreamName } from '../lib/streams.js';
import { insertStream, type NewStreamOptions } from './create-stream.js';

export const STREAM_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];

/** Subscriber lists per stream, for streams the caller may list subscribers of. */
export async function subscribersByStream(
  db: Database,
  streamIds: number[],
): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  if (!streamIds.length) return map;
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select(['subscriptions.stream_id', 'subscriptions.user_id'])
    .where('subscriptions.stream_id', 'in', streamIds)
    .where('subscriptions.active', '=', 1)
    .where('users.is_active', '=', 1)
    .orderBy('subscriptions.user_id')
    .execute();
  for (const r of rows) map.get(r.stream_id)?.push(r.user_id);
  return map;
}

/** The user's subscriptions as API objects (GET /users/me/subscriptions, register). */
export async function subscriptionObjects(
  db: Database,
  user: User,
  opts: { includeSubscribers: boolean; active?: boolean },
) {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('streams', 'streams.id', 'subscriptions.stream_id')
    .selectAll('streams')
    .select([
      'subscriptions.id as sub_id',
      'subscriptions.user_id',
      'subscriptions.stream_id',
      'subscriptions.active',
      'subscriptions.color',
      'subscriptions.is_muted',
      'subscriptions.pin_to_top',
      'subscriptions.desktop_notifications',
      'subscriptions.audible_notifications',
      'subscriptions.push_notifications',
      'subscriptions.email_notifications',
      'subscriptions.wildcard_mentions_notify',
    ])
    .where('subscriptions.user_id', '=', user.id)
    .where('subscriptions.active', '=', opts.active === false ? 0 : 1)
    .where('streams.deactivated', '=', 0)
    .orderBy('streams.id')
    .execute();
  const ids = rows.map((r) => r.stream_id);
  const firsts = await firstMessageIds(db, ids);
  const subscribers = opts.includeSubscribers ? await subscribersByStream(db, ids) : null;
  return rows.map((r) => {
    const stream: Stream = {
      id: r.id,
      realm_id: r.realm_id,
      name: r.name,
      description: r.description,
      rendered_description: r.rendered_description,
      invite_only: r.invite_only,
      is_web_public: r.is_web_public,
      history_public_to_subscribers: r.history_public_to_subscribers,
      stream_post_policy: r.stream_post_policy,
      message_retention_days: r.message_retention_days,
      date_created: r.date_created,
      can_remove_subscribers_group: r.can_remove_subscribers_group,
      creator_id: r.creator_id,
      deactivated: r.deactivated,
    };
    return subscriptionToApi(
      stream,
      {
        id: r.sub_id,
        user_id: r.user_id,
        stream_id: r.stream_id,
        active: r.active,
        color: r.color,
        is_muted: r.is_muted,
        pin_to_top: r.pin_to_top,
        desktop_notifications: r.desktop_notifications,
        audible_notifications: r.audible_notifications,
        push_notifications: r.push_notifications,
        email_notifications: r.email_notifications,
        wildcard_mentions_notify: r.wildcard_mentions_notify,
      },
      { firstMessageId: firsts.get(r.id) ?? null, subscribers: subscribers?.get(r.id) },
    );
  });
}

/** Subscribes users, emitting subscription add and peer_add events. Returns who was new. */
export async function subscribeUsersToStreams(
  ctx: AppContext,
  trx: Database,
  realm: Realm,
  userIds: number[],
  streamIds: number[],
  events: Delivery[],
): Promise<{ added: [number, number][]; already: [number, number][] }> {
  const added: [number, number][] = [];
  const already: [number, number][] = [];
  for (const streamId of streamIds) {
    const stream = await trx
      .selectFrom('streams')
      .selectAll()
      .where('id', '=', streamId)
      .executeTakeFirstOrThrow();
    const newlyAdded: number[] = [];
    for (const userId of userIds) {
      if (await subscribeUser(trx, userId, streamId)) {
        newlyAdded.push(userId);
        added.push([userId, streamId]);
      } else already.push([userId, streamId]);
    }
    if (newlyAdded.length) await announceSubscribed(trx, realm, stream, newlyAdded, events);
  }
  return { added, already };
}

/**
 * Makes the user a subscriber, again or for the first time (with the next colour of the
 * palette); false when they already are one.
 */
async function subscribeUser(trx: Database, userId: number, streamId: number) {
  const existing = await trx
    .selectFrom('subscriptions')
    .select(['id', 'active'])
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .executeTakeFirst();
  if (existing?.active) return false;
  if (existing) {
    await trx
      .updateTable('subscriptions')
      .set({ active: 1 })
      .where('id', '=', existing.id)
      .execute();
    return true;
  }
  const count = await trx
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  await trx
    .insertInto('subscriptions')
    .values({
      user_id: userId,
      stream_id: streamId,
      active: 1,
      color: STREAM_COLORS[Number(count?.n ?? 0) % STREAM_COLORS.length],
      is_muted: 0,
      pin_to_top: 0,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    })
    .execute();
  return true;
}

/** Each new subscriber gets the subscription; the stream's other audience, a peer_add. */
async function announceSubscribed(
  trx: Database,
  realm: Realm,
  stream: Stream,
  newlyAdded: number[],
  events: Delivery[],
) {
  for (const userId of newlyAdded) {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const subs = await subscriptionObjects(trx, user, { includeSubscribers: true });
    const sub = subs.find((s) => s.stream_id === stream.id);
    if (sub)
      events.push({
        realmId: realm.id,
        userIds: [userId],
        event: { type: 'subscription', op: 'add', subscriptions: [sub] },
      });
  }
  const audience = (await streamAudience(trx, stream)).filter((id) => !newlyAdded.includes(id));
  if (audience.length)
    events.push({
      realmId: realm.id,
      userIds: audience,
      event: {
        type: 'subscription',
        op: 'peer_add',
        stream_ids: [stream.id],
        user_ids: newlyAdded,
      },
    });
}

async function resolvePrincipals(
  trx: Database,
  realm: Realm,
  principals: (string | number)[],
): Promise<User[]> {
  const users: User[] = [];
  for (const p of principals) {
    let q = trx.selectFrom('users').selectAll().where('realm_id', '=', realm.id);
    q =
      typeof p === 'number' ? q.where('id', '=', p) : q.where('email', '=', p.trim().toLowerCase());
    const u = await q.executeTakeFirst();
    if (!u || !u.is_active) {
      throw badRequest(typeof p === 'number' ? `No such user` : `No such user: ${p}`);
    }
    if (!users.some((x) => x.id === u.id)) users.push(u);
  }
  return users;
}

export interface SubscribeRequest {
  subscriptions: { name: string; description?: string }[];
  principals?: (string | number)[];
  authorizationErrorsFatal: boolean;
  /**
   * Runs in the transaction once channels were created (the announcement, which needs the
   * message layer: passed in, so that this module does not import it).
   */
  onCreated?: (trx: Database, created: readonly Stream[], events: Delivery[]) => Promise<void>;
  streamOptions: Omit<NewStreamOptions, 'name' | 'description' | 'creatorId'>;
}

/**
 * POST /users/me/subscriptions. Not for guests at all (upstream `require_non_guest_user`). An
 * existing channel is joined, by oneself or for others, only if the actor may reach it
 * (upstream `filter_stream_authorization`): administrators too must be in a private channel to
 * bring anyone into it.
 */
export async function subscribe(ctx: AppContext, realm: Realm, actor: User, req: SubscribeRequest) {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  if (!req.subscriptions.length)
    throw badRequest('Nothing to do. Specify at least one of subscriptions.');
  return transact(ctx, async (trx, events) => {
    const targets = req.principals?.length
      ? await resolvePrincipals(trx, realm, req.principals)
      : [actor];
    const actingForOthers = targets.some((t) => t.id !== actor.id);
    if (actingForOthers && !maySubscribeOthers(realm, actor))
      throw badRequest('Insufficient permission');
    const existing = await realmStreams(trx, realm.id);
    const streamIds: number[] = [];
    const unauthorized: string[] = [];
    const created: Stream[] = [];
    for (const item of req.subscriptions) {
      const name = validateStreamName(item.name);
      let stream = existing.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!stream) {
        checkMayCreateStream(realm, actor, {
          inviteOnly: !!req.streamOptions.invite_only,
          webPublic: !!req.streamOptions.is_web_public,
        });
        stream = await insertStream(trx, realm, {
          ...req.streamOptions,
          name,
          description: item.description,
          creatorId: actor.id,
        });
        existing.push(stream);
        created.push(stream);
      } else if (!canAccessStream(actor, stream, await isSubscribed(trx, actor.id, stream.id))) {
        unauthorized.push(stream.name);
        continue;
      }
      if (!streamIds.includes(stream.id)) streamIds.push(stream.id);
    }
    if (unauthorized.length && req.authorizationErrorsFatal) {
      throw badRequest(`Unable to access channel (${unauthorized[0]}).`);
    }
    for (const s of created) {
      const audience = s.invite_only ? [] : await streamAudience(trx, s);
      if (audience.length)
        events.push({
          realmId: realm.id,
          userIds: audience,
          event: {
            type: 'stream',
            op: 'create',
            streams: [streamToApi(s, { firstMessageId: null })],
          },
        });
    }
    const { added, already } = await subscribeUsersToStreams(
      ctx,
      trx,
      realm,
      targets.map((t) => t.id),
      streamIds,
      events,
    );
    if (req.onCreated && created.length) await req.onCreated(trx, created, events);
    const names = new Map(existing.map((s) => [s.id, s.name]));
    const emails = new Map(targets.map((t) => [t.id, t.email]));
    const group = (pairs: [number, number][]) => {
      const out: Record<string, string[]> = {};
      for (const [u, s] of pairs) (out[emails.get(u)!] ??= []).push(names.get(s)!);
      return out;
    };
    const result: Record<string, unknown> = {
      subscribed: group(added),
      already_subscribed: group(already),
    };
    if (unauthorized.length) result.unauthorized = unauthorized;
    return result;
  });
}

/**
 * DELETE /users/me/subscriptions. Leaving needs no access to the channel: one not subscribed is
 * listed in `not_removed`, as upstream. Removing others follows `checkCanRemoveOthers`.
 */
export async function unsubscribe(
  ctx: AppContext,
  realm: Realm,
  actor: User,
  req: { subscriptions: string[]; principals?: (string | number)[] },
) {
  return transact(ctx, async (trx, events) => {
    const targets = req.principals?.length
      ? await resolvePrincipals(trx, realm, req.principals)
      : [actor];
    const streams = await realmStreams(trx, realm.id);
    const removed: string[] = [];
    const notRemoved: string[] = [];
    const resolved: Stream[] = [];
    for (const rawName of req.subscriptions) {
      const stream = streams.find((s) => s.name.toLowerCase() === rawName.trim().toLowerCase());
      if (!stream) throw streamDoesNotExist(rawName);
      const others = targets.filter((t) => t.id !== actor.id);
      if (others.length) {
        const actorSubscribed = await isSubscribed(trx, actor.id, stream.id);
        for (const target of others)
          await checkCanRemoveOthers(trx, actor, target, stream, actorSubscribed);
      }
      resolved.push(stream);
    }
    for (const stream of resolved) {
      const removedUsers: number[] = [];
      for (const target of targets) {
        const res = await trx
          .updateTable('subscriptions')
          .set({ active: 0 })
          .where('user_id', '=', target.id)
          .where('stream_id', '=', stream.id)
          .where('active', '=', 1)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) {
          removedUsers.push(target.id);
          if (!removed.includes(stream.name)) removed.push(stream.name);
          events.push({
            realmId: realm.id,
            userIds: [target.id],
            event: {
              type: 'subscription',
              op: 'remove',
              subscriptions: [{ name: stream.name, stream_id: stream.id }],
            },
          });
        } else if (!notRemoved.includes(stream.name)) {
          notRemoved.push(stream.name);
        }
      }
      if (removedUsers.length) {
        const audience = (await streamAudience(trx, stream)).filter(
          (id) => !removedUsers.includes(id),
        );
        if (audience.length)
          events.push({
            realmId: realm.id,
            userIds: audience,
            event: {
              type: 'subscription',
              op: 'peer_remove',
              stream_ids: [stream.id],
              user_ids: removedUsers,
            },
          });
      }
    }
    return { removed, not_removed: notRemoved.filter((n) => !removed.includes(n)) };
  });
}

/**
 * The three rules for removing someone else from a channel (upstream
 * `can_remove_subscribers_from_stream`): administrators from any channel; others only from a
 * channel they can reach, and there their own bots, or anyone when in its
 * can_remove_subscribers_group.
 */
async function checkCanRemoveOthers(
  trx: Database,
  actor: User,
  target: User,
  stream: Stream,
  actorSubscribed: boolean,
) {
  if (isAdmin(actor)) return;
  const canAccess = canAccessStream(actor, stream, actorSubscribed);
  if (target.is_bot && target.bot_owner_id === actor.id && canAccess) return;
  if (canAccess && (await isInGroup(trx, actor, stream.can_remove_subscribers_group))) return;
  throw badRequest('Insufficient permission');
}

export { activeSubscriberIds };
