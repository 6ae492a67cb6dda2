import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p, type Checker } from '../http/params.js';
import { badRequest, invalidParam, missingParam } from '../domain/errors.js';
import { streamForUser } from '../lib/streams.js';
import {
  updateSubscriptionProperties,
  updateUserTopic,
  VISIBILITY,
  type PropertyChange,
} from '../actions/subscription-properties.js';
import { userSubscriptionStatus } from '../actions/user-admin.js';
import { announceNewStreams } from '../actions/announce-stream.js';
import { subscribe, subscriptionObjects, unsubscribe } from '../actions/subscriptions.js';

/*
 * The "Channels" section's subscriptions: who is subscribed to what, subscribing and
 * unsubscribing, a subscription's personal settings, and personal settings for topics (muting,
 * following). The channels themselves are in channels.ts.
 */

const subscriptionList: Checker<{ name: string; description?: string }[]> = (v, name) =>
  check.list((item, n) => {
    const o = check.object(item, n);
    const streamName = check.string(o.name, `${n}["name"]`);
    const description =
      o.description === undefined ? undefined : check.string(o.description, `${n}["description"]`);
    return { name: streamName, description };
  })(v, name);

const principalList: Checker<(string | number)[]> = (v, name) => {
  if (!Array.isArray(v)) throw invalidParam(name, `${name} is not a list`);
  if (
    v.every((x) => typeof x === 'string') ||
    v.every((x) => typeof x === 'number' && Number.isSafeInteger(x))
  )
    return v as (string | number)[];
  throw invalidParam(name, `${name} is not a string or an integer list`);
};

const propertyChanges: Checker<PropertyChange[]> = check.list((v, name) => {
  const o = check.object(v, name);
  if (!('value' in o)) throw missingParam(`${name}["value"]`);
  return {
    stream_id: check.int(o.stream_id, `${name}["stream_id"]`),
    property: check.string(o.property, `${name}["property"]`),
    value: o.value,
  };
});

/** List, subscribe, unsubscribe, whether someone is subscribed. */
function subscriptions(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/me/subscriptions',
      params: { include_subscribers: p.raw().default('false') },
    },
    async ({ user, params }) => {
      const include =
        params.include_subscribers === 'true' || params.include_subscribers === 'partial';
      return {
        subscriptions: await subscriptionObjects(ctx.db, user, { includeSubscribers: include }),
      };
    },
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/subscriptions',
      params: {
        subscriptions: p.json(subscriptionList),
        principals: p.json(principalList).optional(),
        authorization_errors_fatal: p.bool().default(true),
        announce: p.bool().default(false),
        invite_only: p.bool().default(false),
        is_web_public: p.bool().default(false),
        is_default_stream: p.bool().default(false),
        history_public_to_subscribers: p.bool().optional(),
        stream_post_policy: p.int({ min: 1, max: 4 }).default(1),
        message_retention_days: p.raw().optional(),
        can_remove_subscribers_group: p.int().optional(),
      },
    },
    async ({ realm, user, params }) =>
      subscribe(ctx, realm, user, {
        subscriptions: params.subscriptions,
        principals: params.principals,
        authorizationErrorsFatal: params.authorization_errors_fatal,
        onCreated: params.announce
          ? (trx, created, events) => announceNewStreams(ctx, trx, realm, user, created, events)
          : undefined,
        streamOptions: {
          invite_only: params.invite_only,
          is_web_public: params.is_web_public,
          history_public_to_subscribers: params.history_public_to_subscribers,
          stream_post_policy: params.stream_post_policy,
          can_remove_subscribers_group: params.can_remove_subscribers_group,
        },
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/users/me/subscriptions',
      params: { subscriptions: p.stringList(), principals: p.json(principalList).optional() },
    },
    async ({ realm, user, params }) => unsubscribe(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/users/:user/subscriptions/:stream_id',
      pathInts: ['user', 'stream_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) =>
      userSubscriptionStatus(ctx, realm, user, pathInt('user'), pathInt('stream_id')),
  );
}

/** A subscription's own settings, and topics muted, unmuted or followed. */
function personalSettings(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/users/me/subscriptions/properties',
      params: { subscription_data: p.json(propertyChanges) },
    },
    async ({ realm, user, params }) =>
      updateSubscriptionProperties(ctx, realm, user, params.subscription_data),
  );
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/user_topics',
      params: { stream_id: p.id(), topic: p.string(), visibility_policy: p.int() },
    },
    async ({ realm, user, params }) =>
      updateUserTopic(ctx, realm, user, {
        streamId: params.stream_id,
        topic: params.topic,
        visibilityPolicy: params.visibility_policy,
      }),
  );
  // Deprecated since feature level 170 in favour of POST /user_topics, and still used by older
  // clients and by the Python bindings' mute-topic example: "add" mutes, "remove" clears the policy.
  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/users/me/subscriptions/muted_topics',
      params: {
        op: p.oneOf(['add', 'remove'] as const),
        stream: p.string().optional(),
        stream_id: p.id().optional(),
        topic: p.string(),
      },
    },
    async ({ realm, user, params }) => {
      if (params.stream !== undefined && params.stream_id !== undefined)
        throw badRequest("Please choose one: 'stream' or 'stream_id'.");
      if (params.stream === undefined && params.stream_id === undefined)
        throw badRequest("Please supply 'stream'.");
      const streamId =
        params.stream_id ??
        (await streamForUser(ctx.db, realm, user, { name: params.stream })).stream.id;
      const visibilityPolicy = params.op === 'add' ? VISIBILITY.MUTED : VISIBILITY.NONE;
      await updateUserTopic(ctx, realm, user, { streamId, topic: params.topic, visibilityPolicy });
      return {};
    },
  );
}

export async function subscriptionRoutes(app: FastifyInstance, opts: RoutesOptions) {
  subscriptions(app, opts);
  personalSettings(app, opts);
}
