import { expect, test, type Locator, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, mailedLink } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

const SECTIONS = ['account', 'preferences', 'notifications', 'privacy'] as const;
const TITLES = {
  account: 'Account',
  preferences: 'Preferences',
  notifications: 'Notifications',
  privacy: 'Privacy',
};

/** A titled group of settings ("Channels"), where equally named controls are told apart. */
const group = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The confirmation beside a control, once the server has saved it. */
async function saved(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: 'Saved' }).first()).toBeVisible();
}

/**
 * Sets a checkbox that saves itself. Its checked state follows the save and then the server's
 * event, so it is clicked once and then awaited, rather than checked and read back at once.
 */
async function toggle(box: Locator, checked: boolean) {
  await expect(box).toBeChecked({ checked: !checked });
  await box.click();
  await expect(box).toBeChecked({ checked });
}

test('preferences, notifications and privacy save at once and arrive live in a second tab', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'hamlet@example.com');
  const other = await logIn(browser, server.url, 'hamlet@example.com');
  await page.goto('/settings/preferences');
  await other.goto('/settings/preferences');

  // Preferences: layout width applies to the whole app, in both tabs.
  await page.getByLabel('Layout width').selectOption({ label: 'Full width' });
  await saved(page);
  await expect(page.locator('html')).toHaveAttribute('data-fluid-layout', 'true');
  await expect(other.getByLabel('Layout width')).toHaveValue('true');
  await expect(other.locator('html')).toHaveAttribute('data-fluid-layout', 'true');

  await page
    .getByLabel('Home view', { exact: true })
    .selectOption({ label: 'Recent conversations' });
  await expect(other.getByLabel('Home view', { exact: true })).toHaveValue('recent_topics');
  await page.getByLabel('Demote inactive channels').selectOption({ label: 'Never' });
  await expect(other.getByLabel('Demote inactive channels')).toHaveValue('3');
  await page.getByLabel('Time zone', { exact: true }).selectOption('Asia/Tokyo');
  await expect(other.getByLabel('Time zone', { exact: true })).toHaveValue('Asia/Tokyo');
  await toggle(page.getByRole('checkbox', { name: 'Show counts for starred messages' }), false);
  await expect(
    other.getByRole('checkbox', { name: 'Show counts for starred messages' }),
  ).not.toBeChecked();

  // Notifications: the same label in two groups stays two settings.
  await page.goto('/settings/notifications');
  await other.goto('/settings/notifications');
  await toggle(
    group(page, 'Channels').getByRole('checkbox', { name: 'Desktop notifications', exact: true }),
    true,
  );
  await saved(page);
  await expect(
    group(other, 'Channels').getByRole('checkbox', { name: 'Desktop notifications', exact: true }),
  ).toBeChecked();
  await expect(
    group(other, 'Followed topics').getByRole('checkbox', {
      name: 'Desktop notifications',
      exact: true,
    }),
  ).toBeChecked();
  await page.getByLabel('Notification sound').selectOption({ label: 'None' });
  await expect(other.getByLabel('Notification sound')).toHaveValue('none');
  await page
    .getByLabel('Delay before sending message notification emails')
    .selectOption({ label: '1 hour' });
  await expect(other.getByLabel('Delay before sending message notification emails')).toHaveValue(
    '3600',
  );
  await toggle(page.getByRole('checkbox', { name: "Send digest emails when I'm away" }), false);
  await expect(
    other.getByRole('checkbox', { name: "Send digest emails when I'm away" }),
  ).not.toBeChecked();

  // Privacy: invisible mode and who sees the address.
  await page.goto('/settings/privacy');
  await other.goto('/settings/privacy');
  await toggle(
    page.getByRole('checkbox', { name: 'Display my availability to other users' }),
    false,
  );
  await saved(page);
  await expect(
    other.getByRole('checkbox', { name: 'Display my availability to other users' }),
  ).not.toBeChecked();
  await page.getByLabel('Who can access your email address').selectOption({ label: 'Nobody' });
  await expect(other.getByLabel('Who can access your email address')).toHaveValue('4');

  // All of it is stored on the server.
  const api = await apiClient(server.url, 'hamlet@example.com');
  const settings = (
    await api.post('/register', {
      client_capabilities: JSON.stringify({ user_settings_object: true }),
    })
  ).user_settings;
  expect(settings).toMatchObject({
    fluid_layout_width: true,
    web_home_view: 'recent_topics',
    timezone: 'Asia/Tokyo',
    enable_stream_desktop_notifications: true,
    notification_sound: 'none',
    email_notifications_batching_period_seconds: 3600,
    presence_enabled: false,
    email_address_visibility: 4,
  });
});

test('alert words are added and removed, in both tabs', async ({ browser }) => {
  const page = await logIn(browser, server.url, 'othello@example.com');
  const other = await logIn(browser, server.url, 'othello@example.com');
  await page.goto('/settings/notifications');
  await other.goto('/settings/notifications');
  const words = group(page, 'Alert words');
  await expect(words.getByText('You have no alert words yet.')).toBeVisible();

  await words.getByLabel('New alert word').fill('handkerchief');
  await words.getByRole('button', { name: 'Add alert word' }).click();
  await expect(words.getByRole('list', { name: 'Your alert words' })).toContainText('handkerchief');
  await expect(words.getByLabel('New alert word')).toHaveValue('');
  await expect(
    group(other, 'Alert words').getByRole('list', { name: 'Your alert words' }),
  ).toContainText('handkerchief');

  await words.getByLabel('New alert word').fill('Handkerchief');
  await expect(words.getByText('Already in your list.')).toBeVisible();
  await expect(words.getByRole('button', { name: 'Add alert word' })).toBeDisabled();

  await words.getByRole('button', { name: 'Remove handkerchief' }).click();
  await expect(group(other, 'Alert words').getByText('You have no alert words yet.')).toBeVisible();
});

