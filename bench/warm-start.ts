/**
 * How soon a person sees messages after opening the app, in Debian's Chromium against a demo
 * server started here on a free port (needs the built client, dist/):
 *
 *  - warm: a reload of a conversation read before, with the service worker and the account kept
 *    in IndexedDB (issue 37), the server running;
 *  - cold: the same address in a browser that has kept nothing (no HTTP cache, no service
 *    worker, no IndexedDB), logged in.
 *
 * Each figure is the time from the navigation's start to the first message row in the page
 * (`performance.now()` when an `article.message` appears), the median of several loads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright';
import { configFromEnv } from '../server/config.js';
import { startServer } from '../server/server.js';

const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface StartFigures {
  warm: number[];
  cold: number[];
}

/**
 * Records when the first message row appears, from the navigation's start. A string, not a
 * function: tsx's transform adds helpers to functions that the page does not have.
 */
const FIRST_ROW_PROBE = `(() => {
  const observer = new MutationObserver(() => {
    if (window.__firstRow === undefined && document.querySelector('article.message')) {
      window.__firstRow = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

async function firstRowMs(page: Page): Promise<number> {
  await page.locator('article.message').first().waitFor();
  return page.evaluate(() => (window as unknown as { __firstRow: number }).__firstRow);
}

/** Whether the kept copy of the account (IndexedDB) holds `text`. */
function kept(page: Page, text: string) {
  return page.evaluate(
    (wanted) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('parley');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('accounts')) return resolve(false);
          const all = db.transaction('accounts').objectStore('accounts').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result).includes(wanted));
          all.onerror = () => resolve(false);
        };
      }),
    text,
  );
}

export async function startFigures(root: string, loads = 7): Promise<StartFigures> {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html')))
    throw new Error('The start figures need the built client: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-'));
  const server = await startServer(
    { ...configFromEnv({}), port: 0, dataDir, demo: true },
    { demoPassword: 'parley-demo' },
  );
  const profiles: string[] = [];
  const open = async (): Promise<BrowserContext> => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-profile-'));
    profiles.push(profile);
    return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS });
  };
  try {
    const login = (await (
      await fetch(`${server.url}/api/v1/fetch_api_key`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'iago@example.com', password: 'parley-demo' }),
      })
    ).json()) as { api_key: string; user_id: number };
    const account = JSON.stringify({
      email: 'iago@example.com',
      apiKey: login.api_key,
      userId: login.user_id,
    });
    const auth = `Basic ${Buffer.from(`iago@example.com:${login.api_key}`).toString('base64')}`;
    const { stream_id: general } = (await (
      await fetch(`${server.url}/api/v1/get_stream_id?stream=general`, {
        headers: { authorization: auth },
      })
    ).json()) as { stream_id: number };
    const address = `${server.url}/narrow/channel/${general}-general`;
    const loggedIn = async (context: BrowserContext) => {
      await context.addInitScript(
        `if (!localStorage.getItem('parley.account')) localStorage.setItem('parley.account', ${JSON.stringify(account)});`,
      );
      await context.addInitScript(FIRST_ROW_PROBE);
    };

    const cold = await coldLoads(open, loggedIn, address, loads);
    const warm = await warmLoads(open, loggedIn, address, loads);
    return { warm, cold };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    for (const profile of profiles) fs.rmSync(profile, { recursive: true, force: true });
  }
}

type Open = () => Promise<BrowserContext>;
type Prepare = (context: BrowserContext) => Promise<void>;

/** Each in a browser that has kept nothing. */
async function coldLoads(open: Open, prepare: Prepare, address: string, loads: number) {
  const cold: number[] = [];
  for (let i = 0; i < loads; i++) {
    const context = await open();
    try {
      await prepare(context);
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(address);
      cold.push(await firstRowMs(page));
    } finally {
      await context.close();
    }
  }

  return cold;
}

/** Reloads of a conversation read before, once the service worker and the cache have it. */
async function warmLoads(open: Open, prepare: Prepare, address: string, loads: number) {
  const warm: number[] = [];
  const context = await open();
  try {
    await prepare(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(address);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await firstRowMs(page);
    const text = (await page.locator('article.message .message-content').last().innerText())
      .trim()
      .slice(0, 20);
    for (let tries = 0; !(await kept(page, text)); tries++) {
      if (tries > 100) throw new Error('the conversation was never kept');
      await page.waitForTimeout(200);
    }
    for (let i = 0; i < loads + 1; i++) {
      await page.reload();
      const ms = await firstRowMs(page);
      if (i > 0) warm.push(ms); // the first reload is the first under the service worker
    }
  } finally {
    await context.close();
  }
  return warm;
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await startFigures(path.resolve(import.meta.dirname, '..'));
  console.log(
    JSON.stringify({
      warm_ms: Math.round(median(figures.warm)),
      cold_ms: Math.round(median(figures.cold)),
      warm: figures.warm.map(Math.round),
      cold: figures.cold.map(Math.round),
    }),
  );
}
