import { streamToApi } from '../domain/serialize.js';
import { parseSettings, USER_SETTING_DEFAULTS } from '../domain/settings.js';
import type { User } from '../db/schema.js';
import { canSeeStream, subscribedStreamIds } from '../lib/access.js';
import { defaultStreamIds } from '../lib/streams.js';
import { subscriptionObjects, subscribersByStream } from '../actions/subscriptions.js';
import { defaultStreamGroupObjects } from '../actions/default-streams.js';
import type { Section } from './snapshot.js';

/** The snapshot's sections about channels: those the user sees, the defaults, subscriptions. */

export const streamState: Section = async ({ ctx, reads, user }) => {
  const streams = await reads.realmStreams();
  const subs = await subscribedStreamIds(ctx.db, user.id);
  const visible = streams.filter((s) => canSeeStream(user, s, subs.has(s.id)));
  const firsts = await reads.firstMessageIds();
  return {
    streams: visible.map((s) => streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null })),
  };
};

export const defaultStreamsState: Section = async ({ ctx, reads, realm }) => {
  const ids = await defaultStreamIds(ctx.db, realm.id);
  const streams = (await reads.realmStreams()).filter((s) => ids.has(s.id));
  const firsts = await reads.firstMessageIds();
  return {
    realm_default_streams: streams.map((s) =>
      streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null }),
    ),
  };
};

export const defaultStreamGroupsState: Section = async ({ ctx, realm }) => ({
  realm_default_stream_groups: await defaultStreamGroupObjects(ctx.db, realm.id),
});

const CHANNEL_NOTIFICATIONS = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
] as const;

/**
 * Clients without `notification_settings_null` (zulip-terminal, the Python bindings, old mobile
 * apps) read a channel's unset notification setting as "off": they get the person's default for
 * channels instead, as the reference gives them (handle_stream_notifications_compatibility).
 */
function fillNotificationDefaults(subs: object[], user: User) {
  const settings = parseSettings(USER_SETTING_DEFAULTS, user.settings);
  for (const sub of subs) {
    const fields = sub as Record<string, unknown>;
    for (const name of CHANNEL_NOTIFICATIONS)
      if (fields[name] === null || fields[name] === undefined)
        fields[name] = settings[`enable_stream_${name}`];
  }
}

/** Subscribed, unsubscribed and never-subscribed channels, with subscribers if asked. */
export const subscriptionState: Section = async ({ ctx, reads, user, opts }) => {
  const subscriptions = await subscriptionObjects(ctx.db, user, {
    includeSubscribers: opts.includeSubscribers,
  });
  const unsubscribed = (
    await subscriptionObjects(ctx.db, user, {
      includeSubscribers: opts.includeSubscribers,
      active: false,
    })
  ).filter((s) =>
    canSeeStream(
      user,
      {
        ...(s as any),
        id: s.stream_id,
        invite_only: s.invite_only ? 1 : 0,
        is_web_public: s.is_web_public ? 1 : 0,
        deactivated: 0,
      },
      false,
    ),
  );
  const known = new Set([...subscriptions, ...unsubscribed].map((s) => s.stream_id));
  const streams = await reads.realmStreams();
  const never = streams.filter((s) => !known.has(s.id) && canSeeStream(user, s, false));
  const firsts = await reads.firstMessageIds();
  let subscribers: Map<number, number[]> | null = null;
  if (opts.includeSubscribers) {
    subscribers = await subscribersByStream(
      ctx.db,
      never.filter((s) => !s.invite_only).map((s) => s.id),
    );
  }
  if (!opts.capabilities.notification_settings_null)
    fillNotificationDefaults([...subscriptions, ...unsubscribed], user);
  return {
    subscriptions,
    unsubscribed,
    never_subscribed: never.map((s) => {
      const o = streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null });
      return subscribers ? { ...o, subscribers: subscribers.get(s.id) ?? [] } : o;
    }),
  };
};
