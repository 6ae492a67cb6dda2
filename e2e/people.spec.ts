import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, PASSWORD, PNG } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

/** The custom profile fields every test finds, by name: one of each of the eight types. */
const fieldIds: Record<string, number> = {};

test.beforeAll(async () => {
  await server.start();
  const iago = await apiClient(server.url, 'iago@example.com');
  const fields: Record<string, string>[] = [
    { name: 'Team', field_type: '1', display_in_profile_summary: 'true' },
    { name: 'Biography', field_type: '2' },
    {
      name: 'Favourite colour',
      field_type: '3',
      field_data: JSON.stringify({
        red: { text: 'Crimson', order: '1' },
        blue: { text: 'Azure', order: '2' },
      }),
    },
    { name: 'Birthday', field_type: '4' },
    { name: 'Website', field_type: '5' },
    { name: 'Mentor', field_type: '6' },
    { name: 'GitHub', field_type: '7', field_data: JSON.stringify({ subtype: 'github' }) },
    { name: 'Pronouns', field_type: '8', display_in_profile_summary: 'true' },
  ];
  for (const field of fields) {
    const created = await iago.post('/realm/profile_fields', field);
    expect(created.result, JSON.stringify(created)).toBe('success');
    fieldIds[field.name!] = created.id as number;
  }
});
test.afterAll(async () => {
  await server.stop();
});

/** A request as another client would make it (the helpers have no PATCH). */
async function request(email: string, method: string, path: string, body: Record<string, string>) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const r = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
    body: new URLSearchParams(body),
  });
  expect(r.status, await r.clone().text()).toBe(200);
}

async function userId(email: string) {
  return (await apiClient(server.url, email)).userId;
}

