import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { avatarOfId, avatarOfPath, uploadedAvatar, type AvatarOwner } from '../actions/avatars.js';
import { authenticate, realmForRequest } from '../http/auth.js';
import { checkRateLimit } from '../http/rate-limit.js';

const PALETTE = [
  '#4f8de4',
  '#53a063',
  '#e4523d',
  '#9987e1',
  '#ee7e4a',
  '#2a9d8f',
  '#c2726a',
  '#bd86e5',
];

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '') || '?';
}

function svgBadge(text: string, seed: number, radius: number) {
  const color = PALETTE[seed % PALETTE.length];
  const safe = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" rx="${radius}" fill="${color}"/><text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="40" font-weight="600" fill="#fff">${safe}</text></svg>`;
}

/** An avatar: the uploaded image, or initials drawn for a person without one ("?" for nobody). */
async function sendAvatar(
  ctx: AppContext,
  reply: FastifyReply,
  person: AvatarOwner | null,
  cacheControl: string,
) {
  const uploaded = person && (await uploadedAvatar(ctx, person.realm_id, person.id));
  reply.header('Cache-Control', cacheControl);
  if (uploaded)
    return reply
      .type(uploaded.type)
      .header('Content-Length', String(uploaded.size))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('X-Content-Type-Options', 'nosniff')
      .send(fs.createReadStream(uploaded.file));
  reply.type('image/svg+xml');
  return reply.send(svgBadge(person ? initials(person.full_name) : '?', person?.id ?? 0, 12));
}

/** Avatars (by id, and at their public paths) and organization icons. */
export function assetRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/avatar/:id', async (request, reply) => {
    const realm = await realmForRequest(ctx, request);
    const auth = await authenticate(ctx, request, realm);
    checkRateLimit(ctx, reply, auth ? `user:${auth.user.id}` : `ip:${request.ip}`);
    const { id } = request.params as { id: string };
    const person = await avatarOfId(ctx, realm, auth?.user ?? null, id);
    // The answer depends on who asks: no shared cache keeps it.
    return sendAvatar(ctx, reply, person, 'private, max-age=3600');
  });
  app.get('/user_avatars/:realm_id/:file', async (request, reply) => {
    const { realm_id: realmId, file } = request.params as { realm_id: string; file: string };
    return sendAvatar(ctx, reply, await avatarOfPath(ctx, realmId, file), 'public, max-age=86400');
  });
  app.get('/realm-icon/:file', async (request, reply) => {
    const id = Number.parseInt((request.params as { file: string }).file, 10);
    const realm = Number.isSafeInteger(id)
      ? await ctx.db
          .selectFrom('realms')
          .select(['id', 'name'])
          .where('id', '=', id)
          .executeTakeFirst()
      : undefined;
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=3600');
    return reply.send(svgBadge(realm ? initials(realm.name) : 'P', (realm?.id ?? 0) + 3, 22));
  });
}
