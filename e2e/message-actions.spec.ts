import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, PASSWORD, unreadCount } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** Where the screenshots of the menu and dialogs go (looked at by people, not asserted). */
const SHOTS = process.env.PARLEY_SHOTS_DIR ?? path.join('test-results', 'message-actions-shots');

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Sends a message as `email` through the API; the message id. */
async function post(email: string, topic: string, content: string): Promise<number> {
  const client = await apiClient(server.url, email);
  const sent = await client.post('/messages', { type: 'stream', to: 'general', topic, content });
  expect(sent.result).toBe('success');
  return sent.id as number;
}

/** PATCH /messages/{id} as `email` (the shared API helper has no PATCH). */
async function editViaApi(email: string, messageId: number, content: string) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const response = await fetch(`${server.url}/api/v1/messages/${messageId}`, {
    method: 'PATCH',
    headers: {
      Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ content }),
  });
  expect(((await response.json()) as { result: string }).result).toBe('success');
}

async function generalId(): Promise<number> {
  const client = await apiClient(server.url, 'hamlet@example.com');
  return (await client.get('/get_stream_id?stream=general')).stream_id as number;
}

async function openTopic(page: Page, topic: string) {
  const url = `/narrow/channel/${await generalId()}-general/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;
  await page.goto(url);
  await expect(page.getByRole('combobox', { name: 'Topic', exact: true })).toHaveValue(topic);
}

/** The message (an article) whose text contains `text`. */
const messageWith = (page: Page, text: string) =>
  page.getByRole('article').filter({ hasText: text }).last();

/** Opens a message's actions menu with the mouse, as a person would. */
async function openMenu(page: Page, text: string) {
  const message = messageWith(page, text);
  await message.hover();
  await message.getByRole('button', { name: 'Message actions' }).click();
  const menu = page.getByRole('menu', { name: 'Message actions' });
  await expect(menu).toBeVisible();
  return menu;
}

test('quote and reply puts the quote block in compose, and it renders as a blockquote', async ({
  browser,
}) => {
  const othelloId = (await apiClient(server.url, 'othello@example.com')).userId;
  const id = await post(
    'othello@example.com',
    'e2e quote',
    'Meet me at **noon**, bring this:\n```\nprint(1)\n```',
  );
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e quote');

  const menu = await openMenu(hamlet, 'Meet me at');
  await shoot(hamlet, 'menu-light');
  await menu.getByRole('menuitem', { name: 'Quote and reply' }).click();

  const box = hamlet.getByLabel('Message', { exact: true });
  await expect(box).toBeFocused();
  // The quoted code fence needs a longer fence around the quote.
  await expect(box).toHaveValue(
    new RegExp(
      `^@_\\*\\*Othello, the Moor of Venice\\|${othelloId}\\*\\* \\[said\\]\\(${server.url}/narrow/channel/\\d+-general/topic/e2e\\.20quote/near/${id}\\):\\n\`\`\`\`quote\\nMeet me at \\*\\*noon\\*\\*`,
    ),
  );
  await box.press('End');
  await box.press('Control+End');
  await box.pressSequentially('Agreed.');
  await box.press('Enter');

  const reply = messageWith(hamlet, 'Agreed.');
  await expect(reply.locator('blockquote')).toContainText('Meet me at noon');
  await expect(reply.locator('blockquote pre')).toContainText('print(1)');
  await expect(reply.getByRole('link', { name: 'said' })).toBeVisible();
});

test('copy link to message copies its permalink, which opens the conversation', async ({
  browser,
}) => {
  const id = await post('othello@example.com', 'e2e permalink', 'A message worth a link');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await hamlet.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.url,
  });
  await openTopic(hamlet, 'e2e permalink');

  const menu = await openMenu(hamlet, 'A message worth a link');
  await menu.getByRole('menuitem', { name: 'Copy link to message' }).click();
  await expect(hamlet.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  const copied = await hamlet.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(
    new RegExp(`^${server.url}/narrow/channel/\\d+-general/topic/e2e\\.20permalink/near/${id}$`),
  );

  await hamlet.goto('/inbox');
  await hamlet.goto(copied);
  await expect(hamlet.getByRole('combobox', { name: 'Topic', exact: true })).toHaveValue(
    'e2e permalink',
  );
  await expect(messageWith(hamlet, 'A message worth a link')).toBeVisible();
});

