import { streamToApi } from '../domain/serialize.js';
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
  return {
    subscriptions,
    unsubscribed,
    never_subscribed: never.map((s) => {
      const o = streamToApi(s, { firstMessageId: firsts.get(s.id) ?? null });
      return subscribers ? { ...o, subscribers: subscribers.get(s.id) ?? [] } : o;
    }),
  };
};
