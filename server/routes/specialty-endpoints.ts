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
    async ({ realm, params }) => fetchApiKey(ctx, realm, params.username, params.password),
  );
}
