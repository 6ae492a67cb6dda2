import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { logIn, mailedLink, PASSWORD } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** A PATCH as another client would make it (the helpers have none). */
async function patch(email: string, path: string, params: Record<string, string>) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const r = await fetch(`${server.url}/api/v1${path}`, {
    method: 'PATCH',
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
    body: new URLSearchParams(params),
  });
  expect(r.status).toBe(200);
}

async function openSection(page: Page, section: string) {
  await page.goto(`/organization/${section}`);
  await expect(
    page.getByRole('heading', {
      name: section[0].toUpperCase() + section.slice(1),
      level: 2,
      exact: true,
    }),
  ).toBeVisible();
}

/** Light, dark and phone screenshots of what the page shows now. */
async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({
      path: `test-results/admin-users-${name}-${scheme}.png`,
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout closes the channel drawer; wait until it is gone.
  await page.waitForFunction(() => {
    const drawer = document.getElementById('left-sidebar')?.getBoundingClientRect();
    return !drawer || drawer.right <= 0 || drawer.width === 0;
  });
  await page.screenshot({
    path: `test-results/admin-users-${name}-phone.png`,
    fullPage: true,
    animations: 'disabled',
  });
  if (size) await page.setViewportSize(size);
}

test('a role change shows live, to the person and to another administrator; only owners make owners', async ({
  browser,
}) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const desdemona = await logIn(browser, server.url, 'desdemona@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com', { path: '/settings' });
  await expect(othello.getByRole('heading', { name: 'Personal settings', level: 1 })).toBeVisible();
  await expect(othello.getByRole('link', { name: 'Organization' })).toHaveCount(0);

  await openSection(iago, 'users');
  const people = iago.getByRole('table', { name: 'People in the organization' });
  // An administrator may not make owners, nor change an owner's role.
  const othelloRole = people.getByRole('combobox', { name: 'Role of Othello, the Moor of Venice' });
  // Between the two sidebars of a 1280-pixel window each person takes two lines (about 90
  // pixels), not a card of four labelled lines (about 200): a long list stays readable.
  const othelloRow = people.getByRole('row').filter({
    has: iago.getByRole('combobox', { name: 'Role of Othello, the Moor of Venice' }),
  });
  expect(await othelloRow.evaluate((row) => row.getBoundingClientRect().height)).toBeLessThan(110);
  await expect(othelloRow.getByRole('cell', { name: 'othello@example.com' })).toBeVisible();
  await expect(othelloRole.getByRole('option')).toHaveText([
    'Administrator',
    'Moderator',
    'Member',
    'Guest',
  ]);
  await expect(people.getByRole('combobox', { name: 'Role of Desdemona' })).toHaveCount(0);
  // An owner may.
  await openSection(desdemona, 'users');
  const ownerView = desdemona.getByRole('table', { name: 'People in the organization' });
  await expect(
    ownerView
      .getByRole('combobox', { name: 'Role of Othello, the Moor of Venice' })
      .getByRole('option'),
  ).toHaveText(['Owner', 'Administrator', 'Moderator', 'Member', 'Guest']);

  // A role change asks first, saying from what to what and what the role may do; cancelling
  // changes nothing.
  await othelloRole.selectOption({ label: 'Administrator' });
  const confirmRole = iago.getByRole('dialog', {
    name: 'Change the role of Othello, the Moor of Venice?',
  });
  await expect(confirmRole).toContainText(
    'Othello, the Moor of Venice will be Administrator instead of Member.',
  );
  await expect(confirmRole).toContainText('Administrators manage');
  await shots(iago, 'role-confirm');
  await confirmRole.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmRole).toHaveCount(0);
  await expect(othelloRole).toHaveValue('400');
  await expect(othello.getByRole('link', { name: 'Organization' })).toHaveCount(0);

  await othelloRole.selectOption({ label: 'Administrator' });
  await confirmRole.getByRole('button', { name: 'Change role' }).click();
  // Othello's own app now offers the organization's administration ...
  await expect(othello.getByRole('link', { name: 'Organization' })).toBeVisible();
  // ... and the other administrator sees the new role.
  await expect(
    ownerView.getByRole('combobox', { name: 'Role of Othello, the Moor of Venice' }),
  ).toHaveValue('200');
  await shots(iago, 'users');

  await othelloRole.selectOption({ label: 'Member' });
  await confirmRole.getByRole('button', { name: 'Change role' }).click();
  await expect(othello.getByRole('link', { name: 'Organization' })).toHaveCount(0);

  // Sorting and filtering.
  await iago.getByLabel('Role', { exact: true }).selectOption({ label: 'Owner' });
  await expect(people.getByRole('rowheader')).toHaveText([/Desdemona/]);
  await iago.getByLabel('Role', { exact: true }).selectOption({ label: 'All roles' });
  await iago.getByRole('searchbox', { name: 'Search people' }).fill('cordelia');
  await expect(people.getByRole('rowheader')).toHaveText([/Cordelia/]);
  await iago.getByRole('searchbox', { name: 'Search people' }).fill('');
});