/** Screenshots in light and dark, and the page at phone size, for looking at the work. */
async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/people-${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function postTo(email: string, topic: string, content: string) {
  const api = await apiClient(server.url, email);
  const sent = await api.post('/messages', { type: 'stream', to: 'general', topic, content });
  expect(sent.result).toBe('success');
  return sent.id as number;
}

async function openTopic(page: Page, topic: string) {
  const api = await apiClient(server.url, 'hamlet@example.com');
  const id = (await api.get('/get_stream_id?stream=general')).stream_id as number;
  await page.goto(
    `/narrow/channel/${id}-general/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`,
  );
}

const card = (page: Page, name: string) => page.getByRole('dialog', { name });

test('a card from a message and from the people list shows role, address, local time and summary fields', async ({
  browser,
}) => {
  await request('othello@example.com', 'PATCH', '/users/me/profile_data', {
    data: JSON.stringify([
      { id: fieldIds.Team, value: 'Venetian navy' },
      { id: fieldIds.Pronouns, value: 'he/him' },
    ]),
  });
  await request('othello@example.com', 'POST', '/users/me/status', {
    status_text: 'At sea',
    emoji_name: 'ship',
  });
  await postTo('othello@example.com', 'cards', 'Hello from the fleet.');
  const page = await logIn(browser, server.url, 'cordelia@example.com');
  await openTopic(page, 'cards');

  const othello = 'Othello, the Moor of Venice';
  const message = page.getByRole('article', { name: new RegExp(`^${othello}`) });
  await message.getByRole('button', { name: othello }).click();
  const dialog = card(page, othello);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Member');
  await expect(dialog).toContainText('At sea');
  await expect(dialog.getByRole('img', { name: 'ship' })).toBeVisible();
  await expect(dialog.getByText('Local time')).toBeVisible();
  await expect(dialog.getByText('Venetian navy')).toBeVisible();
  await expect(dialog.getByText('he/him')).toBeVisible();
  const seen = await apiClient(server.url, 'cordelia@example.com');
  const them = (await seen.get(`/users/${await userId('othello@example.com')}`)).user;
  const address = them.delivery_email ?? (/^user\d+@/.test(them.email) ? null : them.email);
  if (address) await expect(dialog.getByRole('link', { name: address })).toBeVisible();
  await shots(page, 'card');

  // Escape closes it and gives the focus back to the name.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(message.getByRole('button', { name: othello })).toBeFocused();

  // From the people list; a click outside closes it.
  const people = page.getByRole('complementary', { name: 'People' });
  await people.getByRole('button', { name: new RegExp(`^${othello}`) }).click();
  await expect(card(page, othello)).toBeVisible();
  await page.getByRole('heading', { level: 1 }).first().click();
  await expect(card(page, othello)).toBeHidden();

  // At phone size the card sits at the bottom of the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await message.getByRole('button', { name: othello }).click();
  await expect(card(page, othello)).toBeVisible();
  await page.screenshot({ path: 'test-results/people-card-phone.png' });
});

test('a mention opens the card; from the card: direct message and messages sent', async ({
  browser,
}) => {
  const hamletId = await userId('hamlet@example.com');
  await postTo('othello@example.com', 'mentions', `Ask @**King Hamlet|${hamletId}** about it.`);
  const page = await logIn(browser, server.url, 'cordelia@example.com');
  await openTopic(page, 'mentions');
  await page.locator('.message-content .user-mention').first().click();
  const dialog = card(page, 'King Hamlet');
  await expect(dialog).toBeVisible();

  await dialog.getByRole('link', { name: 'Send direct message' }).click();
  await expect(page).toHaveURL(new RegExp(`/narrow/dm/${hamletId}`));
  await expect(dialog).toBeHidden();

  await page.locator('.message-content .user-mention').first().isVisible();
  await page
    .getByRole('complementary', { name: 'People' })
    .getByRole('button', { name: /^King Hamlet/ })
    .click();
  await card(page, 'King Hamlet').getByRole('link', { name: 'View messages sent' }).click();
  await expect(page).toHaveURL(new RegExp(`sender/${hamletId}`));
});

test('the full profile shows every kind of custom field', async ({ browser }) => {
  const othelloId = await userId('othello@example.com');
  await request('hamlet@example.com', 'PATCH', '/users/me/profile_data', {
    data: JSON.stringify([
      { id: fieldIds.Team, value: 'Royal court' },
      { id: fieldIds.Biography, value: 'Prince of **Denmark**' },
      { id: fieldIds['Favourite colour'], value: 'blue' },
      { id: fieldIds.Birthday, value: '1600-03-14' },
      { id: fieldIds.Website, value: 'https://elsinore.example.com/' },
      { id: fieldIds.Mentor, value: [othelloId] },
      { id: fieldIds.GitHub, value: 'hamlet-dane' },
      { id: fieldIds.Pronouns, value: 'he/him' },
    ]),
  });
  const hamletId = await userId('hamlet@example.com');
  const page = await logIn(browser, server.url, 'cordelia@example.com', {
    path: `/user/${hamletId}`,
  });
  await expect(page.getByRole('heading', { level: 1, name: 'King Hamlet' })).toBeVisible();
  const fields = page.getByRole('region', { name: 'Profile', exact: true });
  await expect(fields.getByText('Royal court')).toBeVisible();
  await expect(fields.locator('strong', { hasText: 'Denmark' })).toBeVisible();
  await expect(fields.getByText('Azure')).toBeVisible();
  await expect(fields.getByText('March 14, 1600')).toBeVisible();
  await expect(fields.getByRole('link', { name: 'https://elsinore.example.com/' })).toHaveAttribute(
    'href',
    'https://elsinore.example.com/',
  );
  await expect(fields.getByRole('link', { name: 'hamlet-dane' })).toHaveAttribute(
    'href',
    'https://github.com/hamlet-dane',
  );
  await expect(fields.getByText('he/him')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Groups' })).toBeVisible();
  await shots(page, 'profile');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/people-profile-phone.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The person field's names open their cards.
  await fields.getByRole('button', { name: 'Othello, the Moor of Venice' }).click();
  await expect(card(page, 'Othello, the Moor of Venice')).toBeVisible();
});

test('editing your own profile shows live in someone else’s window', async ({ browser }) => {
  const topic = 'live profile';
  await postTo('cordelia@example.com', topic, 'A word from me.');
  const cordeliaName = "Cordelia, Lear's daughter";
  const viewer = await logIn(browser, server.url, 'desdemona@example.com');
  await openTopic(viewer, topic);
  const me = await logIn(browser, server.url, 'cordelia@example.com', {
    path: '/settings/profile',
  });

  // The viewer opens the card and keeps it open.
  await viewer.getByRole('button', { name: cordeliaName }).first().click();
  await expect(card(viewer, cordeliaName)).toBeVisible();

  // Status: an emoji from the picker and a text.
  await me.getByRole('button', { name: 'Choose a status emoji' }).click();
  await me.getByRole('searchbox', { name: 'Search emoji' }).fill('coffee');
  await me.keyboard.press('Enter');
  await me.getByLabel('Status message').fill('Brewing');
  await me.getByRole('button', { name: 'Save status' }).click();
  await expect(card(viewer, cordeliaName)).toContainText('Brewing');

  // A custom field.
  await me.getByRole('textbox', { name: 'Team' }).fill('The royal family');
  await me.getByRole('button', { name: 'Save Team' }).click();
  await expect(card(viewer, cordeliaName)).toContainText('The royal family');

  // Away: the card says so.
  await me.getByRole('checkbox', { name: 'Set yourself as away' }).check();
  await expect(card(viewer, cordeliaName)).toContainText('Away');
  await me.getByLabel('Name', { exact: true }).scrollIntoViewIfNeeded();
  await shots(me, 'settings');
  await me.setViewportSize({ width: 390, height: 844 });
  await me.screenshot({ path: 'test-results/people-settings-phone.png', fullPage: true });
  await me.setViewportSize({ width: 1280, height: 800 });

  // Picture: the avatar in the message list changes.
  const message = viewer.getByRole('article', { name: new RegExp(`^${cordeliaName}`) });
  const before = await message.locator('img.avatar').getAttribute('src');
  await me.getByLabel('Profile picture file').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await expect.poll(async () => message.locator('img.avatar').getAttribute('src')).not.toBe(before);

  // Name: the card and the message list follow.
  await me.getByLabel('Name', { exact: true }).fill('Cordelia of Britain');
  await me.getByRole('button', { name: 'Save name' }).click();
  await expect(card(viewer, 'Cordelia of Britain')).toBeVisible();
  await expect(
    viewer.getByRole('article', { name: /^Cordelia of Britain/ }).getByRole('button', {
      name: 'Cordelia of Britain',
    }),
  ).toBeVisible();
});

test('in German', async ({ browser }) => {
  await request('shiva@example.com', 'PATCH', '/settings', { default_language: 'de' });
  const page = await logIn(browser, server.url, 'shiva@example.com');
  const people = page.getByRole('complementary', { name: 'Personen' });
  await expect(people.getByRole('heading', { name: 'Personen' })).toBeVisible();
  await people.getByRole('button', { name: /^King Hamlet/ }).click();
  const dialog = card(page, 'King Hamlet');
  await expect(dialog.getByRole('link', { name: 'Direktnachricht senden' })).toBeVisible();
  await expect(dialog.getByText('Ortszeit')).toBeVisible();
  await expect(dialog.getByText('Mitglied')).toBeVisible();
  await dialog.getByRole('link', { name: 'Vollständiges Profil ansehen' }).click();
  await expect(page.getByRole('heading', { name: 'Gruppen' })).toBeVisible();
  await page.goto('/settings/profile');
  await expect(page.getByRole('button', { name: 'Status speichern' })).toBeVisible();
  await expect(page.getByText('Unsichtbarer Modus')).toBeVisible();
});
