import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p, type Checker } from '../http/params.js';
import { invalidParam } from '../domain/errors.js';
import { getStreamById, getStreamId, getStreams } from '../lib/streams.js';
import { announceNewStreams } from '../actions/announce-stream.js';
import { subscribe, subscriptionObjects, unsubscribe } from '../actions/subscriptions.js';

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

export function streamRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/streams',
      params: {
        include_public: p.bool().default(true),
        include_web_public: p.bool().default(false),
        include_subscribed: p.bool().default(true),
        include_all_active: p.bool().default(false),
        include_default: p.bool().default(false),
        include_owner_subscribed: p.bool().default(false),
      },
    },
    async ({ realm, user, params }) => getStreams(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    { method: 'GET', path: '/streams/:stream_id', pathInts: ['stream_id'], params: {} },
    async ({ realm, user, pathInt }) => getStreamById(ctx, realm, user, pathInt('stream_id')),
  );

  route(
    app,
    ctx,
    { method: 'GET', path: '/get_stream_id', params: { stream: p.string() } },
    async ({ realm, user, params }) => getStreamId(ctx, realm, user, params.stream),
  );

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
}