test('deactivating someone asks first, logs them out, and they can be reactivated', async ({
  browser,
}) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const cordelia = await logIn(browser, server.url, 'cordelia@example.com');
  await openSection(iago, 'users');
  const people = iago.getByRole('table', { name: 'People in the organization' });

  await people.getByRole('button', { name: "Actions for Cordelia, Lear's daughter" }).click();
  await iago.getByRole('menuitem', { name: 'Deactivate' }).click();
  const dialog = iago.getByRole('dialog', { name: "Deactivate Cordelia, Lear's daughter?" });
  await expect(dialog).toContainText('cordelia@example.com');
  await shots(iago, 'deactivate-dialog');
  // Cancel leaves her be.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(people.getByText("Cordelia, Lear's daughter")).toBeVisible();

  await people.getByRole('button', { name: "Actions for Cordelia, Lear's daughter" }).click();
  await iago.getByRole('menuitem', { name: 'Deactivate' }).click();
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(people.getByText("Cordelia, Lear's daughter")).toHaveCount(0);
  // Her open app is logged out.
  await expect(cordelia.getByText(/deactivated/i).first()).toBeVisible();

  await iago.getByRole('tab', { name: /^Deactivated/ }).click();
  const deactivated = iago.getByRole('table', { name: 'Deactivated people' });
  await shots(iago, 'deactivated');
  await deactivated.getByRole('button', { name: "Actions for Cordelia, Lear's daughter" }).click();
  await iago.getByRole('menuitem', { name: 'Reactivate' }).click();
  await iago
    .getByRole('dialog', { name: "Reactivate Cordelia, Lear's daughter?" })
    .getByRole('button', { name: 'Reactivate' })
    .click();
  await expect(iago.getByText('No one has been deactivated.')).toBeVisible();
  await iago.getByRole('tab', { name: /^Active/ }).click();
  await expect(people.getByText("Cordelia, Lear's daughter")).toBeVisible();

  // She can log in again.
  const again = await logIn(browser, server.url, 'cordelia@example.com');
  await expect(again.getByRole('link', { name: /^Inbox/ })).toBeVisible();
});

test('an administrator renames someone; everyone sees the new name', async ({ browser }) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await openSection(iago, 'users');
  const people = iago.getByRole('table', { name: 'People in the organization' });
  await people.getByRole('button', { name: 'Actions for King Hamlet' }).click();
  await iago.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = iago.getByRole('dialog', { name: 'Edit King Hamlet' });
  await dialog.getByLabel('Full name').fill('Prince Hamlet');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(people.getByText('Prince Hamlet', { exact: true })).toBeVisible();
  await patch('iago@example.com', `/users/${await hamletId()}`, { full_name: 'King Hamlet' });
  await expect(people.getByText('King Hamlet', { exact: true })).toBeVisible();
});

async function hamletId(): Promise<number> {
  const r = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'hamlet@example.com', password: PASSWORD }),
  });
  return ((await r.json()) as { user_id: number }).user_id;
}

