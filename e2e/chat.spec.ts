import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, mailedLink, PNG, unreadCount } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

async function sendFromCompose(page: Page, text: string) {
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

test('two people chat in a topic and in direct messages, live', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const engineering = (
    await (
      await apiClient(server.url, 'hamlet@example.com')
    ).get('/get_stream_id?stream=engineering')
  ).stream_id;

  const topicUrl = `/narrow/channel/${engineering}-engineering/topic/e2e.20live`;
  await hamlet.goto(topicUrl);
  await othello.goto(topicUrl);
  await expect(othello.getByRole('combobox', { name: 'Topic', exact: true })).toHaveValue(
    'e2e live',
  );

  await sendFromCompose(hamlet, 'Hello from Hamlet, live!');
  // The other side sees it without a reload; the sender sees their echo replaced by the real message.
  await expect(othello.getByText('Hello from Hamlet, live!')).toBeVisible();
  await expect(hamlet.getByText('Hello from Hamlet, live!')).toBeVisible();

  await sendFromCompose(othello, 'And back from **Othello**');
  await expect(hamlet.locator('strong', { hasText: 'Othello' }).last()).toBeVisible();

  // A direct message: Othello writes to Hamlet from the people list.
  await othello
    .getByRole('complementary', { name: 'People' })
    .getByRole('button', { name: /^King Hamlet/ })
    .click();
  await othello
    .getByRole('dialog', { name: 'King Hamlet' })
    .getByRole('link', { name: 'Send direct message' })
    .click();
  await expect(othello).toHaveURL(/\/narrow\/dm\//);
  await sendFromCompose(othello, 'A private word, Hamlet.');
  const dmLink = hamlet.getByRole('link', { name: /^Othello, the Moor of Venice, \d+ unread$/ });
  await expect(dmLink).toBeVisible();
  await dmLink.click();
  await expect(hamlet.getByText('A private word, Hamlet.')).toBeVisible();
  await sendFromCompose(hamlet, 'Received, Othello.');
  await expect(othello.getByText('Received, Othello.')).toBeVisible();
});

test('unread counts rise with new messages and fall as they are read', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  await hamlet.goto('/inbox');
  const before = await unreadCount(hamlet, 'general');

  await cordelia.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e unreads',
    content: 'one',
  });
  await cordelia.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e unreads',
    content: 'two',
  });
  await expect.poll(() => unreadCount(hamlet, 'general')).toBe(before + 2);

  // Opening just that topic (from the inbox) reads its two messages and nothing else.
  await hamlet
    .getByRole('link', { name: /e2e unreads/ })
    .first()
    .click();
  await expect(hamlet).toHaveURL(/topic\/e2e\.20unreads$/);
  await hamlet.bringToFront();
  await expect(hamlet.getByText('two', { exact: true })).toBeVisible();
  await expect.poll(() => unreadCount(hamlet, 'general')).toBe(before);
  // The server agrees: the topic has no unread messages left.
  const me = await apiClient(server.url, 'hamlet@example.com');
  const reg = await me.post('/register', {
    fetch_event_types: '["message","update_message_flags"]',
  });
  const topic = reg.unread_msgs.streams.find((s: any) => s.topic === 'e2e unreads');
  expect(topic).toBeUndefined();
});

test('a topic URL survives a reload, and back and forward work', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const engineering = (
    await (
      await apiClient(server.url, 'hamlet@example.com')
    ).get('/get_stream_id?stream=engineering')
  ).stream_id;
  await hamlet.goto(`/narrow/channel/${engineering}-engineering/topic/release.201.2`);
  await expect(hamlet.getByRole('heading', { name: /engineering.*release 1\.2/ })).toBeVisible();
  await expect(hamlet.getByText('Release checklist for 1.2:')).toBeVisible();
  await hamlet.reload();
  await expect(hamlet.getByRole('heading', { name: /engineering.*release 1\.2/ })).toBeVisible();
  await expect(hamlet.getByText('Release checklist for 1.2:')).toBeVisible();
  await hamlet.getByRole('link', { name: /^Starred messages/ }).click();
  await expect(hamlet).toHaveURL(/\/narrow\/starred$/);
  await hamlet.goBack();
  await expect(hamlet).toHaveURL(/topic\/release\.201\.2$/);
  await hamlet.goForward();
  await expect(hamlet).toHaveURL(/\/narrow\/starred$/);
});