test('mark as unread from here raises the unread counts, in every window', async ({ browser }) => {
  await post('cordelia@example.com', 'e2e unread here', 'First of three');
  await post('cordelia@example.com', 'e2e unread here', 'Second of three');
  await post('cordelia@example.com', 'e2e unread here', 'Third of three');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const other = await logIn(browser, server.url, 'hamlet@example.com', { path: '/inbox' });

  await openTopic(hamlet, 'e2e unread here');
  // Reading the topic clears its three messages.
  for (const text of ['First of three', 'Second of three', 'Third of three'])
    await expect(messageWith(hamlet, text)).not.toHaveClass(/message-unread/);
  const before = await unreadCount(hamlet, 'general');
  await expect.poll(() => unreadCount(other, 'general')).toBe(before);

  const menu = await openMenu(hamlet, 'Second of three');
  await menu.getByRole('menuitem', { name: 'Mark as unread from here' }).click();

  await expect.poll(() => unreadCount(hamlet, 'general')).toBe(before + 2);
  await expect.poll(() => unreadCount(other, 'general')).toBe(before + 2);
  // On screen they stay unread until the person scrolls on.
  await expect(messageWith(hamlet, 'Second of three')).toHaveClass(/message-unread/);
  await expect(messageWith(hamlet, 'Third of three')).toHaveClass(/message-unread/);
  await expect(messageWith(hamlet, 'First of three')).not.toHaveClass(/message-unread/);

  // Scrolling on (here the wheel over a list too short to move) reads them again.
  await messageWith(hamlet, 'Third of three').hover();
  await hamlet.mouse.wheel(0, 200);
  await expect(messageWith(hamlet, 'Third of three')).not.toHaveClass(/message-unread/);
  await expect.poll(() => unreadCount(other, 'general')).toBe(before);
});

