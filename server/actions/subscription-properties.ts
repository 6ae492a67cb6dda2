import { mutedTopicsEvent } from '../lib/muted-topics.js';
import type { AppContext } from '../context.js';
import { transact } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import type { Delivery } from '../events/types.js';
import { badRequest } from '../domain/errors.js';
import type { SubscriptionProperty, TopicVisibilityPolicy } from '../../src/api/model/index.js';
import { findStream, streamForUser } from '../lib/streams.js';

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

const BOOLEAN_PROPERTIES = [
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
const COLOR_RE = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** POST /users/me/subscriptions/properties */
export async function updateSubscriptionProperties(
  ctx: AppContext,
  realm: Realm,
  user: User,
  changes: PropertyChange[],
) {
  // Validate everything first, so a bad entry changes nothing.
  for (const c of changes) {
    if (c.property === 'color') {
      if (typeof c.value !== 'string' || !COLOR_RE.test(c.value))
        throw badRequest('color is not a valid hex color code');
    } else if ((BOOLEAN_PROPERTIES as readonly string[]).includes(c.property)) {
      if (typeof c.value !== 'boolean') throw badRequest(`${c.property} is not a boolean`);
    } else {
      throw badRequest(`Unknown subscription property: ${c.property}`);
    }
  }
  return transact(ctx, async (trx, events) => {
    for (const c of changes) {
      const { stream, subscribed } = await streamForUser(trx, realm, user, { id: c.stream_id });
      if (!subscribed) throw badRequest(`Not subscribed to channel ID ${stream.id}`);
      const column = c.property === 'in_home_view' ? 'is_muted' : c.property;
      const stored =
        c.property === 'color'
          ? (c.value as string).toLowerCase()
          : c.property === 'in_home_view'
            ? c.value
              ? 0
              : 1
            : c.value
              ? 1
              : 0;
      await trx
        .updateTable('subscriptions')
        .set({ [column]: stored } as any)
        .where('user_id', '=', user.id)
        .where('stream_id', '=', stream.id)
        .execute();
      // property and value were validated above, against the same names the wire type lists.
      const emit = (property: string, value: unknown): Delivery => ({
        realmId: realm.id,
        userIds: [user.id],
        event: {
          type: 'subscription',
          op: 'update',
          stream_id: stream.id,
          property: property as SubscriptionProperty,
          value: value as string | boolean,
        },
      });
      if (c.property === 'is_muted' || c.property === 'in_home_view') {
        const muted = c.property === 'is_muted' ? c.value : !c.value;
        events.push(emit('in_home_view', !muted), emit('is_muted', muted));
      } else {
        events.push(emit(c.property, c.property === 'color' ? stored : c.value));
      }
    }
    return {};
  });
}

import { VISIBILITY } from '../domain/conversations.js';

export { VISIBILITY };

/** POST /user_topics */
export async function updateUserTopic(
  ctx: AppContext,
  realm: Realm,
  user: User,
  req: { streamId: number; topic: string; visibilityPolicy: number },
) {
  if (![0, 1, 2, 3].includes(req.visibilityPolicy)) throw badRequest('Invalid visibility_policy');
  const topic = req.topic.trim();
  if (!topic || topic.length > 60) throw badRequest('Invalid topic');
  // Clearing a policy needs no access to the channel: someone who left a private channel may still
  // tidy up what they set there (upstream access_stream_to_remove_visibility_policy_by_id).
  const stream =
    req.visibilityPolicy === VISIBILITY.NONE
      ? await findStream(ctx.db, realm, { id: req.streamId })
      : (await streamForUser(ctx.db, realm, user, { id: req.streamId })).stream;
  if (!stream) throw badRequest('Invalid channel ID');
  return transact(ctx, async (trx, events) => {
    const now = Math.floor(Date.now() / 1000);
    await trx
      .deleteFrom('user_topics')
      .where('user_id', '=', user.id)
      .where('stream_id', '=', stream.id)
      .where('topic_key', '=', topic.toLowerCase())
      .execute();
    if (req.visibilityPolicy !== VISIBILITY.NONE) {
      await trx
        .insertInto('user_topics')
        .values({
          user_id: user.id,
          stream_id: stream.id,
          topic,
          topic_key: topic.toLowerCase(),
          visibility_policy: req.visibilityPolicy,
          last_updated: now,
        })
        .execute();
    }
    events.push(await mutedTopicsEvent(trx, realm.id, user.id), {
      realmId: realm.id,
      userIds: [user.id],
      event: {
        type: 'user_topic',
        stream_id: stream.id,
        topic_name: topic,
        last_updated: now,
        visibility_policy: req.visibilityPolicy as TopicVisibilityPolicy,
      },
    });
    return {};
  });
}
