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

/** The screen in light and dark, saved for looking at (test-results/groups-<name>-<scheme>.png). */
async function shot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/groups-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A request as another client would make it (the helpers have no PATCH). */
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

/** A group made by `email` through the API, with the given members; its id. */
async function makeGroup(email: string, name: string, memberEmails: string[], description = '') {
  const api = await apiClient(server.url, email);
  const members = await Promise.all(
    memberEmails.map(async (m) => (await apiClient(server.url, m)).userId),
  );
  const created = await api.post('/user_groups/create', {
    name,
    description,
    members: JSON.stringify(members),
  });
  expect(created.result).toBe('success');
  const groups = (await api.get('/user_groups')).user_groups as { id: number; name: string }[];
  return groups.find((g) => g.name === name)!.id;
}

const groupList = (page: Page, tab: 'Your groups' | 'All groups') =>
  page.getByRole('tabpanel').getByRole('list', { name: tab });

test('a member creates a group with people, renames and describes it, and changes its members, live for another member', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');

  // Othello watches all groups while Hamlet creates one.
  await othello.getByRole('link', { name: 'User groups' }).click();
  await expect(othello).toHaveURL(/\/groups$/);
  await othello.getByRole('tab', { name: 'All groups' }).click();

  await hamlet.getByRole('link', { name: 'User groups' }).click();
  await hamlet.getByRole('link', { name: 'Create user group' }).click();
  await expect(hamlet).toHaveURL(/\/groups\/new$/);
  await hamlet.getByLabel('Name').fill('e2e bards');
  await hamlet.getByLabel('Description').fill('Those who write the verses');
  // Hamlet is in it from the start; Othello is added through the typeahead.
  const chosen = hamlet.getByRole('list', { name: 'Members of the new group' });
  await expect(chosen.getByText('King Hamlet')).toBeVisible();
  await hamlet.getByRole('combobox', { name: 'Add members' }).pressSequentially('Othel');
  await hamlet.getByRole('option', { name: /Othello/ }).click();
  await expect(chosen.getByText('Othello, the Moor of Venice')).toBeVisible();
  await hamlet.getByRole('button', { name: 'Create group' }).click();

  // The creator lands on the group's panel; the other member sees the group appear in the list.
  await expect(hamlet.getByRole('heading', { name: 'e2e bards', level: 1 })).toBeVisible();
  await expect(hamlet).toHaveURL(/\/groups\/\d+$/);
  const groupUrl = new URL(hamlet.url()).pathname;
  const row = groupList(othello, 'All groups')
    .getByRole('listitem')
    .filter({ hasText: 'e2e bards' });
  await expect(row).toContainText('2 members');
  await expect(row).toContainText('Those who write the verses');
  await othello.getByRole('tab', { name: 'Your groups' }).click();
  await groupList(othello, 'Your groups').getByRole('link', { name: 'e2e bards' }).click();
  await expect(othello).toHaveURL(groupUrl);
  const othelloMembers = othello.getByRole('list', { name: 'Members of e2e bards' });
  await expect(othelloMembers.getByRole('listitem')).toHaveCount(2);

  // Hamlet adds Cordelia: both panels show her.
  await hamlet.getByRole('combobox', { name: 'Add a member' }).pressSequentially('Cordel');
  await hamlet.getByRole('option', { name: /Cordelia/ }).click();
  const hamletMembers = hamlet.getByRole('list', { name: 'Members of e2e bards' });
  await expect(hamletMembers.getByText("Cordelia, Lear's daughter")).toBeVisible();
  await expect(othelloMembers.getByText("Cordelia, Lear's daughter")).toBeVisible();
  await expect(othello.getByRole('heading', { name: '3 members' })).toBeVisible();

  // And removes her again.
  await hamlet
    .getByRole('button', { name: "Remove Cordelia, Lear's daughter from the group" })
    .click();
  await expect(othelloMembers.getByText("Cordelia, Lear's daughter")).toHaveCount(0);
  await expect(othello.getByRole('heading', { name: '2 members' })).toBeVisible();

  // Renaming and describing: the other window follows.
  await hamlet.getByLabel('Name').fill('e2e poets');
  await hamlet.getByLabel('Description').fill('Verses, sonnets and the odd limerick');
  await hamlet.getByRole('button', { name: 'Save changes' }).click();
  await expect(hamlet.getByRole('form', { name: 'About' }).getByRole('status')).toHaveText('Saved');
  await expect(othello.getByRole('heading', { name: 'e2e poets', level: 1 })).toBeVisible();
  await expect(othello.getByLabel('Description')).toHaveValue(
    'Verses, sonnets and the odd limerick',
  );

  // Who may mention it: a setting the members may change.
  const mention = hamlet.getByLabel('Who can mention this group');
  const members = mention.locator('option', { hasText: 'Members (everyone but guests)' });
  const membersId = (await members.getAttribute('value'))!;
  await mention.selectOption(membersId);
  await expect(mention).toHaveValue(membersId);
  await expect(othello.getByLabel('Who can mention this group')).toHaveValue(membersId);

  // Screenshots: the list and the panel, light and dark, then at phone size.
  await shot(hamlet, 'panel');
  await hamlet.getByRole('button', { name: 'Delete group' }).scrollIntoViewIfNeeded();
  await shot(hamlet, 'panel-lower');
  await hamlet.getByRole('link', { name: 'All user groups' }).click();
  await expect(
    groupList(hamlet, 'Your groups').getByRole('link', { name: 'e2e poets' }),
  ).toBeVisible();
  await shot(hamlet, 'list');
  await hamlet.goto('/groups/new');
  await expect(hamlet.getByRole('heading', { name: 'Create a user group' })).toBeVisible();
  await shot(hamlet, 'create');

  const phone = await logIn(browser, server.url, 'hamlet@example.com', {
    viewport: { width: 390, height: 844 },
  });
  await phone.goto('/groups');
  await expect(
    groupList(phone, 'Your groups').getByRole('link', { name: 'e2e poets' }),
  ).toBeVisible();
  await shot(phone, 'list-phone');
  await phone.goto(groupUrl);
  await expect(phone.getByRole('heading', { name: 'e2e poets', level: 1 })).toBeVisible();
  await shot(phone, 'panel-phone');
});

