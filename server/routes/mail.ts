import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import { listMail } from '../actions/mail.js';

/**
 * A Parley extension: the organization's mail (invitations, confirmations, password resets,
 * login notices), newest first, for its administrators. Without a mail server (PARLEY_SMTP_URL)
 * mail stays queued here, where an administrator can pass an invitation's link on.
 */
export async function mailRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'GET',
      path: '/parley/mail',
      callers: 'humans',
      params: { limit: p.int().default(100) },
    },
    async ({ realm, user, params }) => listMail(ctx, realm, user, params.limit),
  );
}