test('an email invitation is mailed, listed, and signs someone up; another is revoked', async ({
  browser,
}) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const desdemona = await logIn(browser, server.url, 'desdemona@example.com');
  await openSection(iago, 'invitations');
  await openSection(desdemona, 'invitations');
  await expect(desdemona.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();

  await iago.getByLabel('Email addresses').fill('sebastian@example.com, antonio@example.com');
  await iago.getByLabel('Invite as').selectOption({ label: 'Member' });
  await iago.getByRole('checkbox', { name: '#engineering' }).check();
  await iago.getByRole('button', { name: 'Send invitations' }).click();
  await expect(iago.getByText('Invitations sent')).toBeVisible();
  const pending = iago.getByRole('list', { name: 'Pending invitations' });
  await expect(pending.getByText('sebastian@example.com')).toBeVisible();
  // The other administrator sees them arrive (invites_changed).
  const ownerPending = desdemona.getByRole('list', { name: 'Pending invitations' });
  await expect(ownerPending.getByText('antonio@example.com')).toBeVisible();
  await shots(iago, 'invitations');

  // Revoking asks first, and the invitation leaves both lists.
  await pending
    .getByRole('button', { name: 'Revoke the invitation for antonio@example.com' })
    .click();
  await iago
    .getByRole('dialog', { name: 'Revoke the invitation for antonio@example.com?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(pending.getByText('antonio@example.com')).toHaveCount(0);
  await expect(ownerPending.getByText('antonio@example.com')).toHaveCount(0);

  // Resending mails the link again.
  await pending
    .getByRole('button', { name: 'Resend the invitation to sebastian@example.com' })
    .click();
  await iago
    .getByRole('dialog', { name: 'Resend the invitation to sebastian@example.com?' })
    .getByRole('button', { name: 'Resend' })
    .click();
  await expect(iago.getByRole('dialog')).toHaveCount(0);

  // Sebastian follows the mailed link and signs up.
  const link = mailedLink(server.dataDir, 'sebastian@example.com');
  const newcomer = await browser.newPage({ baseURL: server.url });
  await newcomer.goto(new URL(link).pathname);
  await newcomer.getByLabel('Full name').fill('Sebastian');
  await newcomer.getByLabel('Password').fill('twelfth-night-2');
  await newcomer.getByRole('button', { name: 'Create account' }).click();
  await expect(newcomer.getByRole('heading', { name: /Welcome to/ })).toBeVisible();
  // His invitation is used up, and he is among the people.
  await expect(pending.getByText('sebastian@example.com')).toHaveCount(0);
  await iago
    .getByRole('navigation', { name: 'Organization' })
    .getByRole('link', { name: 'Users' })
    .click();
  await expect(
    iago
      .getByRole('table', { name: 'People in the organization' })
      .getByText('Sebastian', { exact: true }),
  ).toBeVisible();
});

/** GET /users/me as a bot with this key: its status. */
async function asBot(email: string, key: string) {
  const r = await fetch(`${server.url}/api/v1/users/me`, {
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

test('a member creates a bot, uses its key, gets a new one and deactivates it; an administrator sees it live', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await openSection(iago, 'bots');
  const allBots = iago.getByRole('list', { name: 'All bots' });
  await expect(allBots.getByText('Elsinore Bot')).toBeVisible();

  await hamlet.goto('/settings/bots');
  await hamlet.getByLabel('Bot type').selectOption({ label: 'Generic' });
  await hamlet.getByLabel('Name', { exact: true }).fill('Weather Bot');
  await hamlet.getByLabel('Username').fill('weather');
  await hamlet.getByRole('button', { name: 'Create bot' }).click();
  const key = await hamlet.getByRole('textbox', { name: 'API key of Weather Bot' }).inputValue();
  expect(key).toMatch(/^\w{16,}$/);
  await expect(hamlet.getByRole('link', { name: 'Download zuliprc' })).toHaveAttribute(
    'href',
    /weather-bot%40parley.bots/,
  );
  // The key works with the API.
  const me = await asBot('weather-bot@parley.bots', key);
  expect(me.body).toMatchObject({ full_name: 'Weather Bot', is_bot: true });
  // The administrator sees the new bot arrive.
  await expect(allBots.getByText('Weather Bot')).toBeVisible();
  await shots(hamlet, 'bots');
  await shots(iago, 'bots-admin');

  // A new key: the old one stops working.
  const own = hamlet.getByRole('list', { name: 'Your bots' });
  await own.getByRole('button', { name: 'API key of Weather Bot' }).click();
  const keyDialog = hamlet.getByRole('dialog', { name: 'API key of Weather Bot' });
  await keyDialog.getByRole('button', { name: 'Generate a new key' }).click();
  await expect(keyDialog.getByText('New key generated')).toBeVisible();
  const fresh = await keyDialog
    .getByRole('textbox', { name: 'API key of Weather Bot' })
    .inputValue();
  expect(fresh).not.toBe(key);
  expect((await asBot('weather-bot@parley.bots', key)).status).toBe(401);
  expect((await asBot('weather-bot@parley.bots', fresh)).status).toBe(200);
  await keyDialog.getByRole('button', { name: 'Close' }).click();

  // Renamed, live for the administrator.
  await own.getByRole('button', { name: 'Edit Weather Bot' }).click();
  const edit = hamlet.getByRole('dialog', { name: 'Edit Weather Bot' });
  await edit.getByLabel('Name').fill('Forecast Bot');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(allBots.getByText('Forecast Bot')).toBeVisible();

  // Deactivated after a confirmation; its key is refused; reactivated.
  await own.getByRole('button', { name: 'Deactivate Forecast Bot' }).click();
  await hamlet
    .getByRole('dialog', { name: 'Deactivate Forecast Bot?' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await expect(own.getByRole('button', { name: 'Reactivate Forecast Bot' })).toBeVisible();
  await expect(allBots.getByRole('button', { name: 'Reactivate Forecast Bot' })).toBeVisible();
  expect((await asBot('weather-bot@parley.bots', fresh)).status).toBe(401);
  await own.getByRole('button', { name: 'Reactivate Forecast Bot' }).click();
  await hamlet
    .getByRole('dialog', { name: 'Reactivate Forecast Bot?' })
    .getByRole('button', { name: 'Reactivate' })
    .click();
  await expect(own.getByRole('button', { name: 'Deactivate Forecast Bot' })).toBeVisible();
  expect((await asBot('weather-bot@parley.bots', fresh)).status).toBe(200);
});

test('the administration screens speak German', async ({ browser }) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await patch('iago@example.com', '/settings', { default_language: 'de' });
  await iago.goto('/organization/users');
  await expect(
    iago.getByRole('heading', { name: 'Benutzer', level: 2, exact: true }),
  ).toBeVisible();
  await expect(iago.getByRole('table', { name: 'Personen in der Organisation' })).toBeVisible();
  await expect(iago.getByRole('button', { name: 'Zuletzt aktiv' })).toBeVisible();
  await expect(iago.getByRole('tab', { name: /^Deaktiviert/ })).toBeVisible();
  await iago.getByRole('button', { name: 'Aktionen für King Hamlet' }).click();
  await iago.getByRole('menuitem', { name: 'Deaktivieren' }).click();
  await expect(iago.getByRole('dialog', { name: 'King Hamlet deaktivieren?' })).toBeVisible();
  await iago.getByRole('button', { name: 'Abbrechen' }).click();
  await shots(iago, 'users-de');

  await iago.goto('/organization/invitations');
  await expect(
    iago.getByRole('heading', { name: 'Einladungen', level: 2, exact: true }),
  ).toBeVisible();
  await expect(iago.getByLabel('E-Mail-Adressen')).toBeVisible();
  await expect(iago.getByRole('button', { name: 'Einladungen senden' })).toBeVisible();
  await expect(iago.getByRole('button', { name: 'Einladungslink erstellen' })).toBeVisible();
  await shots(iago, 'invitations-de');

  await iago.goto('/organization/bots');
  await expect(iago.getByRole('heading', { name: 'Bots', level: 2, exact: true })).toBeVisible();
  await expect(iago.getByRole('list', { name: 'Alle Bots' })).toBeVisible();
  await expect(iago.getByRole('button', { name: 'Bot erstellen' })).toBeVisible();
  await expect(iago.getByLabel('Bot-Typ')).toBeVisible();
  await patch('iago@example.com', '/settings', { default_language: 'en' });
});