test('people outside a group see it without edit controls, and guests cannot create groups', async ({
  browser,
}) => {
  const id = await makeGroup(
    'hamlet@example.com',
    'e2e readers',
    ['hamlet@example.com'],
    'Readers',
  );
  const cordelia = await logIn(browser, server.url, 'cordelia@example.com', {
    path: `/groups/${id}`,
  });
  await expect(cordelia.getByRole('heading', { name: 'e2e readers', level: 1 })).toBeVisible();
  await expect(cordelia.getByRole('note')).toContainText(
    "Only the group's members, moderators and administrators can change this group.",
  );
  await expect(cordelia.getByText('Readers', { exact: true })).toBeVisible();
  await expect(
    cordelia.getByRole('list', { name: 'Members of e2e readers' }).getByText('King Hamlet'),
  ).toBeVisible();
  await expect(cordelia.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(cordelia.getByRole('combobox', { name: 'Add a member' })).toHaveCount(0);
  await expect(cordelia.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(cordelia.getByRole('button', { name: 'Delete group' })).toHaveCount(0);
  await expect(cordelia.getByLabel('Who can mention this group')).toHaveCount(0);
  await shot(cordelia, 'panel-readonly');

  // A moderator may manage any group.
  const shiva = await logIn(browser, server.url, 'shiva@example.com', { path: `/groups/${id}` });
  await expect(shiva.getByRole('button', { name: 'Delete group' })).toBeVisible();

  // When the organization limits groups to administrators, a member's controls go away live.
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', { path: `/groups/${id}` });
  await expect(hamlet.getByRole('button', { name: 'Save changes' })).toBeVisible();
  await patch('iago@example.com', '/realm', { user_group_edit_policy: '2' });
  await expect(hamlet.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await hamlet.getByRole('link', { name: 'All user groups' }).click();
  await expect(hamlet.getByRole('link', { name: 'Create user group' })).toHaveCount(0);
  await patch('iago@example.com', '/realm', { user_group_edit_policy: '1' });
  await expect(hamlet.getByRole('link', { name: 'Create user group' })).toBeVisible();

  const polonius = await logIn(browser, server.url, 'polonius@example.com', { path: '/groups' });
  await expect(polonius.getByRole('heading', { name: 'User groups', level: 1 })).toBeVisible();
  await expect(polonius.getByRole('link', { name: 'Create user group' })).toHaveCount(0);
  await expect(
    polonius.getByRole('heading', { name: 'You are not in any group yet' }),
  ).toBeVisible();
  await polonius.getByRole('searchbox', { name: 'Search groups' }).fill('zzz');
  await expect(polonius.getByRole('heading', { name: 'No group matches “zzz”' })).toBeVisible();
});

test('deleting a group asks first, and the group leaves everyone’s list', async ({ browser }) => {
  const id = await makeGroup('hamlet@example.com', 'e2e doomed', [
    'hamlet@example.com',
    'othello@example.com',
  ]);
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com', { path: '/groups' });
  const othelloRow = groupList(othello, 'Your groups').getByRole('link', { name: 'e2e doomed' });
  await expect(othelloRow).toBeVisible();

  await hamlet.goto(`/groups/${id}`);
  await hamlet.getByRole('button', { name: 'Delete group' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Delete e2e doomed?' });
  await expect(dialog).toContainText('2 memberships');
  await shot(hamlet, 'delete-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(hamlet.getByRole('heading', { name: 'e2e doomed', level: 1 })).toBeVisible();

  await hamlet.getByRole('button', { name: 'Delete group' }).click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(hamlet).toHaveURL(/\/groups$/);
  await expect(othelloRow).toHaveCount(0);
  await expect(groupList(hamlet, 'Your groups').getByText('e2e doomed')).toHaveCount(0);
});

test('a group mention picked in compose reaches the group’s members in their Mentions', async ({
  browser,
}) => {
  await makeGroup('hamlet@example.com', 'e2e mentioned', ['othello@example.com']);
  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await hamlet.goto(`/narrow/channel/${general}-general/topic/e2e.20group.20mention`);
  const box = hamlet.getByLabel('Message', { exact: true });
  await box.pressSequentially('Over to you, @e2e ment');
  await hamlet.getByRole('option', { name: /e2e mentioned/ }).click();
  await expect(box).toHaveValue('Over to you, @*e2e mentioned* ');
  await box.press('Enter');

  const mention = hamlet.locator('.user-group-mention', { hasText: '@e2e mentioned' });
  await expect(mention).toBeVisible();

  // The message counts as a mention of Othello, a member: it is in his Mentions view.
  await othello.getByRole('link', { name: /^Mentions/ }).click();
  await expect(othello.getByRole('region', { name: 'Mentions' })).toBeVisible();
  await expect(othello.getByText('Over to you,')).toBeVisible();
  await expect(othello.locator('.user-group-mention', { hasText: '@e2e mentioned' })).toBeVisible();
});

test('the groups screens speak German', async ({ browser }) => {
  const id = await makeGroup('othello@example.com', 'e2e chor', ['othello@example.com']);
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await patch('othello@example.com', '/settings', { default_language: 'de' });
  await expect(othello.getByRole('link', { name: 'Benutzergruppen' })).toBeVisible();
  await othello.getByRole('link', { name: 'Benutzergruppen' }).click();
  await expect(othello.getByRole('heading', { name: 'Benutzergruppen', level: 1 })).toBeVisible();
  await expect(othello.getByRole('tab', { name: 'Deine Gruppen' })).toBeVisible();
  await expect(othello.getByRole('tab', { name: 'Alle Gruppen' })).toBeVisible();
  await expect(othello.getByRole('link', { name: 'Benutzergruppe erstellen' })).toBeVisible();
  await expect(
    othello.getByRole('listitem').filter({ hasText: 'e2e chor' }).getByText('1 Mitglied'),
  ).toBeVisible();
  await shot(othello, 'list-de');

  await othello.goto(`/groups/${id}`);
  await expect(othello.getByRole('heading', { name: '1 Mitglied' })).toBeVisible();
  await expect(othello.getByRole('heading', { name: 'Untergruppen' })).toBeVisible();
  await expect(othello.getByRole('button', { name: 'Änderungen speichern' })).toBeVisible();
  await expect(othello.getByLabel('Wer diese Gruppe erwähnen darf')).toBeVisible();
  await othello.getByRole('button', { name: 'Gruppe löschen' }).click();
  await expect(othello.getByRole('dialog', { name: 'e2e chor löschen?' })).toBeVisible();
  await othello.getByRole('button', { name: 'Abbrechen' }).click();

  await othello.goto('/groups/new');
  await expect(
    othello.getByRole('heading', { name: 'Eine Benutzergruppe erstellen' }),
  ).toBeVisible();
  await expect(othello.getByRole('button', { name: 'Gruppe erstellen' })).toBeVisible();
  await patch('othello@example.com', '/settings', { default_language: 'en' });
});
