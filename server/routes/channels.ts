import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import { missingParam } from '../domain/errors.js';
import { getStreamById, getStreamId, getStreams } from '../lib/streams.js';
import { archiveStream, streamMembers, updateStream } from '../actions/stream-admin.js';
import { streamTopics } from '../actions/topics.js';
import { deleteTopic } from '../actions/delete-message.js';
import {
  changeDefaultStream,
  createDefaultStreamGroup,
  removeDefaultStreamGroup,
  updateDefaultStreamGroupInfo,
  updateDefaultStreamGroupStreams,
} from '../actions/default-streams.js';

/*
 * The API documentation's "Channels" section (streams, in older names): listing channels, one by
 * id or name, their topics and subscribers, changing, archiving, deleting a topic, and the
 * organization's default channels and default channel groups. Subscriptions and personal topic
 * settings, the section's other half, are in subscriptions.ts.
 */

/** List, look up by id or name, topics, subscribers. */
function channelLookups(app: FastifyInstance, { ctx }: RoutesOptions) {
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
      path: '/users/me/:stream_id/topics',
      auth: 'optional',
      pathInts: ['stream_id'],
      params: { allow_empty_topic_name: p.bool().default(false) },
    },
    async ({ realm, user, pathInt }) => streamTopics(ctx, realm, user, pathInt('stream_id')),
  );

  route(
    app,
    ctx,
    { method: 'GET', path: '/streams/:stream_id/members', pathInts: ['stream_id'], params: {} },
    async ({ realm, user, pathInt }) => streamMembers(ctx, realm, user, pathInt('stream_id')),
  );
}

/** Change, archive, delete a topic. */
function channelChanges(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/streams/:stream_id',
      pathInts: ['stream_id'],
      aliases: { can_remove_subscribers_group_id: 'can_remove_subscribers_group' },
      params: {
        new_name: p.string().optional(),
        description: p.string().optional(),
        is_private: p.bool().optional(),
        is_web_public: p.bool().optional(),
        history_public_to_subscribers: p.bool().optional(),
        is_default_stream: p.bool().optional(),
        stream_post_policy: p.int().optional(),
        is_announcement_only: p.bool().optional(),
        message_retention_days: p.raw().optional(),
        can_remove_subscribers_group: p.raw().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) =>
      updateStream(ctx, realm, user, pathInt('stream_id'), params),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/streams/:stream_id', pathInts: ['stream_id'], params: {} },
    async ({ realm, user, pathInt }) => archiveStream(ctx, realm, user, pathInt('stream_id')),
  );

  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/streams/:stream_id/delete_topic',
      pathInts: ['stream_id'],
      params: { topic_name: p.string() },
    },
    async ({ realm, user, params, pathInt }) =>
      deleteTopic(ctx, realm, user, pathInt('stream_id'), params.topic_name),
  );
}

/** The channels new members join. */
function defaultChannels(app: FastifyInstance, { ctx }: RoutesOptions) {
  for (const method of ['POST', 'DELETE'] as const) {
    route(
      app,
      ctx,
      { method, path: '/default_streams', params: { stream_id: p.int() } },
      async ({ realm, user, params }) =>
        changeDefaultStream(ctx, realm, user, params.stream_id, method === 'POST'),
    );
  }
}

/** Groups of default channels that people choose from when they sign up. */
function defaultChannelGroups(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/default_stream_groups/create',
      params: { group_name: p.string(), description: p.string(), stream_names: p.stringList() },
    },
    async ({ realm, user, params }) =>
      createDefaultStreamGroup(ctx, realm, user, {
        name: params.group_name,
        description: params.description,
        streamNames: params.stream_names,
      }),
  );

  // The real server takes the stream changes at .../streams; the bare path accepts them too.
  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/default_stream_groups/:group_id',
      pathInts: ['group_id'],
      params: {
        new_group_name: p.string().optional(),
        new_description: p.string().optional(),
        op: p.string().optional(),
        stream_names: p.stringList().optional(),
      },
    },
    async ({ realm, user, params, pathInt }) => {
      if (params.op !== undefined) {
        if (params.stream_names === undefined) throw missingParam('stream_names');
        return updateDefaultStreamGroupStreams(ctx, realm, user, pathInt('group_id'), {
          op: params.op,
          streamNames: params.stream_names,
        });
      }
      return updateDefaultStreamGroupInfo(ctx, realm, user, pathInt('group_id'), {
        newName: params.new_group_name,
        newDescription: params.new_description,
      });
    },
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/default_stream_groups/:group_id/streams',
      pathInts: ['group_id'],
      params: { op: p.string(), stream_names: p.stringList() },
    },
    async ({ realm, user, params, pathInt }) =>
      updateDefaultStreamGroupStreams(ctx, realm, user, pathInt('group_id'), {
        op: params.op,
        streamNames: params.stream_names,
      }),
  );

  route(
    app,
    ctx,
    {
      method: 'DELETE',
      path: '/default_stream_groups/:group_id',
      pathInts: ['group_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) =>
      removeDefaultStreamGroup(ctx, realm, user, pathInt('group_id')),
  );
}

export async function channelRoutes(app: FastifyInstance, opts: RoutesOptions) {
  channelLookups(app, opts);
  channelChanges(app, opts);
  defaultChannels(app, opts);
  defaultChannelGroups(app, opts);
}