test('the app recovers by itself when the server restarts', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const engineering = (
    await (
      await apiClient(server.url, 'hamlet@example.com')
    ).get('/get_stream_id?stream=engineering')
  ).stream_id;
  await hamlet.goto(`/narrow/channel/${engineering}-engineering/topic/after.20restart`);
  await hamlet.getByLabel('Message', { exact: true }).fill('typed before the restart');

  await server.stop();
  await expect(hamlet.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible({
    timeout: 20_000,
  });
  await server.start();
  await expect(hamlet.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeHidden({
    timeout: 30_000,
  });

  // The server kept the page's event queue and said it restarted: the page offers a reload.
  const restarted = hamlet.getByRole('status').filter({ hasText: 'restarted on the server' });
  await expect(restarted).toBeVisible();
  await restarted.getByRole('button', { name: 'Later' }).click();
  await expect(restarted).toBeHidden();

  // What the user typed is still there, and live updates flow on the queue.
  await expect(hamlet.getByLabel('Message', { exact: true })).toHaveValue(
    'typed before the restart',
  );
  const othello = await apiClient(server.url, 'othello@example.com');
  await othello.post('/messages', {
    type: 'stream',
    to: 'engineering',
    topic: 'after restart',
    content: 'welcome back',
  });
  await expect(hamlet.getByText('welcome back')).toBeVisible();
});

test('settings save at once, apply live in another tab and survive a reload', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'cordelia@example.com');
  const otherTab = await logIn(browser, server.url, 'cordelia@example.com');
  await otherTab.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Personal settings', level: 1 })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Personal settings' });
  await sections.getByRole('link', { name: 'Preferences' }).click();
  await expect(page).toHaveURL(/\/settings\/preferences$/);

  // Theme: the page and the other tab turn dark; a reload keeps it (it is stored on the server).
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByLabel('Theme').selectOption({ label: 'Dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(otherTab.locator('html')).toHaveAttribute('data-theme', 'dark');

  const clock = page.getByLabel('Time format');
  await clock.selectOption({ label: '24-hour clock (17:00)' });
  await expect(page.getByRole('status').filter({ hasText: 'Saved' }).first()).toBeVisible();
  await expect(clock).toHaveValue('true');

  await sections.getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Cordelia of Britain');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('button', { name: 'Save name' })).toBeDisabled();

  // A wrong current password is refused with the server's words, and nothing else changes.
  await sections.getByRole('link', { name: 'Account' }).click();
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill('a-new-password-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-dark.png', fullPage: true });

  await page.goto('/settings/profile');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Cordelia of Britain');
  await sections.getByRole('link', { name: 'Preferences' }).click();
  await expect(page.getByLabel('Time format')).toHaveValue('true');
  const api = await apiClient(server.url, 'cordelia@example.com'); // the password still works
  expect((await api.get('/users/me')).full_name).toBe('Cordelia of Britain');
  await page.getByLabel('Theme').selectOption({ label: 'Same as the system' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('a sender edits and deletes a message; the other side follows live', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  const topicUrl = `/narrow/channel/${general}-general/topic/e2e.20edits`;
  await hamlet.goto(topicUrl);
  await othello.goto(topicUrl);

  await sendFromCompose(hamlet, 'A message with a tpyo');
  const mine = hamlet.locator('article.message', { hasText: 'A message with a tpyo' });
  await expect(mine).toBeVisible();
  await expect(othello.getByText('A message with a tpyo')).toBeVisible();
  // Othello may not edit or delete Hamlet's message: no such buttons are offered.
  const theirs = othello.locator('article.message', { hasText: 'A message with a tpyo' });
  await theirs.hover();
  await expect(theirs.getByRole('button', { name: 'Edit message' })).toHaveCount(0);

  await mine.hover();
  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = hamlet.getByLabel('Edit message');
  await expect(editor).toHaveValue('A message with a tpyo');
  await editor.fill('A message with a **typo** fixed');
  await editor.press('Control+Enter');
  await expect(othello.locator('strong', { hasText: 'typo' })).toBeVisible();
  const edited = hamlet.locator('article.message', { hasText: 'A message with a typo fixed' });
  await expect(edited.getByText('(edited)')).toBeVisible();

  await edited.hover();
  await edited.getByRole('button', { name: 'Delete message' }).click();
  await hamlet.screenshot({ path: 'test-results/delete-confirm.png' });
  await edited.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(edited).toHaveCount(0);
  await expect(othello.getByText('A message with a typo fixed')).toHaveCount(0);
});

test('reactions: added from the picker, seen live, toggled from the chip', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  const topicUrl = `/narrow/channel/${general}-general/topic/e2e.20reactions`;
  await hamlet.goto(topicUrl);
  await othello.goto(topicUrl);
  await sendFromCompose(hamlet, 'Who is coming to the party?');
  const onOthello = othello.locator('article.message', { hasText: 'Who is coming to the party?' });
  await expect(onOthello).toBeVisible();

  await onOthello.hover();
  await onOthello.getByRole('button', { name: 'Add reaction' }).click();
  const picker = othello.getByRole('dialog', { name: 'Add reaction' });
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
  await picker.getByRole('button', { name: 'tada', exact: true }).first().click();
  await expect(onOthello.getByRole('button', { name: /^tada: / })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  const onHamlet = hamlet.locator('article.message', { hasText: 'Who is coming to the party?' });
  const chip = onHamlet.getByRole('button', { name: /^tada: / });
  await expect(chip).toHaveAccessibleName('tada: Othello, the Moor of Venice');
  await expect(chip).toHaveAttribute('aria-pressed', 'false');
  await chip.click();
  await expect(chip).toHaveAccessibleName('tada: Othello, the Moor of Venice and You');
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await hamlet.screenshot({ path: 'test-results/reactions.png' });
  await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'false');
  await expect(onOthello.getByRole('button', { name: /^tada: / })).toHaveAccessibleName(
    'tada: You',
  );
});

test('presence dots, and muting someone hides them and their messages until unmuted', async ({
  browser,
}) => {
  const shiva = await logIn(browser, server.url, 'shiva@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const people = shiva.getByRole('complementary', { name: 'People' });
  // Othello's open app reports him present; Shiva's list shows it.
  await expect(
    people.getByRole('button', { name: 'Othello, the Moor of Venice, active' }),
  ).toBeVisible();

  await shiva.getByRole('link', { name: 'Settings' }).click();
  await shiva.getByRole('link', { name: 'Privacy' }).click();
  await shiva.getByLabel('Mute someone').selectOption({ label: 'Othello, the Moor of Venice' });
  await shiva.getByRole('button', { name: 'Mute', exact: true }).click();
  await expect(shiva.getByRole('list', { name: 'Muted users' })).toContainText(
    'Othello, the Moor of Venice',
  );
  // The settings pages hide the people list; back in the inbox it shows, without him.
  await shiva.goto('/inbox');
  await expect(people.getByRole('button', { name: /Cordelia/ })).toBeVisible();
  await expect(people.getByRole('button', { name: /Othello/ })).toHaveCount(0);

  const othelloApi = await apiClient(server.url, 'othello@example.com');
  const general = (await othelloApi.get('/get_stream_id?stream=general')).stream_id;
  // A direct message from him stays out of sight: not in the DM list, not in the combined feed.
  const shivaId = (await apiClient(server.url, 'shiva@example.com')).userId;
  await othelloApi.post('/messages', {
    type: 'direct',
    to: `[${shivaId}]`,
    content: 'A private word while muted',
  });
  await shiva.goto('/feed');
  await expect(
    shiva
      .getByRole('navigation', { name: 'Channels and views' })
      .getByRole('link', { name: /Othello/ }),
  ).toHaveCount(0);
  await expect(shiva.locator('article.message').first()).toBeVisible();
  await expect(shiva.getByText('A private word while muted')).toHaveCount(0);
  const topicUrl = `/narrow/channel/${general}-general/topic/e2e.20muting`;
  await othello.goto(topicUrl);
  await sendFromCompose(othello, 'You will not see this at first');
  await shiva.goto(topicUrl);
  const hidden = shiva
    .locator('article.message')
    .filter({ hasText: 'hidden because you muted the sender' });
  await expect(hidden).toBeVisible();
  await expect(hidden.locator('.message-sender')).toHaveText('Muted user');
  await expect(shiva.getByText('You will not see this at first')).toHaveCount(0);
  await shiva.screenshot({ path: 'test-results/muted.png' });
  await hidden.getByRole('button', { name: 'Show it' }).click();
  await expect(shiva.getByText('You will not see this at first')).toBeVisible();

  await shiva.getByRole('link', { name: 'Settings' }).click();
  await shiva.getByRole('link', { name: 'Privacy' }).click();
  await shiva
    .getByRole('list', { name: 'Muted users' })
    .getByRole('button', { name: 'Unmute' })
    .click();
  await shiva.goto('/inbox');
  await expect(people.getByRole('button', { name: /Othello/ })).toBeVisible();
});

test('attaching files: a link in the message, an image preview the other side can see', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  const topicUrl = `/narrow/channel/${general}-general/topic/e2e.20files`;
  await hamlet.goto(topicUrl);
  await othello.goto(topicUrl);

  await hamlet.getByLabel('Files to attach').setInputFiles([
    { name: 'red dot.png', mimeType: 'image/png', buffer: PNG },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('meeting notes\n') },
  ]);
  const box = hamlet.getByLabel('Message', { exact: true });
  await expect(box).toHaveValue(/\[notes\.txt\]\(\/user_uploads\/[^)]+\)\n$/);
  await expect(box).toHaveValue(/^\[red dot\.png\]\(\/user_uploads\//);
  await box.press('Enter');

  // The image loads on the other side through a temporary URL, as an <img> cannot send credentials.
  const preview = othello.locator('.message_inline_image img');
  await expect(preview).toHaveAttribute('src', /\/user_uploads\/temporary\//);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  await othello.screenshot({ path: 'test-results/uploads.png' });

  // The text file opens in a new tab with its contents.
  const [tab] = await Promise.all([
    othello.context().waitForEvent('page'),
    othello.getByRole('link', { name: 'notes.txt' }).click(),
  ]);
  await tab.waitForURL(/\/user_uploads\/temporary\//);
  await expect(tab.locator('body')).toContainText('meeting notes');
});

test('a visitor reads the web-public channel without an account, read-only, live', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  // The visitors' stream of web-public events (a Parley extension), once the page opens it.
  const streamOpened = page.waitForResponse((r) =>
    r.url().endsWith('/api/v1/parley/web_public_events'),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Browse the public channels without an account' }).click();

  // The demo's web-public channel opens; the others (and the personal views) are not offered.
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-welcome/);
  const sidebar = page.getByRole('navigation', { name: 'Channels and views' });
  await expect(sidebar.getByRole('link', { name: /^welcome/ })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: /^general/ })).toHaveCount(0);
  await expect(sidebar.getByRole('link', { name: /^Inbox/ })).toHaveCount(0);
  await expect(page.locator('article.message').first()).toBeVisible();
  await expect(page.getByRole('note')).toContainText('reading as a visitor');
  await expect(page.getByLabel('Message', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await page.locator('article.message').first().hover();
  await expect(page.getByRole('button', { name: /Star message|Add reaction/ })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/spectator.png' });

  // New messages, edits and deletions show live, without a reload and without fetching the
  // conversation again (which the page does only where there is no stream, every 10 s); nothing
  // of a channel that is not web-public ever does. The reader waits at the newest message
  // (hovering the first one above scrolled up).
  const fetches: number[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && /\/api\/v1\/messages\?/.test(r.url())) fetches.push(Date.now());
  });
  const fetchedSince = (t: number) => fetches.filter((at) => at >= t).length;
  await page.keyboard.press('End');
  const opened = await streamOpened;
  expect(opened.headers()['content-type']).toContain('text/event-stream');
  // A second listener in the page, as any browser's EventSource would read the stream, to see
  // what goes over the wire to visitors.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const seen: unknown[] = [];
        (window as unknown as { visitorEvents: unknown[] }).visitorEvents = seen;
        const source = new EventSource('/api/v1/parley/web_public_events');
        source.onmessage = (e) => {
          seen.push(...(JSON.parse(e.data as string) as unknown[]));
          resolve();
        };
      }),
  );
  const iago = await apiClient(server.url, 'iago@example.com');
  const welcome = (await iago.get('/get_stream_id?stream=welcome')).stream_id;
  const general = (await iago.get('/get_stream_id?stream=general')).stream_id;
  await iago.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'visitors',
    content: 'For members only, never for visitors.',
  });
  const sentAt = Date.now();
  const sent = await iago.post('/messages', {
    type: 'stream',
    to: String(welcome),
    topic: 'visitors',
    content: 'Hello, visitors!',
  });
  const live = page.locator(`[data-message-id="${sent.id}"]`);
  await expect(live).toContainText('Hello, visitors!', { timeout: 8000 });
  expect(fetchedSince(sentAt)).toBe(0);
  console.log(`visitor: a new message showed ${Date.now() - sentAt} ms after it was sent`);
  await page.screenshot({ path: 'test-results/spectator-live.png' });

  const editedAt = Date.now();
  await iago.patch(`/messages/${sent.id}`, { content: 'Hello again, visitors!' });
  await expect(live).toContainText('Hello again, visitors!', { timeout: 8000 });
  expect(fetchedSince(editedAt)).toBe(0);
  console.log(`visitor: the edit showed ${Date.now() - editedAt} ms after it was made`);

  const deletedAt = Date.now();
  await iago.delete(`/messages/${sent.id}`);
  await expect(live).toHaveCount(0, { timeout: 8000 });
  expect(fetchedSince(deletedAt)).toBe(0);
  console.log(`visitor: the deletion showed ${Date.now() - deletedAt} ms after it was made`);
  await expect(page.getByText('For members only, never for visitors.')).toHaveCount(0);
  await expect(sidebar.getByRole('link', { name: /^general/ })).toHaveCount(0);
  const wire = JSON.stringify(
    await page.evaluate(() => (window as unknown as { visitorEvents: unknown[] }).visitorEvents),
  );
  expect(wire).toContain('Hello, visitors!');
  expect(wire).toContain('"type":"delete_message"');
  expect(wire).not.toContain('For members only');
  expect(wire).not.toContain(`"stream_id":${general}`);

  await page.getByRole('note').getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await context.close();
});