test('view message source shows the raw Markdown', async ({ browser }) => {
  await post(
    'othello@example.com',
    'e2e source',
    'Some **bold** and a [link](https://example.com)',
  );
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e source');

  const menu = await openMenu(hamlet, 'Some bold');
  await menu.getByRole('menuitem', { name: 'View message source' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Message source' });
  await expect(dialog.getByRole('textbox', { name: 'Markdown source' })).toHaveValue(
    'Some **bold** and a [link](https://example.com)',
  );
  await shoot(hamlet, 'source-light');
  await hamlet.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('edit history lists every version of a message edited twice', async ({ browser }) => {
  const id = await post('hamlet@example.com', 'e2e history', 'The first words');
  await editViaApi('hamlet@example.com', id, 'The second words');
  await editViaApi('hamlet@example.com', id, 'The third words, final');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e history');
  await expect(messageWith(hamlet, 'The third words')).toContainText('(edited)');

  const menu = await openMenu(hamlet, 'The third words');
  await menu.getByRole('menuitem', { name: 'View edit history' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Message edit history' });
  const versions = dialog.getByRole('listitem');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText('Posted by King Hamlet');
  await expect(versions.nth(0)).toContainText('The first words');
  await expect(versions.nth(1)).toContainText('Edited by King Hamlet');
  await expect(versions.nth(1)).toContainText('second');
  await expect(versions.nth(2)).toContainText('final');
  // Each edit shows what changed: the words that went struck through, the new ones marked.
  await expect(versions.nth(1).locator('.highlight_text_deleted')).toHaveText('first');
  await expect(versions.nth(1).locator('.highlight_text_inserted')).toHaveText('second');
  await shoot(hamlet, 'edit-history-light');

  await hamlet.emulateMedia({ colorScheme: 'dark' });
  await expect(hamlet.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shoot(hamlet, 'edit-history-dark');
  await hamlet.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await openMenu(hamlet, 'The third words');
  await shoot(hamlet, 'menu-dark');
});

test('read receipts list a person once they have read the message', async ({ browser }) => {
  const id = await post('hamlet@example.com', 'e2e receipts', 'Has anyone read this?');
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  const read = await cordelia.post('/messages/flags', {
    messages: JSON.stringify([id]),
    op: 'add',
    flag: 'read',
  });
  expect(read.result).toBe('success');

  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e receipts');
  const menu = await openMenu(hamlet, 'Has anyone read this?');
  await menu.getByRole('menuitem', { name: 'View read receipts' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Read receipts' });
  await expect(
    dialog.getByRole('list', { name: 'People who read this message' }).getByRole('listitem'),
  ).toContainText(["Cordelia, Lear's daughter"]);
  await shoot(hamlet, 'read-receipts-light');
});

test('keys act on the selected message: star, reply, and the actions menu', async ({ browser }) => {
  await post('othello@example.com', 'e2e keys', 'Select me with a click');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e keys');
  // The topic's only message, by its sender (its text goes away while it is collapsed).
  const message = hamlet.getByRole('article', { name: /^Othello, the Moor of Venice, / });

  await message.getByText('Select me with a click').click();
  await hamlet.keyboard.press('*');
  await expect(message.getByRole('button', { name: 'Unstar message' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // + gives the 👍 reaction, named +1 as the reference names it; - collapses the message to one
  // line, and Show more expands it.
  await hamlet.keyboard.press('+');
  await expect(message.getByRole('button', { name: /^\+1: You/ })).toBeVisible();
  await hamlet.keyboard.press('-');
  await expect(message.getByText('[Collapsed]')).toBeVisible();
  await expect(message.getByText('Select me with a click')).toBeHidden();
  await message.getByRole('button', { name: 'Show more' }).click();
  await expect(message.getByText('Select me with a click')).toBeVisible();
  // : opens the reaction picker of the selected message.
  await message.getByText('Select me with a click').click();
  await hamlet.keyboard.press(':');
  const picker = hamlet.getByRole('dialog', { name: 'Add reaction' });
  await expect(picker).toBeVisible();
  await hamlet.keyboard.press('Escape');
  await expect(picker).toBeHidden();

  await hamlet.goto('/inbox');
  await openTopic(hamlet, 'e2e keys');
  await messageWith(hamlet, 'Select me with a click').getByText('Select me').click();
  await hamlet.keyboard.press('r');
  const box = hamlet.getByLabel('Message', { exact: true });
  await expect(box).toBeFocused();
  await expect(hamlet.getByRole('combobox', { name: 'Topic', exact: true })).toHaveValue(
    'e2e keys',
  );

  await messageWith(hamlet, 'Select me with a click').getByText('Select me').click();
  await hamlet.keyboard.press('i');
  const menu = hamlet.getByRole('menu', { name: 'Message actions' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await hamlet.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Quote and reply' })).toBeFocused();
  await hamlet.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(
    messageWith(hamlet, 'Select me with a click').getByRole('button', { name: 'Message actions' }),
  ).toBeFocused();
});

test('edit and delete from the menu, and reply privately to the sender', async ({ browser }) => {
  await post('hamlet@example.com', 'e2e menu edit', 'A message with a tpyo');
  await post('othello@example.com', 'e2e menu edit', 'Othello asks something');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await openTopic(hamlet, 'e2e menu edit');

  let menu = await openMenu(hamlet, 'A message with a tpyo');
  // Hamlet's own message: no private reply to himself.
  await expect(menu.getByRole('menuitem', { name: 'Reply privately' })).toHaveCount(0);
  await menu.getByRole('menuitem', { name: 'Edit message' }).click();
  const editor = hamlet.getByRole('textbox', { name: 'Edit message' });
  await expect(editor).toHaveValue('A message with a tpyo');
  await editor.fill('A message with a typo fixed');
  await hamlet.getByRole('button', { name: 'Save' }).click();
  await expect(messageWith(hamlet, 'A message with a typo fixed')).toContainText('(edited)');

  menu = await openMenu(hamlet, 'A message with a typo fixed');
  await menu.getByRole('menuitem', { name: 'Delete message' }).click();
  const confirm = hamlet.getByRole('dialog', { name: 'Delete this message for everyone?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(hamlet.getByText('A message with a typo fixed')).toHaveCount(0);

  menu = await openMenu(hamlet, 'Othello asks something');
  await menu.getByRole('menuitem', { name: 'Reply privately' }).click();
  await expect(hamlet.getByLabel('Message', { exact: true })).toBeFocused();
  await expect(hamlet.getByRole('button', { name: 'Direct message', pressed: true })).toBeVisible();
  await expect(hamlet.getByRole('list', { name: 'Recipients' })).toContainText(
    'Othello, the Moor of Venice',
  );
});
