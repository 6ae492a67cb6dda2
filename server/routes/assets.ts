import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { uploadedAvatar } from '../actions/avatars.js';

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

/** Generated avatars and organization icons, so a fresh server needs no uploads or network. */
export function assetRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/avatar/:id', async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const user = Number.isSafeInteger(id)
      ? await ctx.db
          .selectFrom('users')
          .select(['id', 'realm_id', 'full_name'])
          .where('id', '=', id)
          .executeTakeFirst()
      : undefined;
    const uploaded = user && (await uploadedAvatar(ctx, user.realm_id, user.id));
    if (uploaded)
      return reply
        .type(uploaded.type)
        .header('Content-Length', String(uploaded.size))
        .header('Cache-Control', 'public, max-age=86400')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('X-Content-Type-Options', 'nosniff')
        .send(fs.createReadStream(uploaded.file));
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400');
    return reply.send(svgBadge(user ? initials(user.full_name) : '?', id || 0, 12));
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
