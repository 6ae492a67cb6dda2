import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { check, p } from '../http/params.js';
import { checkDraft, createDrafts, deleteDraft, editDraft, getDrafts } from '../actions/drafts.js';

/** The API documentation's "Drafts" section: drafts kept on the server, synced between devices. */
export async function draftRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(app, ctx, { method: 'GET', path: '/drafts', params: {} }, async ({ user }) =>
    getDrafts(ctx, user),
  );
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/drafts',
      params: { drafts: p.json(check.list(checkDraft)).default([]) },
    },
    async ({ realm, user, params }) => createDrafts(ctx, realm, user, params.drafts),
  );
  route(
    app,
    ctx,
    {
      method: 'PATCH',
      path: '/drafts/:draft_id',
      pathInts: ['draft_id'],
      params: { draft: p.json(checkDraft) },
    },
    async ({ realm, user, params, pathInt }) =>
      editDraft(ctx, realm, user, pathInt('draft_id'), params.draft),
  );
  route(
    app,
    ctx,
    { method: 'DELETE', path: '/drafts/:draft_id', pathInts: ['draft_id'], params: {} },
    async ({ realm, user, pathInt }) => deleteDraft(ctx, realm, user, pathInt('draft_id')),
  );
}
