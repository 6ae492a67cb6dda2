import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import {
  addLinkifier,
  getLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
  updateLinkifier,
} from '../actions/linkifiers.js';

export function linkifierRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, { method: 'GET', path: '/realm/linkifiers', params: {} }, async ({ realm }) =>
    getLinkifiers(ctx, realm),
  );

  route(
    app,
    ctx,
    { method: 'PATCH', path: '/realm/linkifiers', params: { ordered_linkifier_ids: p.intList() } },
    async ({ realm, user, params }) =>
      reorderLinkifiers(ctx, realm, user, params.ordered_linkifier_ids),
  );

  const linkifier = { pattern: p.string(), url_template: p.string() };
  route(
    app,
    ctx,
    { method: 'POST', path: '/realm/filters', params: linkifier },
    async ({ realm, user, params }) => addLinkifier(ctx, realm, user, params),
  );

  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/realm/filters/:filter_id',
      pathInts: ['filter_id'],
      params: linkifier,
    },
    async ({ realm, user, params, pathInt }) =>
      updateLinkifier(ctx, realm, user, pathInt('filter_id'), params),
  );

  route(
    app,
    ctx,
    { method: 'DELETE', path: '/realm/filters/:filter_id', pathInts: ['filter_id'], params: {} },
    async ({ realm, user, pathInt }) => removeLinkifier(ctx, realm, user, pathInt('filter_id')),
  );
}
