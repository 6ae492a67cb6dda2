import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { check, p, type Checker } from '../http/params.js';
import { missingParam } from '../http/errors.js';
import { updateSubscriptionProperties, updateUserTopic, type PropertyChange } from '../actions/subscription-properties.js';

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
    { method: 'POST', path: '/users/me/subscriptions/properties', params: { subscription_data: p.json(propertyChanges) } },
    async ({ realm, user, params }) => updateSubscriptionProperties(ctx, realm, user, params.subscription_data),
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
      updateUserTopic(ctx, realm, user, { streamId: params.stream_id, topic: params.topic, visibilityPolicy: params.visibility_policy }),
  );
}
