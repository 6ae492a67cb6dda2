import { expect, test } from '@playwright/test';
import { logIn } from './helpers';
import { ServerProcess } from './server';

/**
 * The installable app: a web app manifest Chromium accepts for installing, and a service worker
 * that keeps the shell, so that a reload without the server still opens the app.
 */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

test('Chromium finds the app installable, with its name, colours and icons', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'iago@example.com');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  expect(installabilityErrors).toEqual([]);

  const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
    name: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Parley', display: 'standalone' });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  );
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const r = await fetch(`${server.url}${icon.src}`);
    expect(r.status, icon.src).toBe(200);
  }
  // Both themes colour the browser's frame.
  const themes = await page
    .locator('meta[name="theme-color"]')
    .evaluateAll((metas) => metas.map((m) => m.getAttribute('media')));
  expect(themes).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);
});

test('after one visit, a reload without the server still opens the app', async ({ browser }) => {
  const page = await logIn(browser, server.url, 'hamlet@example.com');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // Once the service worker controls the page, its next load keeps the scripts it loads.
  await page.reload();
  await expect(page.getByRole('link', { name: /^Inbox/ })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await server.stop();
  try {
    await page.reload();
    // The app itself answers, not the browser's "This site can't be reached", and waits.
    await expect(page.getByText('Connecting…')).toBeVisible();
    await expect(page).toHaveTitle(/Parley/);
    // The server pages are not the app's: they are not answered from the kept shell.
    const join = await page.context().newPage();
    await join.goto(`${server.url}/join/0123456789abcdef/`).catch(() => undefined);
    await expect(join.locator('#root')).toHaveCount(0);
  } finally {
    await server.start();
  }
  // Back without a reload once the server is.
  await expect(page.getByRole('link', { name: /^Inbox/ })).toBeVisible({ timeout: 60_000 });
});
