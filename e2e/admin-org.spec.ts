import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, PASSWORD, PNG } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** Screenshots of one screen in light, dark and at phone size, for looking at the work. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => document.querySelector('.view-scroll')?.scrollTo(0, 0));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/admin-org-${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // Let the layout settle (the sidebar becomes a closed drawer) before looking.
  await page.waitForTimeout(600);
  await page.screenshot({ path: `test-results/admin-org-${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

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

/** The open administration section, a region named by its heading. */
const section = (page: Page, title: string) => page.getByRole('region', { name: title });

test('organization profile, settings and permissions save at once and show live elsewhere', async ({
  browser,
}) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  const admin = await logIn(browser, server.url, 'iago@example.com');
  const member = await logIn(browser, server.url, 'hamlet@example.com');

  // Profile: the name, live in another admin's field and in a member's top bar.
  await owner.goto('/organization/profile');
  await admin.goto('/organization/profile');
  const profile = section(owner, 'Organization profile');
  const name = profile.getByLabel('Organization name');
  await name.fill('Parley Test Org');
  await profile.getByRole('button', { name: 'Save' }).first().click();
  await expect(profile.getByRole('status')).toHaveText('Saved');
  await expect(section(admin, 'Organization profile').getByLabel('Organization name')).toHaveValue(
    'Parley Test Org',
  );
  await expect(member.getByRole('link', { name: /Parley Test Org/ })).toBeVisible();
  await shoot(owner, 'profile');

  // Settings: a toggle and a time limit, live in the other admin's window.
  await owner.getByRole('link', { name: 'Organization settings' }).click();
  await admin.getByRole('link', { name: 'Organization settings' }).click();
  const settings = section(owner, 'Organization settings');
  const mandatory = settings.getByRole('checkbox', { name: 'Require topics in channel messages' });
  await expect(mandatory).not.toBeChecked();
  await mandatory.check();
  await expect(
    section(admin, 'Organization settings').getByRole('checkbox', {
      name: 'Require topics in channel messages',
    }),
  ).toBeChecked();
  await settings.getByLabel('Time limit for editing messages').selectOption({ label: '1 hour' });
  await expect(
    section(admin, 'Organization settings').getByLabel('Time limit for editing messages'),
  ).toHaveValue('3600');
  // A custom limit in minutes.
  const deleteLimit = settings.getByLabel('Time limit for deleting own messages');
  await deleteLimit.selectOption('custom');
  const deleteRow = settings.locator('form', {
    has: owner.getByLabel('Time limit for deleting own messages'),
  });
  await deleteRow.getByLabel('Minutes').fill('45');
  await deleteRow.getByRole('button', { name: 'Save' }).click();
  const api = await apiClient(server.url, 'iago@example.com');
  await expect
    .poll(async () => (await api.post('/register', {})).realm_message_content_delete_limit_seconds)
    .toBe(2700);
  await shoot(owner, 'settings');

  // Permissions: a policy and a group setting.
  await owner.getByRole('link', { name: 'Organization permissions' }).click();
  await admin.getByRole('link', { name: 'Organization permissions' }).click();
  const permissions = section(owner, 'Organization permissions');
  await permissions
    .getByLabel('Who can add custom emoji')
    .selectOption({ label: 'Admins and moderators' });
  await expect(
    section(admin, 'Organization permissions').getByLabel('Who can add custom emoji'),
  ).toHaveValue('4');
  await permissions
    .getByLabel('Who can create reusable invitation links')
    .selectOption({ label: 'Moderators and above' });
  await expect(
    section(admin, 'Organization permissions').getByLabel(
      'Who can create reusable invitation links',
    ),
  ).toHaveText(/Moderators and above/);
  // An administrator who is not an owner cannot change an owner-only setting.
  await expect(
    section(admin, 'Organization permissions').getByRole('checkbox', {
      name: 'Invitations are required for joining',
    }),
  ).toBeDisabled();
  await shoot(owner, 'permissions');
});

test('a member reads the organization settings but cannot change them', async ({ browser }) => {
  const member = await logIn(browser, server.url, 'hamlet@example.com', {
    path: '/organization/settings',
  });
  const settings = section(member, 'Organization settings');
  await expect(settings.getByText('Only administrators can change these settings.')).toBeVisible();
  await expect(settings.getByRole('checkbox', { name: 'Allow message editing' })).toBeDisabled();
  await expect(settings.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await member.getByRole('link', { name: 'Custom profile fields' }).click();
  await expect(member.getByRole('button', { name: 'Add a profile field' })).toHaveCount(0);
  await shoot(member, 'member-settings');
});

test('custom profile fields: create, reorder and delete, live for another admin', async ({
  browser,
}) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  const admin = await logIn(browser, server.url, 'iago@example.com');
  await owner.goto('/organization/profile-fields');
  await admin.goto('/organization/profile-fields');
  const fields = section(owner, 'Custom profile fields');
  const api = await apiClient(server.url, 'iago@example.com');
  const names = async () =>
    ((await api.get('/realm/profile_fields')).custom_fields as { name: string }[]).map(
      (f) => f.name,
    );
  const before = await names();

  // A choice field with its options, in the summary.
  await fields.getByRole('button', { name: 'Add a profile field' }).click();
  const form = fields.getByRole('form', { name: 'New profile field' });
  await form.getByLabel('Type').selectOption({ label: 'List of options' });
  await form.getByLabel('Label').fill('Team');
  await form.getByRole('textbox', { name: 'Option 1' }).fill('Design');
  await form.getByRole('textbox', { name: 'Option 2' }).fill('Engineering');
  await form.getByRole('button', { name: 'Add an option' }).click();
  await form.getByRole('textbox', { name: 'Option 3' }).fill('Sales');
  await shoot(owner, 'profile-fields-form');
  await form.getByRole('button', { name: 'Add field' }).click();
  await expect(form).toHaveCount(0);
  const adminList = section(admin, 'Custom profile fields').getByRole('list', {
    name: 'Profile fields',
  });
  await expect(adminList.getByText('Design · Engineering · Sales')).toBeVisible();

  // An external account field of a custom kind.
  await fields.getByRole('button', { name: 'Add a profile field' }).click();
  await form.getByLabel('Type').selectOption({ label: 'External account' });
  await form.getByLabel('Account kind').selectOption({ label: 'Custom' });
  await form.getByLabel('Label').fill('Codeberg');
  await form.getByLabel('Profile URL pattern').fill('https://codeberg.org/%(username)s');
  await form.getByRole('button', { name: 'Add field' }).click();
  await expect(adminList.getByText('Codeberg')).toBeVisible();
  expect(await names()).toEqual([...before, 'Team', 'Codeberg']);

  // Reorder: the new last field moves up one.
  await fields.getByRole('button', { name: 'Move Codeberg up' }).click();
  await expect.poll(names).toEqual([...before, 'Codeberg', 'Team']);
  await expect(adminList.getByRole('listitem').last()).toContainText('Team');

  // Delete, after confirming.
  await fields.getByRole('button', { name: 'Delete Codeberg' }).click();
  const confirm = fields.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete the field "Codeberg"?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(names).toEqual([...before, 'Team']);
  await expect(adminList.getByText('Codeberg')).toHaveCount(0);
  await shoot(owner, 'profile-fields');
});

test('the profile summary holds at most two fields, and the form says so', async ({ browser }) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  const api = await apiClient(server.url, 'desdemona@example.com');
  for (const name of ['Summary one', 'Summary two'])
    await api.post('/realm/profile_fields', {
      name,
      field_type: '1',
      display_in_profile_summary: 'true',
    });
  await owner.goto('/organization/profile-fields');
  const fields = section(owner, 'Custom profile fields');
  await fields.getByRole('button', { name: 'Add a profile field' }).click();
  const box = fields.getByRole('checkbox', { name: 'Display in profile summary' });
  await expect(box).toBeDisabled();
  await expect(fields.getByText(/already shows 2 fields, the most it can/)).toBeVisible();
});

test('linkifiers: a preview while typing, then messages link the pattern', async ({ browser }) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  const admin = await logIn(browser, server.url, 'iago@example.com');
  await owner.goto('/organization/linkifiers');
  await admin.goto('/organization/linkifiers');
  const linkifiers = section(owner, 'Linkifiers');
  await linkifiers.getByRole('button', { name: 'Add a linkifier' }).click();
  const form = linkifiers.getByRole('form', { name: 'New linkifier' });
  await form.getByLabel('Pattern').fill('TICKET-(?P<num>[0-9]+');
  await expect(form.getByText(/not a valid regular expression/)).toBeVisible();
  await form.getByLabel('Pattern').fill('TICKET-(?P<num>[0-9]+)');
  await form.getByLabel('URL template').fill('https://tickets.example.com/{id}');
  await expect(form.getByText(/uses id, which the pattern does not name/)).toBeVisible();
  await form.getByLabel('URL template').fill('https://tickets.example.com/t/{num}');
  await form.getByLabel('Sample text').fill('See TICKET-17 and TICKET-42');
  await expect(form.getByRole('link', { name: 'https://tickets.example.com/t/42' })).toBeVisible();
  await shoot(owner, 'linkifiers-form');
  await form.getByRole('button', { name: 'Add linkifier' }).click();
  await expect(
    section(admin, 'Linkifiers').getByText('https://tickets.example.com/t/{num}'),
  ).toBeVisible();
  await shoot(owner, 'linkifiers');

  // A message that uses it renders the link.
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const general = (await hamlet.get('/get_stream_id?stream=general')).stream_id as number;
  await hamlet.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'linkifier e2e',
    content: 'Fixed in TICKET-99',
  });
  await owner.goto(`/narrow/channel/${general}-general/topic/linkifier.20e2e`);
  await expect(owner.getByRole('link', { name: 'TICKET-99' })).toHaveAttribute(
    'href',
    'https://tickets.example.com/t/99',
  );

  // Edit, then delete after confirming.
  await owner.goto('/organization/linkifiers');
  await linkifiers.getByRole('button', { name: 'Edit linkifier TICKET-(?P<num>[0-9]+)' }).click();
  const edit = linkifiers.getByRole('form', { name: 'Edit linkifier' });
  await edit.getByLabel('URL template').fill('https://tickets.example.com/ticket/{num}');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(
    section(admin, 'Linkifiers').getByText('https://tickets.example.com/ticket/{num}'),
  ).toBeVisible();
  await linkifiers.getByRole('button', { name: 'Delete linkifier TICKET-(?P<num>[0-9]+)' }).click();
  await linkifiers.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(section(admin, 'Linkifiers').getByText('No linkifiers')).toBeVisible();
});

test('custom emoji: upload, use in a message, delete', async ({ browser }) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  const admin = await logIn(browser, server.url, 'iago@example.com');
  await owner.goto('/organization/emoji');
  await admin.goto('/organization/emoji');
  const emoji = section(owner, 'Custom emoji');
  await emoji.getByRole('button', { name: 'Add custom emoji' }).click();
  const form = emoji.getByRole('form', { name: 'New custom emoji' });
  await form.getByLabel('Emoji name').fill('e2e_parrot');
  await form.getByLabel('Image').setInputFiles({
    name: 'parrot.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await shoot(owner, 'emoji-form');
  await form.getByRole('button', { name: 'Upload emoji' }).click();
  const adminList = section(admin, 'Custom emoji').getByRole('list', { name: 'Custom emoji' });
  await expect(adminList.getByText(':e2e_parrot:')).toBeVisible();
  await expect(adminList.getByText('Added by Desdemona')).toBeVisible();
  await shoot(owner, 'emoji');

  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const general = (await hamlet.get('/get_stream_id?stream=general')).stream_id as number;
  await hamlet.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'emoji e2e',
    content: 'Look :e2e_parrot:',
  });
  await owner.goto(`/narrow/channel/${general}-general/topic/emoji.20e2e`);
  await expect(owner.getByRole('img', { name: ':e2e_parrot:' }).first()).toBeVisible();

  await owner.goto('/organization/emoji');
  await emoji.getByRole('button', { name: 'Delete :e2e_parrot:' }).click();
  await emoji.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(adminList.getByText(':e2e_parrot:')).toHaveCount(0);
});

test('the administration pages in German', async ({ browser }) => {
  const owner = await logIn(browser, server.url, 'desdemona@example.com');
  await patch('desdemona@example.com', '/settings', { default_language: 'de' });
  await owner.goto('/organization/profile');
  await expect(
    section(owner, 'Organisationsprofil').getByLabel('Name der Organisation'),
  ).toBeVisible();
  await owner.getByRole('link', { name: 'Organisationseinstellungen' }).click();
  await expect(
    owner.getByRole('checkbox', { name: 'Themen in Kanalnachrichten verlangen' }),
  ).toBeVisible();
  await owner.getByRole('link', { name: /^Organisations\u00ad?berechtigungen$/ }).click();
  await expect(owner.getByLabel('Wer eigene Emoji hinzufügen darf')).toBeVisible();
  await owner.getByRole('link', { name: 'Eigene Profilfelder' }).click();
  await expect(owner.getByRole('button', { name: 'Profilfeld hinzufügen' })).toBeVisible();
  await owner.getByRole('link', { name: 'Linkifier', exact: true }).click();
  await expect(owner.getByRole('button', { name: 'Linkifier hinzufügen' })).toBeVisible();
  await owner.getByRole('link', { name: 'Eigene Emoji' }).click();
  await expect(owner.getByRole('button', { name: 'Eigenes Emoji hinzufügen' })).toBeVisible();
  await shoot(owner, 'emoji-de');
  await patch('desdemona@example.com', '/settings', { default_language: 'en' });
});