test('a visitor keeps up by polling where the server offers no stream to visitors', async ({
  browser,
}) => {
  // A server of its own with the extension switched off, as any other Zulip server would be.
  const plain = new ServerProcess(undefined, { PARLEY_WEB_PUBLIC_EVENTS: 'off' });
  await plain.start();
  try {
    const context = await browser.newContext({ baseURL: plain.url });
    const page = await context.newPage();
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/parley/web_public_events')) streams.push(r.url());
    });
    await page.goto('/');
    await page
      .getByRole('button', { name: 'Browse the public channels without an account' })
      .click();
    await expect(page.locator('article.message').first()).toBeVisible();

    const iago = await apiClient(plain.url, 'iago@example.com');
    const welcome = (await iago.get('/get_stream_id?stream=welcome')).stream_id;
    const sentAt = Date.now();
    await iago.post('/messages', {
      type: 'stream',
      to: String(welcome),
      topic: 'visitors',
      content: 'Polled, not streamed.',
    });
    // The open conversation is fetched again every 10 s while the page is visible.
    await expect(page.getByText('Polled, not streamed.')).toBeVisible({ timeout: 15_000 });
    console.log(`visitor (polling): the new message showed after ${Date.now() - sentAt} ms`);
    expect(streams).toEqual([]);
    await context.close();
  } finally {
    await plain.stop();
  }
});

