import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p, type Checker } from '../http/params.js';
import { missingParam, badRequest } from '../domain/errors.js';
import {
  updateSubscriptionProperties,
  updateUserTopic,
  VISIBILITY,
  type PropertyChange,
} from '../actions/subscription-properties.js';
import { streamForUser } from '../lib/streams.js';

const propertyChanges: Checker<PropertyChange[]> = check.list((v, name) => {
  const o = check.object(v, name);
  if (!('value' in o)) throw missingParam(`${name}["value"]`);
  return {
    stream_id: check.int(o.stream_id, `${name}["stream_id"]`),
    property: check.string(o.property, `${name}["property"]`),
    value: o.value,
  };
});

export function subscriptionSettingRoutes(app: FastifyInstance, ctx: AppContext) {
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
