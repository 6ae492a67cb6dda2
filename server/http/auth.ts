import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Realm, User } from '../db/schema.js';
import { constantTimeEqual } from '../domain/password.js';
import { DomainError, realmDeactivated, userDeactivated } from '../domain/errors.js';
import { compiledQuery } from '../db/compiled.js';
import { cachedRow } from '../db/row-cache.js';

const realmBySubdomain = compiledQuery((db, sub: string) =>
  db.selectFrom('realms').selectAll().where('string_id', '=', sub),
);
const firstRealm = compiledQuery((db) =>
  db.selectFrom('realms').selectAll().orderBy('id').limit(1),
);
const userByEmail = compiledQuery((db, realmId: number, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('delivery_email', '=', email),
);

export interface Auth {
  realm: Realm;
  user: User;
}

const IPV4_HOST = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The organization a request addresses: by subdomain when one matches, else the first one. */
export async function realmForRequest(ctx: AppContext, req: FastifyRequest): Promise<Realm> {
  const host = (req.headers.host ?? '').split(':')[0].toLowerCase();
  // An IPv4 address (127.0.0.1) names no subdomain: no lookup for it.
  const sub =
    !IPV4_HOST.test(host) && (host.split('.').length > 2 || host.endsWith('.localhost'))
      ? host.split('.')[0]
      : '';
  if (sub) {
    const bySub = await cachedRow(ctx.db, `realm:${sub}`, () =>
      realmBySubdomain.first(ctx.db, sub),
    );
    if (bySub) return bySub;
  }
  const realm = await cachedRow(ctx.db, 'realm', () => firstRealm.first(ctx.db));
  if (!realm)
    throw new DomainError('No organization exists on this server yet', 'BAD_REQUEST', 400);
  return realm;
}

export function parseBasicAuth(header: string | undefined): { email: string; key: string } | null {
  if (!header) return null;
  const m = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { email: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

/** HTTP Basic with the API email and key. `null` when the request carries no credentials. */
export async function authenticate(
  ctx: AppContext,
  req: FastifyRequest,
  realm: Realm,
): Promise<Auth | null> {
  const creds = parseBasicAuth(req.headers.authorization);
  if (!creds) {
    if (req.headers.authorization)
      throw new DomainError('Invalid authorization header for basic auth', 'UNAUTHORIZED', 401);
    return null;
  }
  // No email holds NUL, and PostgreSQL refuses to compare text containing it.
  const email = creds.email.trim().toLowerCase();
  const user = email.includes('\u0000')
    ? undefined
    : await cachedRow(ctx.db, `user:${realm.id}:${email}`, () =>
        userByEmail.first(ctx.db, realm.id, email),
      );
  if (!user || !constantTimeEqual(user.api_key, creds.key)) {
    throw new DomainError('Invalid API key', 'INVALID_API_KEY', 401);
  }
  if (realm.deactivated) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  return { realm, user };
}
