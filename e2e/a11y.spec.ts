/**
 * Accessibility: axe-core (through @axe-core/playwright) on every view and the states people meet
 * (menus, dialogs, compose, search), in both themes, at desktop and phone size. A violation of
 * serious or critical impact fails the test and is listed by rule, element and page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn } from './helpers';

const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * The serious and critical violations on the page as it is now, in both themes (at phone size the
 * light theme only: the colours are the desktop's, checked there).
 */
async function violations(page: Page, state: string): Promise<string[]> {
  const found: string[] = [];
  const phone = (page.viewportSize()?.width ?? 1280) < 760;
  for (const scheme of phone ? (['light'] as const) : (['light', 'dark'] as const)) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    // Every rule in the light theme; the dark theme changes only colours, so only contrast.
    const builder = new AxeBuilder({ page });
    const result = await (
      scheme === 'light'
        ? builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        : builder.withRules(['color-contrast'])
    ).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      for (const node of v.nodes)
        found.push(
          `${state} (${scheme}): ${v.id} [${v.impact}] ${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? v.help}`,
        );
    }
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  return found;
}

/**
 * Views by address, each waited for by something it shows; at phone size the ones whose layout
 * differs most (a sample: axe takes about a second a page on this machine, more under load).
 */
const PHONE_VIEWS = new Set([
  'inbox',
  'topic',
  'direct messages',
  'settings: preferences',
  'organization: users',
  'channels',
  'profile',
]);

function views(ids: { general: number; engineering: number; hamlet: number }) {
  return [
    ['inbox', '/inbox', 'heading'],
    ['recent', '/recent', 'heading'],
    ['feed', '/feed', 'article'],
    ['channel', `/narrow/channel/${ids.general}-general`, 'article'],
    ['topic', `/narrow/channel/${ids.engineering}-engineering/topic/release.201.2`, 'article'],
    ['direct messages', `/narrow/dm/${ids.hamlet}`, 'heading'],
    ['starred', '/narrow/starred', 'heading'],
    ['search', '/narrow/search/release', 'heading'],
    ['drafts', '/drafts', 'heading'],
    ['scheduled', '/scheduled', 'heading'],
    ['settings: profile', '/settings/profile', 'heading'],
    ['settings: preferences', '/settings/preferences', 'heading'],
    ['settings: notifications', '/settings/notifications', 'heading'],
    ['organization: settings', '/organization/settings', 'heading'],
    ['organization: permissions', '/organization/permissions', 'heading'],
    ['organization: users', '/organization/users', 'heading'],
    ['organization: bots', '/organization/bots', 'heading'],
    ['channels', '/channels', 'heading'],
    ['channel settings', `/channels/${ids.general}`, 'heading'],
    ['groups', '/groups', 'heading'],
    ['profile', `/user/${ids.hamlet}`, 'heading'],
  ] as const;
}

for (const size of SIZES) {
  test(`axe finds no serious violation on any view, ${size.name}`, async ({ browser }) => {
    // Some 40 analyses of whole pages: generous, for a loaded machine.
    test.setTimeout(420_000);
    const api = await apiClient(server.url, 'iago@example.com');
    const ids = {
      general: (await api.get('/get_stream_id?stream=general')).stream_id as number,
      engineering: (await api.get('/get_stream_id?stream=engineering')).stream_id as number,
      hamlet: (await apiClient(server.url, 'hamlet@example.com')).userId,
    };
    const page = await logIn(browser, server.url, 'iago@example.com', {
      viewport: { width: size.width, height: size.height },
    });
    const found: string[] = [];
    for (const [name, url, waitFor] of views(ids)) {
      if (size.name === 'phone' && !PHONE_VIEWS.has(name)) continue;
      await page.goto(url);
      await page.getByRole(waitFor).first().waitFor();
      // A view's chunk or data may still be loading: check what people see once it is there.
      await expect(page.locator('main').getByText(/^Loading/)).toHaveCount(0);
      found.push(...(await violations(page, name)));
    }

    // States: the message actions menu, the delete dialog, the search suggestions, compose.
    await page.goto(`/narrow/channel/${ids.engineering}-engineering/topic/release.201.2`);
    const message = page.locator('article.message').last();
    await message.click({ position: { x: 5, y: 5 } });
    await message.hover();
    await message.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menu', { name: 'Message actions' }).waitFor();
    found.push(...(await violations(page, 'message actions menu')));
    await page.keyboard.press('Escape');
    const search = page.getByRole('combobox', { name: 'Search messages' });
    if (await search.isVisible()) {
      await search.click();
      await search.fill('has:');
      await page.getByRole('listbox').first().waitFor();
      found.push(...(await violations(page, 'search suggestions')));
      await page.keyboard.press('Escape');
    }
    // Compose by its shortcut, from nowhere in particular (on a phone it opens the folded box).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('c');
    await page.getByLabel('Message', { exact: true }).waitFor();
    found.push(...(await violations(page, 'compose')));
    await page.context().close();

    // The login screen and a visitor's view, without an account.
    const visitorContext = await browser.newContext({
      baseURL: server.url,
      viewport: { width: size.width, height: size.height },
    });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await visitor.getByLabel('Email').waitFor();
    found.push(...(await violations(visitor, 'login')));
    await visitor
      .getByRole('button', { name: 'Browse the public channels without an account' })
      .click();
    await visitor.locator('article.message').first().waitFor();
    found.push(...(await violations(visitor, 'visitor')));
    await visitorContext.close();

    expect(found, found.join('\n')).toEqual([]);
  });
}
