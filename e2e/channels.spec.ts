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

/** Screenshots of a screen in light and dark, and at phone size. */
async function shots(page: Page, name: string) {
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/channels-${name}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  // The sidebar slides away at phone size: wait for it to settle before taking the picture.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  await page.screenshot({ path: `test-results/channels-${name}-phone.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test-results/channels-${name}-phone-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

/** A request as another client would make it, with any method. */
async function call(email: string, method: string, path: string, params: Record<string, string>) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const r = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
    body: new URLSearchParams(params),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Record<string, any>;
}

async function streamId(name: string) {
  const api = await apiClient(server.url, 'iago@example.com');
  return (await api.get(`/get_stream_id?stream=${name}`)).stream_id as number;
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Channels and views' });
const channelLink = (page: Page, name: string) =>
  sidebar(page).getByRole('link', { name: new RegExp(`^${name}(, \\d+ unread)?$`) });

test('personal settings: colour and pin show in the sidebar, notifications show their default', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const row = channelLink(hamlet, 'engineering');
  await row.hover();
  await sidebar(hamlet).getByRole('button', { name: 'Channel actions for engineering' }).click();
  const menu = hamlet.getByRole('menu', { name: 'Channel actions for engineering' });
  await expect(menu.getByRole('menuitem', { name: 'Pin to top' })).toBeVisible();
  await shots(hamlet, 'sidebar-menu');
  await menu.getByRole('menuitem', { name: 'Channel settings' }).click();

  await expect(hamlet).toHaveURL(/\/channels\/\d+\/personal$/);
  await expect(hamlet.getByRole('heading', { name: 'engineering: settings' })).toBeVisible();
  await expect(hamlet.getByRole('link', { name: 'Personal' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // A colour from the palette recolours the sidebar's swatch.
  await hamlet.getByRole('button', { name: 'Colour #b0a5fd' }).click();
  await expect(hamlet.getByRole('button', { name: 'Colour #b0a5fd' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(row.locator('.stream-swatch')).toHaveCSS('background-color', 'rgb(176, 165, 253)');

  // Pinned: the channel moves above "general", which comes first by name otherwise.
  const names = sidebar(hamlet).locator('.channel-sidebar-item > .sidebar-row .sidebar-name');
  await expect(names.first()).toHaveText('announce');
  await hamlet.getByRole('checkbox', { name: 'Pin to top' }).check();
  await expect(names.first()).toHaveText('engineering');
  await expect(sidebar(hamlet).getByRole('separator')).toBeVisible();

  // Desktop notifications follow the personal default (off) until set here.
  const desktop = hamlet.getByRole('checkbox', { name: 'Desktop notifications' });
  await expect(desktop).not.toBeChecked();
  await expect(hamlet.getByText('As the default (off)').first()).toBeVisible();
  await desktop.check();
  await expect(desktop).toBeChecked();
  await expect(hamlet.getByText('Set for this channel; your default is off')).toBeVisible();
  const api = await apiClient(server.url, 'hamlet@example.com');
  const subs = (await api.get('/users/me/subscriptions')).subscriptions as any[];
  const engineering = subs.find((s) => s.name === 'engineering');
  expect(engineering.desktop_notifications).toBe(true);
  expect(engineering.pin_to_top).toBe(true);
  expect(engineering.color).toBe('#b0a5fd');
  await shots(hamlet, 'personal');
  await hamlet.close();
});

test('an administrator edits general settings and a member sees them live, read-only', async ({
  browser,
}) => {
  const id = await streamId('engineering');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: `/channels/${id}/general`,
  });
  await expect(hamlet.getByText('Only administrators can change these settings.')).toBeVisible();
  await expect(hamlet.getByRole('textbox', { name: 'Name' })).toHaveCount(0);
  await expect(hamlet.getByText('Everyone', { exact: true })).toBeVisible();

  await iago.goto(`/channels/${id}/general`);
  const description = iago.getByRole('textbox', { name: 'Description' });
  await description.fill('Building things with **care**');
  await iago.getByRole('button', { name: 'Save changes' }).click();
  await expect(iago.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await iago.getByRole('combobox', { name: 'Who can post' }).selectOption({
    label: 'Moderators and administrators',
  });
  await expect(iago.getByRole('status').filter({ hasText: 'Saved' }).last()).toBeVisible();

  // Hamlet did nothing: the rendered description and the new policy arrive by event.
  await expect(hamlet.locator('.channel-facts strong', { hasText: 'care' })).toBeVisible();
  await expect(hamlet.getByText('Moderators and administrators')).toBeVisible();
  await shots(iago, 'general-admin');
  await shots(hamlet, 'general-readonly');

  // Privacy to private with protected history, also seen live.
  // Privacy asks first and says who loses access.
  await iago.getByRole('combobox', { name: 'Privacy' }).selectOption({ label: 'Private' });
  const confirm = iago.getByRole('dialog', { name: 'Change the privacy of #engineering?' });
  await expect(confirm).toContainText('everyone else loses access to it and its history');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(iago.getByRole('combobox', { name: 'Privacy' })).toHaveValue('public');
  await iago.getByRole('combobox', { name: 'Privacy' }).selectOption({ label: 'Private' });
  await confirm.getByRole('button', { name: 'Change privacy' }).click();
  await expect(hamlet.getByText('Private, shared history')).toBeVisible();
  await iago.getByRole('combobox', { name: 'History for new subscribers' }).selectOption({
    label: 'They see only messages sent after they join',
  });
  await expect(hamlet.getByText('Private, protected history')).toBeVisible();
  await expect(
    sidebar(hamlet)
      .getByRole('link', { name: /^engineering/ })
      .locator('svg'),
  ).toBeVisible();
  await iago.close();
  await hamlet.close();
});

test('subscribers are added and removed, and another window follows live', async ({ browser }) => {
  const id = await streamId('general');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: `/channels/${id}/subscribers`,
  });
  const count = async (page: Page) =>
    Number(
      /^(\d+)/.exec((await page.getByRole('heading', { name: /subscribers$/ }).innerText())!)![1],
    );
  const before = await count(hamlet);

  // The demo has everyone in general; take Othello out first, from the UI.
  await iago.goto(`/channels/${id}/subscribers`);
  await iago.getByRole('searchbox', { name: 'Search subscribers' }).fill('othello');
  await iago.getByRole('button', { name: 'Remove Othello, the Moor of Venice' }).click();
  await expect(iago.getByText('Nobody matches “othello”.')).toBeVisible();
  await expect(hamlet.getByRole('heading', { name: `${before - 1} subscribers` })).toBeVisible();
  await expect(
    hamlet.getByRole('list', { name: 'Subscribers' }).getByText('Othello, the Moor of Venice'),
  ).toHaveCount(0);

  // And back in, with the typeahead.
  await iago.getByRole('searchbox', { name: 'Search subscribers' }).fill('');
  const add = iago.getByRole('combobox', { name: 'Add people' });
  await add.fill('Othel');
  await iago.getByRole('option', { name: /Othello/ }).click();
  await expect(hamlet.getByRole('heading', { name: `${before} subscribers` })).toBeVisible();
  await expect(
    hamlet.getByRole('list', { name: 'Subscribers' }).getByText('Othello, the Moor of Venice'),
  ).toBeVisible();
  // A member may not remove others here: only their own row has a button.
  await expect(hamlet.getByRole('button', { name: /^Remove Othello/ })).toHaveCount(0);
  await expect(hamlet.getByRole('button', { name: 'Remove King Hamlet' })).toBeVisible();
  await shots(iago, 'subscribers');
  await iago.close();
  await hamlet.close();
});

test('archiving asks first, then the channel disappears for a member live', async ({ browser }) => {
  const hamletApi = await apiClient(server.url, 'hamlet@example.com');
  await call('iago@example.com', 'POST', '/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'e2e-archive', description: 'Short-lived' }]),
    principals: JSON.stringify([hamletApi.userId]),
  });
  const id = await streamId('e2e-archive');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await expect(channelLink(hamlet, 'e2e-archive')).toBeVisible();

  await iago.goto(`/channels/${id}/general`);
  await iago.getByRole('button', { name: 'Archive channel' }).click();
  const confirm = iago.getByRole('alertdialog', { name: /Archive #e2e-archive\?/ });
  await expect(confirm).toBeVisible();
  await shots(iago, 'archive-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(channelLink(hamlet, 'e2e-archive')).toBeVisible();

  await iago.getByRole('button', { name: 'Archive channel' }).click();
  await iago.getByRole('alertdialog').getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(iago).toHaveURL(/\/channels$/);
  await expect(channelLink(hamlet, 'e2e-archive')).toHaveCount(0);
  await iago.close();
  await hamlet.close();
});

test('administrators manage default channels and default channel groups', async ({ browser }) => {
  const iago = await logIn(browser, server.url, 'iago@example.com', {
    path: '/organization/default-channels',
  });
  const defaults = iago.getByRole('list', { name: 'Default channels' });
  await expect(defaults.getByText('#general')).toBeVisible();
  await iago.getByRole('combobox', { name: 'Add a default channel' }).selectOption({
    label: 'welcome',
  });
  await iago.getByRole('button', { name: 'Add', exact: true }).first().click();
  await expect(defaults.getByText('#welcome')).toBeVisible();
  await iago.getByRole('button', { name: 'Remove general from the default channels' }).click();
  await expect(defaults.getByText('#general')).toHaveCount(0);

  await iago.getByRole('textbox', { name: 'Group name' }).fill('Newcomers');
  await iago.getByRole('textbox', { name: 'Group description' }).fill('Where to start');
  const pick = iago.getByRole('group', { name: 'Channels in the group' });
  await pick.getByRole('checkbox', { name: 'general' }).check();
  await pick.getByRole('checkbox', { name: 'announce' }).check();
  await iago.getByRole('button', { name: 'Create group' }).click();
  const card = iago.getByRole('article', { name: 'Newcomers' });
  await expect(card.getByText('#announce')).toBeVisible();
  await expect(card.getByText('#general')).toBeVisible();
  await card.getByRole('button', { name: 'Remove announce from Newcomers' }).click();
  await expect(card.getByText('#announce')).toHaveCount(0);
  await shots(iago, 'defaults');

  const api = await apiClient(server.url, 'iago@example.com');
  const register = await api.post('/register', {
    fetch_event_types: JSON.stringify(['default_streams', 'default_stream_groups']),
  });
  expect(register.realm_default_streams.map((s: any) => s.name)).toEqual(['welcome']);
  expect(register.realm_default_stream_groups[0].name).toBe('Newcomers');

  await card.getByRole('button', { name: 'Delete Newcomers' }).click();
  await expect(card).toHaveCount(0);
  await iago.close();
});

test('a member creates a private channel with its settings and first subscribers', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await hamlet.goto('/channels');
  const form = hamlet.getByRole('form', { name: 'Create a channel' });
  await form.getByRole('textbox', { name: 'Name' }).fill('e2e-plans');
  await form.getByRole('textbox', { name: 'Description' }).fill('Our **secret** plans');
  await form.getByRole('radio', { name: /Private, protected history/ }).check();
  await form.getByRole('combobox', { name: 'Who can post' }).selectOption({ label: 'Everyone' });
  await form.getByRole('combobox', { name: 'Subscribers' }).fill('othel');
  await hamlet.getByRole('option', { name: /Othello/ }).click();
  await expect(form.getByRole('list', { name: 'People to subscribe' })).toContainText('Othello');
  await shots(hamlet, 'create');
  await form.getByRole('button', { name: 'Create channel' }).click();
  await expect(form.getByRole('status')).toContainText('#e2e-plans');

  // Othello was added, and sees the new channel in his sidebar without reloading.
  await expect(channelLink(othello, 'e2e-plans')).toBeVisible();
  const api = await apiClient(server.url, 'othello@example.com');
  const subs = (await api.get('/users/me/subscriptions')).subscriptions as any[];
  const plans = subs.find((s) => s.name === 'e2e-plans');
  expect(plans.invite_only).toBe(true);
  expect(plans.history_public_to_subscribers).toBe(false);
  expect(plans.description).toBe('Our **secret** plans');
  await hamlet.close();
  await othello.close();
});

test('the channel screens in German', async ({ browser }) => {
  await call('iago@example.com', 'PATCH', '/settings', { default_language: 'de' });
  const id = await streamId('general');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await expect(
    iago
      .getByRole('navigation', { name: 'Kanäle und Ansichten' })
      .getByRole('heading', { name: 'Kanäle' }),
  ).toBeVisible();
  await iago.goto(`/channels/${id}/personal`);
  await expect(iago.getByRole('link', { name: 'Persönlich' })).toBeVisible();
  await expect(iago.getByRole('checkbox', { name: 'Oben anheften' })).toBeVisible();
  await shots(iago, 'german-personal');
  await iago.getByRole('link', { name: 'Allgemein' }).click();
  await expect(iago.getByRole('button', { name: 'Kanal archivieren' })).toBeVisible();
  await expect(iago.getByRole('combobox', { name: 'Wer schreiben darf' })).toBeVisible();
  await iago.getByRole('link', { name: 'Abonnenten' }).click();
  await expect(iago.getByRole('heading', { name: /\d+ Abonnenten/ })).toBeVisible();
  await iago.goto('/channels');
  await expect(iago.getByRole('heading', { name: 'Kanal erstellen' })).toBeVisible();
  await iago.goto('/organization/default-channels');
  await expect(iago.getByRole('heading', { name: 'Standardkanalgruppen' })).toBeVisible();
  await call('iago@example.com', 'PATCH', '/settings', { default_language: 'en' });
  await iago.close();
});
