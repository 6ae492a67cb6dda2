import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, type Browser, type Page } from '@playwright/test';

export const PASSWORD = 'parley-demo';

/** A 2x2 PNG, red, for uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANCQEB0D7OXwAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The link in the latest mail to `to`: with no mail server, mail waits in the server's mail queue
 * (the `mail_queue` table of the SQLite database in the data directory); the first link of its
 * text part.
 */
export function mailedLink(dataDir: string, to: string): string {
  const db = new Database(path.join(dataDir, 'parley.sqlite3'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const mail = db
      .prepare(
        "SELECT text_body FROM mail_queue WHERE recipient = ? AND kind != 'login' ORDER BY id DESC LIMIT 1",
      )
      .get(to) as { text_body: string } | undefined;
    if (!mail) throw new Error(`no mail to ${to}`);
    const link = /https?:\/\/\S+/.exec(mail.text_body)?.[0];
    if (!link) throw new Error(`no link in the mail to ${to}`);
    return link;
  } finally {
    db.close();
  }
}

/**
 * Opens the app as `email` in a fresh browser context, already logged in: the account the login
 * screen would have stored is put in the context's storage, as after a reload. The login screen
 * itself has its own tests (chat, rendering and security specs); going through it for every
 * scenario would only repeat them.
 */
export async function logIn(
  browser: Browser,
  baseURL: string,
  email: string,
  {
    viewport = { width: 1280, height: 800 },
    path = '/',
  }: {
    viewport?: { width: number; height: number };
    /** where the app opens: a scenario that starts in a conversation loads the app once */
    path?: string;
  } = {},
): Promise<Page> {
  const login = await fetch(`${baseURL}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD }),
    signal: requestBound(`log in as ${email}`),
  });
  const { api_key: apiKey, user_id: userId } = (await login.json()) as {
    api_key: string;
    user_id: number;
  };
  const account = JSON.stringify({ email, apiKey, userId });
  // An init script rather than the context's storageState: Playwright fills a storageState by
  // loading a page of its own first, which cost about 0.6 s per login. The marker keeps the
  // account from coming back after the scenario logs out and reloads.
  const context = await browser.newContext({ baseURL, viewport });
  await context.addInitScript((value) => {
    try {
      if (localStorage.getItem('parley.e2e-seeded')) return;
      localStorage.setItem('parley.e2e-seeded', '1');
      localStorage.setItem('parley.account', value);
    } catch {
      // A page without storage (about:blank, an opaque origin) has nothing to seed.
    }
  }, account);
  const page = await context.newPage();
  await page.goto(path);
  // The inbox link, in whichever language the account has chosen. This is set-up, not the
  // scenario: on a busy machine the first load and register may take longer than one expectation.
  await expect(page.getByRole('link', { name: /^(Inbox|Posteingang)/ })).toBeVisible({
    timeout: 60_000,
  });
  return page;
}

/** The API key of a demo user, for setting up state the way another client would. */
/**
 * A set-up request that gets no answer within a minute fails naming itself, rather than letting
 * the whole scenario run out its time with nothing to say which request the server held.
 */
function requestBound(what: string): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`${what}: no answer from the server within 60 s`)),
    60_000,
  );
  timer.unref();
  return controller.signal;
}

export async function apiClient(baseURL: string, email: string) {
  const login = await fetch(`${baseURL}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: apiKey, user_id: userId } = (await login.json()) as {
    api_key: string;
    user_id: number;
  };
  const auth = 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
  return {
    userId,
    async post(path: string, params: Record<string, string>) {
      const r = await fetch(`${baseURL}/api/v1${path}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
        signal: requestBound(`POST ${path}`),
      });
      return r.json() as Promise<Record<string, any>>;
    },
    async get(path: string) {
      const r = await fetch(`${baseURL}/api/v1${path}`, {
        headers: { Authorization: auth },
        signal: requestBound(`GET ${path}`),
      });
      return r.json() as Promise<Record<string, any>>;
    },
    async patch(path: string, params: Record<string, string>) {
      const r = await fetch(`${baseURL}/api/v1${path}`, {
        method: 'PATCH',
        headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
        signal: requestBound(`PATCH ${path}`),
      });
      return r.json() as Promise<Record<string, any>>;
    },
    async delete(path: string) {
      const r = await fetch(`${baseURL}/api/v1${path}`, {
        method: 'DELETE',
        headers: { Authorization: auth },
        signal: requestBound(`DELETE ${path}`),
      });
      return r.json() as Promise<Record<string, any>>;
    },
  };
}

/** The unread count a sidebar link announces in its accessible name ("general, 3 unread"). */
export async function unreadCount(page: Page, name: string): Promise<number> {
  const sidebar = page.getByRole('navigation', { name: 'Channels and views' });
  const link = sidebar.getByRole('link', { name: new RegExp(`^${name}(, \\d+ unread)?$`) }).first();
  const label = (await link.getAttribute('aria-label')) ?? (await link.innerText());
  const m = /, (\d+) unread$/.exec(label);
  return m ? Number(m[1]) : 0;
}
