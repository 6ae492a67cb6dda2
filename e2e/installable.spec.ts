import { expect, test, type Page } from '@playwright/test';
import { apiClient, logIn } from './helpers';
import { ServerProcess } from './server';

/**
 * The installable app: a web app manifest Chromium accepts for installing, and a service worker
 * that keeps the shell; with the account kept in IndexedDB, a reload without the server opens
 * the app on the conversations read last, and messages written meanwhile wait to be sent.
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

/** Whether this browser's kept copy of the account (IndexedDB) holds `text` yet. */
function keptCopyHolds(page: Page, text: string) {
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

test('after one visit, the app opens without the server, shows the kept conversation, and sends what was written there once it is back', async ({
  browser,
}) => {
  const api = await apiClient(server.url, 'hamlet@example.com');
  const general = (await api.get('/get_stream_id?stream=general')).stream_id;
  await api.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'offline',
    content: 'Read before the outage.',
  });
  const topicUrl = `/narrow/channel/${general}-general/topic/offline`;
  const page = await logIn(browser, server.url, 'hamlet@example.com', { path: topicUrl });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // Once the service worker controls the page, its next load keeps the scripts it loads.
  await page.reload();
  await expect(page.getByText('Read before the outage.')).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The conversation is kept a few seconds after it was read.
  await expect.poll(() => keptCopyHolds(page, 'Read before the outage.'), { timeout: 15_000 }).toBe(true); // prettier-ignore

  const written = `Written offline ${Date.now()}`;
  await server.stop();
  try {
    await page.reload();
    // The app itself answers, not the browser's "This site can't be reached": the kept
    // conversation, and a banner that says what is going on.
    await expect(page.getByText('Read before the outage.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
    await expect(page).toHaveTitle(/Parley/);
    await page.screenshot({ path: 'test-results/offline.png' });

    // Written without the server: shown at once, as waiting, and still there after a reload.
    const box = page.getByLabel('Message', { exact: true });
    await box.fill(written);
    await box.press('Enter');
    await expect(page.getByText(written)).toBeVisible();
    await expect(page.getByText('Waiting for the connection…')).toBeVisible();
    await expect.poll(() => keptCopyHolds(page, written)).toBe(true);
    await page.reload();
    await expect(page.getByText(written)).toBeVisible();
    await expect(page.getByText('Waiting for the connection…')).toBeVisible();

    // The server pages are not the app's: they are not answered from the kept shell.
    const join = await page.context().newPage();
    await join.goto(`${server.url}/join/0123456789abcdef/`).catch(() => undefined);
    await expect(join.locator('#root')).toHaveCount(0);
    await join.close();
  } finally {
    await server.start();
  }
  // Back without a reload once the server is: connected, and the message sent, once.
  await expect(page.getByText('Waiting for the connection…')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toHaveCount(0);
  await expect(page.getByText(written)).toBeVisible();
  const sent = async () =>
    (
      (await (
        await apiClient(server.url, 'hamlet@example.com')
      ).get(
        `/messages?anchor=newest&num_before=20&num_after=0&apply_markdown=false&narrow=${encodeURIComponent(
          JSON.stringify([
            { operator: 'channel', operand: general },
            { operator: 'topic', operand: 'offline' },
          ]),
        )}`,
      )) as { messages: { content: string }[] }
    ).messages.filter((m) => m.content === written).length;
  await expect.poll(sent).toBe(1);
  // A reload now neither sends it again nor loses it.
  await page.reload();
  await expect(page.getByText(written)).toHaveCount(1);
  await expect(page.getByText('Waiting for the connection…')).toHaveCount(0);
  expect(await sent()).toBe(1);
  expect(await keptCopyHolds(page, `"content":"${written}","timestamp"`)).toBe(false);
});

test('a reload shows the kept conversation at once, then what changed meanwhile, without duplicates', async ({
  browser,
}) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const general = (await iago.get('/get_stream_id?stream=general')).stream_id;
  const send = (content: string) =>
    iago.post('/messages', { type: 'stream', to: String(general), topic: 'meanwhile', content });
  const edited = await send('Said before the reload.');
  const deleted = await send('Taken back while away.');
  await send('Stays as it was.');
  const topicUrl = `/narrow/channel/${general}-general/topic/meanwhile`;
  const page = await logIn(browser, server.url, 'othello@example.com', { path: topicUrl });
  await expect(page.getByText('Stays as it was.')).toBeVisible();
  await expect.poll(() => keptCopyHolds(page, 'Taken back while away.'), { timeout: 15_000 }).toBe(true); // prettier-ignore
  const context = page.context();
  await page.close();

  // While no page is open: an edit, a deletion and a new message.
  await iago.patch(`/messages/${edited.id}`, { content: 'Said, and corrected.' });
  await iago.delete(`/messages/${deleted.id}`);
  await send('New while away.');

  const again = await context.newPage();
  await again.goto(topicUrl);
  await expect(again.getByText('Said, and corrected.')).toBeVisible();
  await expect(again.getByText('New while away.')).toBeVisible();
  await expect(again.getByText('Taken back while away.')).toHaveCount(0);
  await expect(again.getByText('Said before the reload.')).toHaveCount(0);
  await expect(again.getByText('Stays as it was.')).toHaveCount(1);
  await expect(again.locator('article.message')).toHaveCount(3);
});
