import { fetchResult, type ApiResult, type TestClient } from '../client.js';
import { ACCOUNTS, refused, userDeactivated, type Row, type World } from './types.js';

/**
 * Routes outside /api/v1: files, avatars, icons, emoji images and links from mails. Callers send
 * their API credentials (our server accepts them where it authenticates at all). A token in the
 * path (temporary file URLs, confirmation links) is itself the credential; the reference server
 * serves avatars to spectators only while spectator access is on (`avatar` in views/users.py).
 */
export async function page(
  c: TestClient,
  method: 'GET' | 'POST',
  path: string,
  form?: Record<string, string>,
): Promise<ApiResult> {
  const headers: Record<string, string> = {};
  if (c.email)
    headers.Authorization = 'Basic ' + Buffer.from(`${c.email}:${c.apiKey}`).toString('base64');
  if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return fetchResult(c.baseUrl + path, {
    method,
    headers,
    redirect: 'manual',
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

const everybody = ['spectator', 'deactivated', ...ACCOUNTS] as const;

export const SITE_ROWS: Row[] = [
  {
    page: 'GET /avatar/:id',
    who: { allow: ['spectator', ...ACCOUNTS] },
    call: (c, _t, w) => page(c, 'GET', `/avatar/${w.id.cordelia}`),
  },
  {
    page: 'GET /avatar/:id',
    realm: 'spectatorsOff',
    // As upstream: by id, avatars are for people of the organization (and for spectators while
    // spectator access is on); the web client shows them from their public paths instead.
    who: { allow: ACCOUNTS },
    call: (c, _t, w) => page(c, 'GET', `/avatar/${w.id.cordelia}`),
  },
  {
    page: 'GET /user_avatars/:realm_id/:file',
    variant: "cordelia's avatar at the path the API gives",
    // Public, as upstream's avatar files: the path itself cannot be guessed.
    who: { allow: everybody },
    setup: async (w) => new URL((await w.cordelia.get('/users/me')).body.avatar_url).pathname,
    call: (c, path: string) => page(c, 'GET', path),
  },
  {
    page: 'GET /static/generated/emoji/emoji_api.json',
    // Public, as upstream's static file: emoji names, the same for every organization.
    who: { allow: everybody },
    call: (c) => page(c, 'GET', '/static/generated/emoji/emoji_api.json'),
  },
  {
    page: 'GET /realm-icon/:file',
    who: { allow: everybody },
    call: (c, _t, w) => page(c, 'GET', `/realm-icon/${w.realmId}.svg`),
  },
  {
    page: 'GET /user_avatars/:realm_id/emoji/images/:file',
    who: { allow: everybody },
    call: (c, _t, w) => page(c, 'GET', w.emojiImage),
  },
  {
    page: 'GET /user_uploads/:realm_id/*',
    variant: 'a file posted in design',
    who: { rest: refused(403), deny: { spectator: refused(403), deactivated: userDeactivated } },
    call: (c, _t, w) => page(c, 'GET', w.upload),
  },
  {
    page: 'GET /user_uploads/temporary/*',
    variant: 'a temporary URL cordelia obtained',
    who: { allow: everybody },
    setup: async (w) => new URL((await w.cordelia.get(w.upload)).body.url, w.server.url).pathname,
    call: (c, path: string) => page(c, 'GET', path),
  },
  {
    page: 'GET /accounts/confirm_new_email/:token',
    // The token's owner asked for the change; for the deactivated actor, the owner has since been
    // deactivated, and confirm_email_change raises UserDeactivatedError (a 401 page here).
    who: { allow: ['spectator', ...ACCOUNTS], deny: { deactivated: refused(401) } },
    setup: async (w, actor) => {
      const a = await w.account('member');
      const email = `${w.unique('moved')}@example.com`;
      await a.client.patch('/settings', { email });
      if (actor === 'deactivated') await w.as.owner.delete(`/users/${a.id}`);
      return (await w.outbox(email)).link;
    },
    fresh: true,
    call: (c, path: string) => page(c, 'GET', path),
  },
  ...['', '/'].flatMap((slash): Row[] => [
    {
      page: `GET /accounts/password/reset${slash}`,
      // Anyone may ask for a reset link; the page says the same whoever asks.
      who: { allow: everybody },
      call: (c) => page(c, 'GET', `/accounts/password/reset${slash}`),
    },
    {
      page: `POST /accounts/password/reset${slash}`,
      who: { allow: everybody },
      call: (c, _t, w) =>
        page(c, 'POST', `/accounts/password/reset${slash}`, {
          email: `${w.unique('forgetful')}@example.com`,
        }),
    },
    {
      page: `GET /accounts/password/reset/:secret${slash}`,
      // The mailed link is the credential, whoever follows it.
      who: { allow: everybody },
      setup: (w) => resetLink(w),
      fresh: true,
      call: (c, link: string) => page(c, 'GET', link.replace(/\/$/, '') + slash),
    },
    {
      page: `POST /accounts/password/reset/:secret${slash}`,
      who: { allow: everybody },
      setup: (w) => resetLink(w),
      fresh: true,
      call: (c, link: string) =>
        page(c, 'POST', link.replace(/\/$/, '') + slash, { password: 'a-long-new-password' }),
    },
  ]),
];

/** The path of a password reset link mailed to a new member. */
async function resetLink(w: World): Promise<string> {
  const { email } = await w.account('member');
  const r = await fetch(`${w.server.url}/accounts/password/reset/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  if (r.status !== 200) throw new Error(`matrix setup: a reset link for ${email}: ${r.status}`);
  return (await w.outbox(email)).link;
}
