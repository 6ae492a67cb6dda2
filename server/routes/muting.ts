import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { p } from '../http/params.js';
import { muteUser, unmuteUser } from '../actions/muted-users.js';
import { addAlertWords, getAlertWords, removeAlertWords } from '../actions/alert-words.js';

/** Muted users and alert words: a user's own filters on what reaches them. */
export function mutingRoutes(app: FastifyInstance, ctx: AppContext) {
  const muted = {
    path: '/users/me/muted_users/:muted_user_id',
    pathInts: ['muted_user_id'],
    params: {},
  };
  route(app, ctx, { method: 'POST', ...muted }, async ({ realm, user, pathInt }) =>
    muteUser(ctx, realm, user, pathInt('muted_user_id')),
  );
  route(app, ctx, { method: 'DELETE', ...muted }, async ({ realm, user, pathInt }) =>
    unmuteUser(ctx, realm, user, pathInt('muted_user_id')),
  );

  route(app, ctx, { method: 'GET', path: '/users/me/alert_words', params: {} }, async ({ user }) =>
    getAlertWords(ctx, user),
  );
  route(
    app,
    ctx,
    { method: 'POST', path: '/users/me/alert_words', params: { alert_words: p.stringList() } },
    async ({ realm, user, params }) => addAlertWords(ctx, realm, user, params.alert_words),
  );
  route(
    app,
    ctx,
    { method: 'DELETE', path: '/users/me/alert_words', params: { alert_words: p.stringList() } },
    async ({ realm, user, params }) => removeAlertWords(ctx, realm, user, params.alert_words),
  );
}