test('a visitor follows links: a web-public message opens for reading, anything else after a login', async ({
  browser,
}) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const welcome = (await iago.get('/get_stream_id?stream=welcome')).stream_id;
  const general = (await iago.get('/get_stream_id?stream=general')).stream_id;
  const shared = await iago.post('/messages', {
    type: 'stream',
    to: String(welcome),
    topic: 'shared link',
    content: 'The message a link points to.',
  });
  // Enough later messages that the linked one is not simply the newest on screen.
  for (let i = 0; i < 30; i++)
    await iago.post('/messages', {
      type: 'stream',
      to: String(welcome),
      topic: 'shared link',
      content: `Later message ${i}`,
    });
  const members = await iago.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'members only',
    content: 'Only for people with an account.',
  });

  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  // A link as messages and other clients write it: the conversation, at the message.
  await page.goto(`/#narrow/channel/${welcome}-welcome/topic/shared.20link/near/${shared.id}`);
  const linked = page.locator(`[data-message-id="${shared.id}"]`);
  await expect(linked).toBeVisible();
  await expect(linked).toContainText('The message a link points to.');
  await expect(page.getByRole('note')).toContainText('reading as a visitor');
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/visitor-link.png' });

  // A link into a channel that is not web-public asks for a login, then opens there.
  const privateLink = `/narrow/channel/${general}-general/topic/members.20only/near/${members.id}`;
  await page.goto(privateLink);
  await expect(page.getByText('The page this link points to needs an account')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/near/${members.id}$`));
  await page.getByLabel('Email').fill('hamlet@example.com');
  await page.getByLabel('Password').fill('parley-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.locator(`[data-message-id="${members.id}"]`)).toContainText(
    'Only for people with an account.',
  );
  await context.close();
});

test('an administrator invites someone with a link, and deactivates and reactivates people', async ({
  browser,
}) => {
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await iago.getByRole('link', { name: 'Settings' }).click();
  await iago.getByRole('link', { name: 'Organization' }).click();
  const adminSections = iago.getByRole('navigation', { name: 'Organization' });
  await adminSections.getByRole('link', { name: 'Invitations' }).click();
  await iago.getByLabel('Join as').selectOption({ label: 'Member' });
  await iago.getByRole('button', { name: 'Create an invitation link' }).click();
  const link = await iago.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/join\/[^/]+\/$/);

  // A newcomer follows the link and gives her address; the link that finishes the sign-up comes
  // by mail, then she chooses a name and password and logs in.
  const newcomer = await browser.newPage({ baseURL: server.url });
  await newcomer.goto(new URL(link).pathname);
  await newcomer.getByLabel('Email').fill('viola@example.com');
  await newcomer.getByRole('button', { name: 'Continue' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await newcomer.goto(new URL(mailedLink(server.dataDir, 'viola@example.com')).pathname);
  await newcomer.getByLabel('Full name').fill('Viola');
  await newcomer.getByLabel('Password').fill('twelfth-night-1');
  await newcomer.getByRole('button', { name: 'Create account' }).click();
  await expect(newcomer.getByRole('heading', { name: /Welcome to/ })).toBeVisible();
  await newcomer.getByRole('link', { name: 'Log in to Parley' }).click();
  await newcomer.getByLabel('Email').fill('viola@example.com');
  await newcomer.getByLabel('Password').fill('twelfth-night-1');
  await newcomer.getByRole('button', { name: 'Log in' }).click();
  await expect(newcomer.getByRole('link', { name: /^Inbox/ })).toBeVisible();
  // ... and the administrator sees her arrive, live.
  await adminSections.getByRole('link', { name: 'Users' }).click();
  const people = iago.getByRole('table', { name: 'People in the organization' });
  await expect(people.getByText('Viola', { exact: true })).toBeVisible();

  // An owner cannot be deactivated by an administrator: her menu offers only Edit.
  await people.getByRole('button', { name: 'Actions for Desdemona' }).click();
  await expect(iago.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
  await expect(iago.getByRole('menuitem', { name: 'Deactivate' })).toHaveCount(0);
  await iago.keyboard.press('Escape');
  await people.getByRole('button', { name: 'Actions for Viola' }).click();
  await iago.getByRole('menuitem', { name: 'Deactivate' }).click();
  await iago
    .getByRole('dialog', { name: 'Deactivate Viola?' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await iago.getByRole('tab', { name: /^Deactivated/ }).click();
  const deactivated = iago.getByRole('table', { name: 'Deactivated people' });
  await expect(deactivated.getByRole('button', { name: 'Actions for Viola' })).toBeVisible();
  // Her open app is told her account is deactivated.
  await expect(newcomer.getByText(/deactivated/i).first()).toBeVisible();
  await iago.screenshot({ path: 'test-results/organization.png' });
  await deactivated.getByRole('button', { name: 'Actions for Viola' }).click();
  await iago.getByRole('menuitem', { name: 'Reactivate' }).click();
  await iago
    .getByRole('dialog', { name: 'Reactivate Viola?' })
    .getByRole('button', { name: 'Reactivate' })
    .click();
  await iago.getByRole('tab', { name: /^Active/ }).click();
  await expect(people.getByText('Viola', { exact: true })).toBeVisible();
});

test('browsing channels: leave one, join it again, create a new one', async ({ browser }) => {
  const page = await logIn(browser, server.url, 'cordelia@example.com');
  const sidebar = page.getByRole('navigation', { name: 'Channels and views' });
  await sidebar.getByRole('link', { name: 'Browse' }).click();
  await expect(page.getByRole('heading', { name: 'Channels', level: 1 })).toBeVisible();
  const list = page.getByRole('list', { name: 'All channels' });
  await expect(list.getByRole('button', { name: 'Leave engineering' })).toBeVisible();

  await list.getByRole('button', { name: 'Leave engineering' }).click();
  await expect(list.getByRole('button', { name: 'Join engineering' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: /^engineering/ })).toHaveCount(0);
  await list.getByRole('button', { name: 'Join engineering' }).click();
  await expect(sidebar.getByRole('link', { name: /^engineering/ })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('e2e garden');
  await page.getByLabel('Description').fill('Plants and **flowers**');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await expect(sidebar.getByRole('link', { name: /^e2e garden/ })).toBeVisible();
  await expect(list.getByRole('button', { name: 'Leave e2e garden' })).toBeVisible();
  await expect(list.locator('strong', { hasText: 'flowers' })).toBeVisible();
  await page.screenshot({ path: 'test-results/channels.png' });
  await page.getByRole('status').getByRole('link', { name: '#e2e garden' }).click();
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-e2e-garden/);

  // An administrator sees a private channel they are not in, but is not offered to join it:
  // its members add people.
  const made = await (
    await apiClient(server.url, 'cordelia@example.com')
  ).post('/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'e2e vault' }]),
    invite_only: 'true',
  });
  expect(made.result).toBe('success');
  const iago = await logIn(browser, server.url, 'iago@example.com');
  await iago
    .getByRole('navigation', { name: 'Channels and views' })
    .getByRole('link', { name: 'Browse' })
    .click();
  const iagosList = iago.getByRole('list', { name: 'All channels' });
  const vault = iagosList
    .getByRole('listitem')
    .filter({ has: iago.getByRole('link', { name: 'e2e vault', exact: true }) });
  await expect(vault.getByText('Members add people')).toBeVisible();
  await expect(vault.getByRole('button')).toHaveCount(0);
  await expect(iagosList.getByRole('button', { name: 'Join e2e garden' })).toBeVisible();
  await iago.screenshot({ path: 'test-results/channels-outsider.png' });
  // Opening it says why it is empty, and offers no compose box that would be refused.
  await vault.getByRole('link', { name: 'e2e vault', exact: true }).click();
  await expect(
    iago.getByRole('note').getByText('You are not in this private channel'),
  ).toBeVisible();
  await expect(iago.getByPlaceholder('Write a message')).toHaveCount(0);
  await iago.screenshot({ path: 'test-results/private-outsider.png' });
});

test('muting a topic keeps its new messages out of the counts; a channel can be muted too', async ({
  browser,
}) => {
  const othello = await logIn(browser, server.url, 'othello@example.com');
  const hamletApi = await apiClient(server.url, 'hamlet@example.com');
  const general = (await hamletApi.get('/get_stream_id?stream=general')).stream_id;
  await hamletApi.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'e2e quiet',
    content: 'first',
  });
  await othello.goto(`/narrow/channel/${general}-general/topic/e2e.20quiet`);
  const visibility = othello.getByLabel('Topic notifications');
  await expect(visibility).toHaveValue('0');
  await visibility.selectOption({ label: 'Muted' });
  await expect(visibility).toHaveValue('1');

  await othello.goto('/inbox');
  const before = await unreadCount(othello, 'general');
  await hamletApi.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'e2e quiet',
    content: 'while muted',
  });
  await hamletApi.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'e2e loud',
    content: 'not muted',
  });
  await expect.poll(() => unreadCount(othello, 'general')).toBe(before + 1);

  await othello.goto(`/narrow/channel/${general}-general`);
  const mute = othello.getByRole('button', { name: 'Mute channel' });
  await mute.click();
  await expect(othello.getByRole('button', { name: 'Unmute channel' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await othello.goto(`/narrow/channel/${general}-general/topic/e2e.20loud`);
  // In a muted channel, a topic can be unmuted or followed.
  await expect(othello.getByLabel('Topic notifications').locator('option')).toHaveText([
    'Muted with the channel',
    'Unmuted',
    'Followed',
  ]);
  await othello.goto(`/narrow/channel/${general}-general`);
  await othello.getByRole('button', { name: 'Unmute channel' }).click();
  await expect(othello.getByRole('button', { name: 'Mute channel' })).toBeVisible();
});

test('desktop notifications for a direct message while the app is in the background', async ({
  browser,
}) => {
  // The browser's Notification is replaced by a recorder, and the page behaves as if in the background.
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
  });
  await context.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordingNotification });
    document.hasFocus = () => false;
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email').fill('desdemona@example.com');
  await page.getByLabel('Password').fill('parley-demo');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: /^Inbox/ })).toBeVisible();
  // A second tab of the account, also in the background: one notification between them.
  const secondTab = await context.newPage();
  await secondTab.goto('/');
  await expect(secondTab.getByRole('link', { name: /^Inbox/ })).toBeVisible();

  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const desdemona = await apiClient(server.url, 'desdemona@example.com');
  await hamlet.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e notes',
    content: 'nobody in particular',
  });
  await hamlet.post('/messages', {
    type: 'direct',
    to: `[${desdemona.userId}]`,
    content: 'A **word**, my lady',
  });
  const shown = () =>
    page.evaluate(
      () => (window as unknown as { shownNotifications: unknown[] }).shownNotifications,
    );
  await expect.poll(shown).toEqual([{ title: 'King Hamlet', body: 'A word, my lady' }]);
  // The second tab took the message in (it counts it) but left the notifying to the first.
  await expect.poll(() => unreadCount(secondTab, 'King Hamlet')).toBe(1);
  expect(
    await secondTab.evaluate(
      () => (window as unknown as { shownNotifications: unknown[] }).shownNotifications,
    ),
  ).toEqual([]);
  await context.close();
});

test('three tabs of one account share one event queue, and stay live when the leading one closes', async ({
  browser,
}) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const general = (await iago.get('/get_stream_id?stream=general')).stream_id;
  const topicUrl = `/narrow/channel/${general}-general/topic/three.20tabs`;
  await iago.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'three tabs',
    content: 'Before the tabs opened.',
  });
  const first = await logIn(browser, server.url, 'polonius@example.com', { path: topicUrl });
  const context = first.context();
  const registers: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/register')
      registers.push(request.url());
  });
  const tabs = [first];
  for (let i = 0; i < 2; i++) {
    const tab = await context.newPage();
    await tab.goto(topicUrl);
    await expect(tab.getByText('Before the tabs opened.')).toBeVisible();
    tabs.push(tab);
  }
  // The first tab registered its queue; the two others use it.
  expect(registers).toEqual([]);

  await iago.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'three tabs',
    content: 'Seen in all three tabs.',
  });
  for (const tab of tabs) await expect(tab.getByText('Seen in all three tabs.')).toBeVisible();

  // The leading tab closes: another takes the same queue over, without a new register.
  await first.close();
  await iago.post('/messages', {
    type: 'stream',
    to: String(general),
    topic: 'three tabs',
    content: 'After the first tab closed.',
  });
  for (const tab of tabs.slice(1))
    await expect(tab.getByText('After the first tab closed.')).toBeVisible();
  expect(registers).toEqual([]);
  // Sending from a tab that does not own the queue: its own message replaces its echo, once.
  const box = tabs[2]!.getByLabel('Message', { exact: true });
  await box.fill('Sent from the third tab.');
  await box.press('Enter');
  for (const tab of tabs.slice(1))
    await expect(tab.getByText('Sent from the third tab.')).toHaveCount(1);
  await expect(tabs[2]!.getByText('Sending…')).toHaveCount(0);
  await context.close();
});
