import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, PASSWORD } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** The screen in light and dark, for looking at the German layout. */
async function shot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/i18n-${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Sets the account's interface language the way another client would. */
async function setLanguage(email: string, language: string) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const r = await fetch(`${server.url}/api/v1/settings`, {
    method: 'PATCH',
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
    body: new URLSearchParams({ default_language: language }),
  });
  expect(r.status).toBe(200);
}

async function streamId(name: string) {
  const api = await apiClient(server.url, 'hamlet@example.com');
  return (await api.get(`/get_stream_id?stream=${name}`)).stream_id as number;
}

const GERMAN_WEEKDAYS = /Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag/;

test('the open window follows a switch to German on every screen, and back to English', async ({
  browser,
}) => {
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  const topic = 'Translation check';
  const id = (
    await cordelia.post('/messages', {
      type: 'stream',
      to: 'general',
      topic,
      content: 'Guten Morgen, Hamlet!',
    })
  ).id as number;
  await cordelia.post(`/messages/${id}/reactions`, { emoji_name: 'tada' });

  const page = await logIn(browser, server.url, 'hamlet@example.com');
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();

  // Another client changes the language: the open window follows without a reload.
  await setLanguage('hamlet@example.com', 'de');
  await expect(page.getByRole('heading', { name: 'Posteingang', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('navigation', { name: 'Kanäle und Ansichten' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Neueste Unterhaltungen/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Direktnachrichten' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Alle als gelesen markieren' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Unterhaltungen filtern' })).toBeVisible();
  // Counts are German sentences with the number in German form.
  await expect(page.getByText(/^\d+ ungelesene Nachrichten?$/)).toBeVisible();
  await expect(page).toHaveTitle(/^\(\d+\) Posteingang/);
  await shot(page, 'inbox-de');

  // Recent conversations.
  await page.getByRole('link', { name: /^Neueste Unterhaltungen/ }).click();
  await expect(
    page.getByRole('heading', { name: 'Neueste Unterhaltungen', level: 1 }),
  ).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Nur ungelesene' })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`general › ${topic}`) })).toBeVisible();

  // The combined feed: day separator, reactions, the message actions menu.
  await page.getByRole('link', { name: /^Kombinierter Feed/ }).click();
  await expect(page.getByRole('heading', { name: 'Kombinierter Feed', level: 1 })).toBeVisible();
  const someMessage = page.getByRole('article').last();
  await someMessage.hover();
  await someMessage.getByRole('button', { name: 'Nachrichtenaktionen' }).click();
  const menu = page.getByRole('menu', { name: 'Nachrichtenaktionen' });
  await expect(menu.getByRole('menuitem', { name: 'Zitieren und antworten' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Link zur Nachricht kopieren' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  // A topic: its header, the topic actions and the move dialog.
  const general = await streamId('general');
  await page.goto(
    `/narrow/channel/${general}-general/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`,
  );
  const view = page.getByRole('region', { name: `general › ${topic}` });
  await expect(view).toBeVisible();
  await expect(view.getByRole('log', { name: 'Nachrichten' })).toBeVisible();
  await expect(view.getByRole('separator', { name: 'Heute' })).toBeVisible();
  const message = view.getByRole('article').filter({ hasText: 'Guten Morgen, Hamlet!' });
  await expect(message.getByRole('group', { name: 'Reaktionen' })).toBeVisible();
  await expect(message.getByRole('button', { name: /^tada: / })).toHaveAccessibleDescription(
    /hat mit :tada: reagiert/,
  );
  // Times and dates in German form: the full date of a message names its weekday in German.
  const time = message.locator('time').first();
  await expect(time).toHaveAttribute('title', GERMAN_WEEKDAYS);
  await expect(time).toHaveAttribute('title', /\d{1,2}\. \S+ \d{4}/);
  await expect(page).toHaveTitle(new RegExp(`#general > ${topic}`));
  await shot(page, 'topic-de');
  await view
    .getByRole('button', { name: `Themenaktionen für ${topic}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Thema verschieben' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nachrichten verschieben' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Aus #general')).toBeVisible();
  await expect(dialog.getByLabel('Kanal')).toBeVisible();
  await expect(
    dialog.getByRole('checkbox', { name: 'Automatische Mitteilung an das neue Thema senden' }),
  ).toBeChecked();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();

  // The search box: its suggestions, and a filter's title.
  const search = page.getByRole('combobox', { name: 'Nachrichten durchsuchen' });
  await search.fill('has:');
  await expect(
    page.getByRole('option', { name: /has:image.*Nachrichten mit Bildern/ }),
  ).toBeVisible();
  await search.fill('is:starred sender:cordelia@example.com');
  await search.press('Enter');
  await expect(
    page.getByRole('heading', { name: /^Markierte Nachrichten von /, level: 1 }),
  ).toBeVisible();

  // The keyboard shortcut overlay, key names included.
  await page.getByRole('button', { name: 'Tastenkombinationen' }).click();
  const help = page.getByRole('dialog', { name: 'Tastenkombinationen' });
  await expect(help.getByRole('heading', { name: 'Navigation' })).toBeVisible();
  await expect(help.getByText('Zum Posteingang')).toBeVisible();
  await expect(help.locator('kbd', { hasText: 'Umschalt' }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // And back to English, live again.
  await setLanguage('hamlet@example.com', 'en');
  await expect(page.getByRole('combobox', { name: 'Search messages' })).toBeVisible();
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeVisible();
  await page.context().close();
});

test('a browser set to German shows the login screen in German', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url, locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Bei .+ anmelden$/ })).toBeVisible();
  await page.getByLabel('E-Mail').fill('hamlet@example.com');
  await page.getByLabel('Passwort').fill('not the password');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await shot(page, 'login-de');
  await context.close();
});

test('German on a phone: the inbox and a topic fit the screen', async ({ browser }) => {
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  await cordelia.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'Phone check',
    content: 'Passt alles auf den Bildschirm?',
  });
  const page = await logIn(browser, server.url, 'othello@example.com', {
    viewport: { width: 390, height: 844 },
  });
  await setLanguage('othello@example.com', 'de');
  await expect(page.getByRole('heading', { name: 'Posteingang', level: 1 })).toBeVisible();
  await shot(page, 'inbox-de-phone');
  const general = await streamId('general');
  await page.goto(
    `/narrow/channel/${general}-general/topic/${encodeURIComponent('Phone check').replace(/%/g, '.')}`,
  );
  await expect(page.getByRole('separator', { name: 'Heute' }).first()).toBeVisible();
  await shot(page, 'topic-de-phone');
  await setLanguage('othello@example.com', 'en');
  await page.context().close();
});

/** A string of a language's catalog, by namespace and dotted key, as the app shows it. */
function catalog(language: string, namespace: string, key: string): string {
  const file = path.join(LOCALES, language, `${namespace}.json`);
  let node: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`${language}:${namespace}:${key} missing`);
  return node;
}

const LOCALES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/i18n/locales');

// The six languages besides English and German, by the server's code and the client's.
const LANGUAGES = [
  ['fr', 'fr'],
  ['es', 'es'],
  ['pt_BR', 'pt-BR'],
  ['ru', 'ru'],
  ['ja', 'ja'],
  ['zh-hans', 'zh-Hans'],
] as const;

test('French, Spanish, Portuguese, Russian, Japanese and Chinese each switch the whole interface', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'cordelia@example.com');
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  for (const [serverCode, code] of LANGUAGES) {
    await setLanguage('cordelia@example.com', serverCode);
    const text = (namespace: string, key: string) => catalog(code, namespace, key);
    await expect(page.locator('html')).toHaveAttribute('lang', code);
    await expect(
      page.getByRole('heading', { name: text('navigation', 'views.inbox'), level: 1 }),
    ).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: text('navigation', 'sidebar.label') }),
    ).toBeVisible();
    await expect(
      page.getByRole('button', { name: text('navigation', 'inbox.markAllRead') }),
    ).toBeVisible();
    await expect(page.getByRole('combobox', { name: text('search', 'box.label') })).toBeVisible();
    // No English left on the screen's main labels.
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toHaveCount(0);
    await shot(page, `inbox-${code}`);
  }

  // A language the interface is not translated into says so and stays in English.
  await setLanguage('cordelia@example.com', 'it');
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.goto('/settings/preferences');
  await expect(
    page.getByText('Parley is not translated into Italiano yet, so it is shown in English.'),
  ).toBeVisible();
  await setLanguage('cordelia@example.com', 'en');
  await page.context().close();
});
