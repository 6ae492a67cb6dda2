/**
 * The web app's own addresses, as Fastify route paths: a reload or a shared link of one of them
 * gets index.html (routes/client-app.ts), and any other path outside the API a 404. They are the
 * places the client's router knows (`parsePlaceUrl` in src/narrow/url.ts) and the pages AppShell
 * sends people to; server/test/client-routes.test.ts fails when the two lists part.
 *
 * Narrows are matched by their prefix only: a malformed narrow still loads the app, whose own
 * not-found view says what is wrong with it. Invitation and confirmation links are pages the
 * server renders itself (routes/account-pages.ts), not client routes.
 */
export const CLIENT_ROUTES = [
  '/',
  '/inbox',
  '/recent',
  '/drafts',
  '/scheduled',
  '/feed',
  // where a visitor lands when no channel is web-public
  '/nothing-public',
  // views that go on with a section or an id (`/settings/notifications`, `/user/12`)
  '/settings',
  '/settings/*',
  '/organization',
  '/organization/*',
  '/channels',
  '/channels/*',
  '/groups',
  '/groups/*',
  '/user',
  '/user/*',
  '/narrow/*',
] as const;

/**
 * The paths to register: each route, and its twin with a trailing slash (the client reads
 * `/inbox/` as `/inbox`; a `/*` route already matches one).
 */
export function clientRoutePaths(): string[] {
  return CLIENT_ROUTES.flatMap((p) => (p === '/' || p.endsWith('*') ? [p] : [p, `${p}/`]));
}