test('a bad email address is refused at its control; a good one is confirmed by mail', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'cordelia@example.com', {
    path: '/settings/account',
  });
  const email = group(page, 'Email address');
  await expect(email).toContainText('cordelia@example.com');

  await email.getByLabel('New address').fill('not-an-address');
  await email.getByLabel('New address').press('Enter');
  await expect(email.getByRole('alert')).toHaveText("Invalid email 'not-an-address'");

  await email.getByLabel('New address').fill('cordelia.new@example.com');
  await email.getByRole('button', { name: 'Change email' }).click();
  await expect(email.getByRole('status')).toContainText(
    'Check your inbox at cordelia.new@example.com',
  );
  await expect(email.getByRole('alert')).toHaveCount(0);

  // Following the mailed link changes the address; as with the reference server, the API login
  // is by address, so the app asks to log in again, and the new address works.
  const link = mailedLink(server.dataDir, 'cordelia.new@example.com');
  const confirm = await page.context().newPage();
  await confirm.goto(link);
  await expect(confirm.getByText('Your email address is now')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You have been logged out' })).toBeVisible();
  const again = await logIn(browser, server.url, 'cordelia.new@example.com', {
    path: '/settings/account',
  });
  await expect(group(again, 'Email address')).toContainText('cordelia.new@example.com');
});

test('deactivating the own account asks first; the last owner is refused', async ({ browser }) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com', {
    path: '/settings/account',
  });
  await owner.getByRole('button', { name: 'Deactivate account' }).click();
  const dialog = owner.getByRole('alertdialog', { name: 'Deactivate your account?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('owner');
  await owner.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  const guest = await logIn(browser, server.url, 'polonius@example.com', {
    path: '/settings/account',
  });
  await guest.getByRole('button', { name: 'Deactivate account' }).click();
  await guest
    .getByRole('alertdialog')
    .getByRole('button', { name: 'Deactivate', exact: true })
    .click();
  await expect(guest.getByRole('button', { name: 'Log in' })).toBeVisible();
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'polonius@example.com', password: 'parley-demo' }),
  });
  expect(login.status).not.toBe(200);
});

test('switching to Deutsch changes the interface at once, and back', async ({ browser }) => {
  const page = await logIn(browser, server.url, 'iago@example.com');
  const other = await logIn(browser, server.url, 'iago@example.com');
  await page.goto('/settings/preferences');

  await page.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await expect(page.getByRole('link', { name: 'Einstellungen', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Persönliche Einstellungen' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Präferenzen', level: 2 })).toBeVisible();
  await expect(page.getByLabel('Sprache')).toHaveValue('de');
  await expect(page.getByLabel('Uhrzeitformat')).toBeVisible();
  // The other tab follows.
  await expect(other.getByRole('link', { name: 'Einstellungen', exact: true })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Persönliche Einstellungen' });
  await nav.getByRole('link', { name: 'Benachrichtigungen' }).click();
  await expect(
    group(page, 'Kanäle').getByRole('checkbox', {
      name: 'Desktop-Benachrichtigungen',
      exact: true,
    }),
  ).toBeVisible();
  await expect(page.getByRole('option', { name: '2 Minuten' })).toBeAttached();
  await nav.getByRole('link', { name: 'Privatsphäre' }).click();
  await expect(page.getByRole('heading', { name: 'Stummgeschaltete Personen' })).toBeVisible();
  await nav.getByRole('link', { name: 'Konto' }).click();
  await expect(page.getByRole('button', { name: 'Konto deaktivieren' })).toBeVisible();
  await expect(page.getByLabel('Aktuelles Passwort')).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-account-de.png', fullPage: true });

  await nav.getByRole('link', { name: 'Präferenzen' }).click();
  await page.getByLabel('Sprache').selectOption({ label: 'English' });
  await expect(page.getByRole('link', { name: 'Settings', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Preferences', level: 2 })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Settings', exact: true })).toBeVisible();
});

test('screenshots of every settings section in light, dark and phone size', async ({ browser }) => {
  const page = await logIn(browser, server.url, 'shiva@example.com');
  await (
    await apiClient(server.url, 'shiva@example.com')
  ).post('/users/me/alert_words', {
    alert_words: JSON.stringify(['release', 'outage']),
  });
  // Tall enough that each section shows whole (the settings scroll inside the page).
  await page.setViewportSize({ width: 1280, height: 2600 });
  for (const section of SECTIONS) {
    await page.goto(`/settings/${section}`);
    await expect(page.getByRole('heading', { level: 2, name: TITLES[section] })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await page.screenshot({
        path: `test-results/settings-${section}-${scheme}.png`,
        fullPage: true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings');
  await expect(page.getByRole('navigation', { name: 'Personal settings' })).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-list-phone.png' });
  for (const section of SECTIONS) {
    await page.goto(`/settings/${section}`);
    await expect(page.getByRole('link', { name: 'All of Personal settings' })).toBeVisible();
    await page.screenshot({ path: `test-results/settings-${section}-phone.png`, fullPage: true });
  }
  await page.goto('/settings/account');
  await page.getByRole('button', { name: 'Deactivate account' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-deactivate-phone.png' });
});
