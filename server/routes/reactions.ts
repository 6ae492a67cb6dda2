import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { addReaction, readReceipts, removeReaction } from '../actions/reactions.js';

const reactionParams = {
  emoji_name: p.string(),
  emoji_code: p.string().optional(),
  reaction_type: p.string().optional(),
};
// Removing needs emoji_name or emoji_code; the action names them both when neither comes.
const removalParams = { ...reactionParams, emoji_name: p.string().optional() };

export function reactionRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const method of ['POST', 'DELETE'] as const) {
    route(
      app,
      ctx,
      {
        method,
        path: '/messages/:message_id/reactions',
        pathInts: ['message_id'],
        params: method === 'POST' ? reactionParams : removalParams,
      },
      async ({ realm, user, params, pathInt }) => {
        const req = {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        };
        const act = method === 'POST' ? addReaction : removeReaction;
        return act(ctx, realm, user, pathInt('message_id'), req);
      },
    );
  }
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/messages/:message_id/read_receipts',
      pathInts: ['message_id'],
      params: {},
    },
    async ({ realm, user, pathInt }) => readReceipts(ctx, realm, user, pathInt('message_id')),
  );
}
