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
async function shot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/drafts-${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function phoneShot(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout closes the sidebar with a short slide.
  await expect(page.getByRole('navigation', { name: 'Channels and views' })).not.toBeInViewport();
  await page.screenshot({ path: `test-results/drafts-${name}-phone.png` });
  if (size) await page.setViewportSize(size);
}

/** A settings change as another client would make it. */
async function patchSettings(email: string, params: Record<string, string>) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const r = await fetch(`${server.url}/api/v1/settings`, {
    method: 'PATCH',
    headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') },
    body: new URLSearchParams(params),
  });
  expect(r.status).toBe(200);
}

async function streamId(name: string) {
  const api = await apiClient(server.url, 'hamlet@example.com');
  return (await api.get(`/get_stream_id?stream=${name}`)).stream_id as number;
}

const topicPath = (id: number, stream: string, topic: string) =>
  `/narrow/channel/${id}-${stream}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;

const messageBox = (page: Page) => page.getByLabel('Message', { exact: true });

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value (with seconds) in this machine's time zone, as the browser's. */
function localValue(date: Date) {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

test('a draft is saved to the server, restored, listed live in another tab, resumed and deleted', async ({
  browser,
}) => {
  const general = await streamId('general');
  const here = await logIn(browser, server.url, 'hamlet@example.com');
  const there = await logIn(browser, server.url, 'hamlet@example.com', { path: '/drafts' });
  await expect(there.getByRole('heading', { name: 'No drafts' })).toBeVisible();

  await here.goto(topicPath(general, 'general', 'e2e drafts'));
  await messageBox(here).fill('Half a thought about the castle');
  // The other tab lists it once the server has it (drafts events).
  const row = there.getByRole('listitem').filter({ hasText: 'Half a thought about the castle' });
  await expect(row).toBeVisible();
  await expect(row.getByText('Saved on the server')).toBeVisible();
  await expect(row.getByRole('heading', { name: 'general › e2e drafts' })).toBeVisible();

  // Switching away and back restores it.
  await here.getByRole('link', { name: /^Inbox/ }).click();
  await here.goBack();
  await expect(messageBox(here)).toHaveValue('Half a thought about the castle');
  await here.goto('/drafts');
  await expect(
    here.getByRole('listitem').filter({ hasText: 'Half a thought about the castle' }),
  ).toHaveCount(1);
  await shot(here, 'drafts-view');
  await phoneShot(here, 'drafts-view');

  // Resuming in the other tab opens the conversation with the text in compose.
  await row.getByRole('link', { name: 'Resume draft to general › e2e drafts' }).click();
  await expect(messageBox(there)).toHaveValue('Half a thought about the castle');
  await there.goto('/drafts');
  await there
    .getByRole('listitem')
    .filter({ hasText: 'Half a thought about the castle' })
    .getByRole('button', { name: 'Delete draft to general › e2e drafts' })
    .click();
  await expect(there.getByRole('heading', { name: 'No drafts' })).toBeVisible();
  await expect(here.getByRole('heading', { name: 'No drafts' })).toBeVisible();
  const api = await apiClient(server.url, 'hamlet@example.com');
  expect((await api.get('/drafts')).drafts).toEqual([]);

  // Sending removes the draft.
  await here.goto(topicPath(general, 'general', 'e2e drafts'));
  await messageBox(here).fill('Sent, not kept');
  await expect.poll(async () => ((await api.get('/drafts')).drafts as unknown[]).length).toBe(1);
  await messageBox(here).press('Enter');
  await expect(here.getByText('Sent, not kept').last()).toBeVisible();
  await expect.poll(async () => ((await api.get('/drafts')).drafts as unknown[]).length).toBe(0);
});

test('with synchronisation off, drafts stay in this browser', async ({ browser }) => {
  await patchSettings('othello@example.com', { enable_drafts_synchronization: 'false' });
  const general = await streamId('general');
  const page = await logIn(browser, server.url, 'othello@example.com');
  const draftRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v1/drafts'))
      draftRequests.push(request.method());
  });
  await page.goto(topicPath(general, 'general', 'e2e local draft'));
  await messageBox(page).fill('Only on this computer');
  await page.goto('/drafts');
  const row = page.getByRole('listitem').filter({ hasText: 'Only on this computer' });
  await expect(row.getByText('Saved in this browser')).toBeVisible();
  await row.getByRole('link', { name: 'Resume draft to general › e2e local draft' }).click();
  await expect(messageBox(page)).toHaveValue('Only on this computer');
  const api = await apiClient(server.url, 'othello@example.com');
  expect((await api.get('/drafts')).drafts ?? []).toEqual([]);
  expect(draftRequests).toEqual([]);
});

test('a message scheduled a few seconds ahead arrives for another user', async ({ browser }) => {
  const general = await streamId('general');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const cordelia = await logIn(browser, server.url, 'cordelia@example.com');
  await hamlet.goto(topicPath(general, 'general', 'e2e scheduled'));
  await cordelia.goto(topicPath(general, 'general', 'e2e scheduled'));

  await messageBox(hamlet).fill('Good morning, in a moment');
  const dialog = hamlet.getByRole('dialog', { name: 'Schedule message' });
  // At phone size first (the layout changes with the width).
  await hamlet.setViewportSize({ width: 390, height: 844 });
  await hamlet.getByRole('button', { name: 'Schedule message' }).click();
  await expect(dialog.getByRole('button', { name: /^In 1 hour/ })).toBeVisible();
  await hamlet.screenshot({ path: 'test-results/drafts-schedule-dialog-phone.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await hamlet.setViewportSize({ width: 1280, height: 800 });
  await hamlet.getByRole('button', { name: 'Schedule message' }).click();
  await expect(dialog.getByRole('button', { name: /^In 1 hour/ })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Tomorrow at/ }).first()).toBeVisible();
  await shot(hamlet, 'schedule-dialog');

  // A time that has passed is refused.
  await dialog.getByLabel('Date and time').fill(localValue(new Date(Date.now() - 120_000)));
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'That time has passed. Choose a time in the future.',
  );

  await dialog.getByLabel('Date and time').fill(localValue(new Date(Date.now() + 6_000)));
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(messageBox(hamlet)).toHaveValue('');
  await expect(hamlet.getByText(/^Scheduled for /)).toBeVisible();

  // The server sends it at its time (its scheduler runs every few seconds).
  await expect(cordelia.getByText('Good morning, in a moment')).toBeVisible({ timeout: 30_000 });
  const api = await apiClient(server.url, 'hamlet@example.com');
  expect((await api.get('/scheduled_messages')).scheduled_messages).toEqual([]);
});

test('scheduled messages are edited, rescheduled, sent and cancelled from the list, in step across tabs', async ({
  browser,
}) => {
  const general = await streamId('general');
  const here = await logIn(browser, server.url, 'iago@example.com');
  const there = await logIn(browser, server.url, 'iago@example.com', { path: '/scheduled' });
  await expect(there.getByRole('heading', { name: 'No scheduled messages' })).toBeVisible();

  await here.goto(topicPath(general, 'general', 'e2e schedule list'));
  await messageBox(here).fill('The plan for tomorrow');
  await here.getByRole('button', { name: 'Schedule message' }).click();
  await here
    .getByRole('dialog', { name: 'Schedule message' })
    .getByRole('button', { name: /^Tomorrow at/ })
    .first()
    .click();
  await here.getByRole('link', { name: '1 scheduled' }).click();
  await expect(here.getByRole('heading', { name: 'Scheduled messages' })).toBeVisible();

  const title = 'general › e2e schedule list';
  const row = there.getByRole('listitem').filter({ hasText: 'The plan for tomorrow' });
  await expect(row.getByRole('heading', { name: title })).toBeVisible();
  await expect(there.getByRole('link', { name: /^Scheduled messages/ })).toBeVisible();

  // Edit the content and the topic.
  // (Found by its heading: while it is edited, its text is the value of a text box.)
  const mine = here
    .getByRole('listitem')
    .filter({ has: here.getByRole('heading', { name: title }) });
  await mine.getByRole('button', { name: `Edit message to ${title}` }).click();
  await expect(mine.getByLabel('Message')).toHaveValue('The plan for tomorrow');
  await mine.getByLabel('Message').fill('The plan for tomorrow, revised');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('The plan for tomorrow, revised');

  // Reschedule to a day far ahead.
  const revised = here.getByRole('listitem').filter({ hasText: 'revised' });
  await revised.getByRole('button', { name: `Reschedule message to ${title}` }).click();
  const dialog = here.getByRole('dialog', { name: 'Reschedule message' });
  await dialog.getByLabel('Date and time').fill('2030-01-15T10:30');
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(there.getByRole('listitem').filter({ hasText: 'revised' })).toContainText('2030');
  await shot(here, 'scheduled-view');
  await phoneShot(here, 'scheduled-view');

  // Cancel, with a confirmation: gone in both tabs.
  await revised.getByRole('button', { name: `Cancel message to ${title}` }).click();
  await revised.getByRole('button', { name: 'Cancel message', exact: true }).click();
  await expect(here.getByRole('heading', { name: 'No scheduled messages' })).toBeVisible();
  await expect(there.getByRole('heading', { name: 'No scheduled messages' })).toBeVisible();

  // Send now: delivered at once and taken off the schedule.
  const api = await apiClient(server.url, 'iago@example.com');
  await api.post('/scheduled_messages', {
    type: 'stream',
    to: String(general),
    topic: 'e2e schedule list',
    content: 'Sent ahead of time',
    scheduled_delivery_timestamp: String(Math.floor(Date.now() / 1000) + 86_400),
  });
  const early = here.getByRole('listitem').filter({ hasText: 'Sent ahead of time' });
  await early.getByRole('button', { name: `Send message to ${title} now` }).click();
  await expect(there.getByRole('heading', { name: 'No scheduled messages' })).toBeVisible();
  await there.goto(topicPath(general, 'general', 'e2e schedule list'));
  await expect(there.getByText('Sent ahead of time')).toBeVisible();
});

test('drafts and scheduled messages speak German', async ({ browser }) => {
  await patchSettings('shiva@example.com', { default_language: 'de' });
  const general = await streamId('general');
  const page = await logIn(browser, server.url, 'shiva@example.com', { path: '/drafts' });
  await expect(page.getByRole('heading', { name: 'Entwürfe', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Keine Entwürfe' })).toBeVisible();
  await page.goto('/scheduled');
  await expect(page.getByRole('heading', { name: 'Geplante Nachrichten' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Keine geplanten Nachrichten' })).toBeVisible();
  await page.goto(topicPath(general, 'general', 'e2e deutsch'));
  await page.getByLabel('Nachricht', { exact: true }).fill('Guten Morgen');
  await page.getByRole('button', { name: 'Nachricht planen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nachricht planen' });
  await expect(dialog.getByRole('button', { name: /^In 1 Stunde/ })).toBeVisible();
  await expect(dialog.getByLabel('Datum und Uhrzeit')).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await page.goto('/drafts');
  await expect(
    page.getByRole('button', { name: /^Entwurf an general › e2e deutsch löschen/ }),
  ).toBeVisible();
});
