import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { missingParam } from '../domain/errors.js';
import { archiveStream, streamMembers, updateStream } from '../actions/stream-admin.js';
import { deleteTopic } from '../actions/delete-message.js';
import {
  changeDefaultStream,
  createDefaultStreamGroup,
  removeDefaultStreamGroup,
  updateDefaultStreamGroupInfo,
  updateDefaultStreamGroupStreams,
} from '../actions/default-streams.js';

export function streamAdminRoutes(app: FastifyInstance, ctx: AppContext) {
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

  route(
    app,
    ctx,
    { method: 'GET', path: '/streams/:stream_id/members', pathInts: ['stream_id'], params: {} },
    async ({ realm, user, pathInt }) => streamMembers(ctx, realm, user, pathInt('stream_id')),
  );

  for (const method of ['POST', 'DELETE'] as const) {
    route(
      app,
      ctx,
      { method, path: '/default_streams', params: { stream_id: p.int() } },
      async ({ realm, user, params }) =>
        changeDefaultStream(ctx, realm, user, params.stream_id, method === 'POST'),
    );
  }

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
