import type { FastifyInstance } from 'fastify';
import { route, type RoutesOptions } from '../http/route.js';
import { p } from '../http/params.js';
import { fetchApiKey } from '../actions/users.js';

/** The API documentation's "Specialty endpoints" that Parley serves: logging in with a password. */
export async function specialtyRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  route(
    app,
    ctx,
    {
      method: 'POST',
      path: '/fetch_api_key',
      auth: 'none',
      params: { username: p.string(), password: p.string() },
    },
    // Password guessing is bounded per account inside fetchApiKey, whatever address it comes from.
    // A successful login mails its owner (enable_login_emails) the client and the address.
    async ({ realm, params, userAgent, raw }) =>
      fetchApiKey(ctx, realm, params.username, params.password, { userAgent, ip: raw.ip }),
  );
}
