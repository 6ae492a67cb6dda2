import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, PASSWORD, PNG } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();
const SHOTS = process.env.PARLEY_SHOTS_DIR;

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** Saves a screenshot in light and dark themes when PARLEY_SHOTS_DIR is set. */
async function shoot(page: Page, target: Page | Locator, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await target.screenshot({ path: `${SHOTS}/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function topicUrl(topic: string) {
  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  return `/narrow/channel/${general}-general/topic/${encodeURIComponent(topic).replace(/%20/g, '.20')}`;
}

const messageBox = (page: Page) => page.getByLabel('Message', { exact: true });
const options = (page: Page) => page.getByRole('listbox').getByRole('option');

test('the message field completes mentions, groups, channels, topics and emoji', async ({
  browser,
}) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const hamletApi = await apiClient(server.url, 'hamlet@example.com');
  await hamletApi.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e compose',
    content: 'Where shall we meet?',
  });
  const othello = await logIn(browser, server.url, 'othello@example.com', {
    path: await topicUrl('e2e compose'),
  });
  await expect(othello.getByText('Where shall we meet?')).toBeVisible();
  const box = messageBox(othello);

  // People: the person before any bot (the demo bot's address starts with "hamlet").
  await box.pressSequentially('Hi @Ham');
  await expect(options(othello).first()).toContainText('King Hamlet');
  await expect(options(othello).filter({ hasText: 'Elsinore Bot' })).toHaveCount(1);
  const labels = await options(othello).allInnerTexts();
  expect(labels.findIndex((l) => l.includes('King Hamlet'))).toBeLessThan(
    labels.findIndex((l) => l.includes('Elsinore Bot')),
  );
  await shoot(othello, othello.locator('form.compose'), 'autocomplete-people');
  await box.press('ArrowDown');
  await expect(options(othello).nth(1)).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await expect(options(othello).first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(box).toHaveValue('Hi @**King Hamlet** ');

  // Escape closes the list, and only the list.
  await box.pressSequentially('@_Cord');
  await expect(options(othello).first()).toContainText("Cordelia, Lear's daughter");
  await box.press('Escape');
  await expect(othello.getByRole('listbox')).toBeHidden();
  await expect(box).toBeFocused();
  await box.pressSequentially('e');
  await box.press('Tab');
  await expect(box).toHaveValue("Hi @**King Hamlet** @_**Cordelia, Lear's daughter** ");

  // A user group made through the API arrives live and is offered.
  const created = await iago.post('/user_groups/create', {
    name: 'e2e players',
    description: 'The players',
    members: JSON.stringify([hamletApi.userId]),
  });
  expect(created.result).toBe('success');
  await box.pressSequentially('@e2e pl');
  await expect(options(othello).first()).toContainText('e2e players');
  await box.press('Enter');
  await expect(box).toHaveValue(/@\*e2e players\* $/);

  // Channels, then a topic after ">".
  await box.pressSequentially('see #gen');
  await expect(options(othello).first()).toContainText('general');
  await box.press('Enter');
  await expect(box).toHaveValue(/see #\*\*general\*\*$/);
  await box.pressSequentially('>e2e');
  await expect(options(othello).first()).toContainText('e2e compose');
  await shoot(othello, othello.locator('form.compose'), 'autocomplete-topics');
  await box.press('Enter');
  await expect(box).toHaveValue(/see #\*\*general>e2e compose\*\* $/);

  // Emoji, from the second character on, with Down to move.
  await box.pressSequentially(':t');
  await expect(othello.getByRole('listbox')).toBeHidden();
  await box.pressSequentially('ada');
  await expect(options(othello).first()).toContainText(':tada:');
  await shoot(othello, othello.locator('form.compose'), 'autocomplete-emoji');
  await box.press('Enter');
  await expect(box).toHaveValue(/see #\*\*general>e2e compose\*\* :tada: $/);

  await box.press('Enter');
  const sent = othello.locator('article.message', { hasText: 'Hi' }).last();
  await expect(sent.locator('.user-group-mention', { hasText: 'e2e players' })).toBeVisible();
  await expect(sent.locator('.user-mention', { hasText: 'King Hamlet' })).toBeVisible();
  await expect(sent.getByRole('img', { name: 'tada' })).toBeVisible();
});

test('Preview shows the rendered message and Edit goes back', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: await topicUrl('e2e preview'),
  });
  const box = messageBox(hamlet);
  await box.fill('A **bold** plan');
  await hamlet.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = hamlet.getByRole('region', { name: 'Message preview' });
  await expect(preview.locator('strong')).toHaveText('bold');
  await expect(box).toHaveCount(0);
  await hamlet.getByRole('button', { name: 'Edit' }).click();
  await expect(box).toHaveValue('A **bold** plan');
  await expect(box).toBeFocused();
});

test('an upload shows its progress and becomes a link; one over the limit is refused', async ({
  browser,
}) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: await topicUrl('e2e uploads'),
  });
  const box = messageBox(hamlet);
  // The upload's answer waits a moment, so that its progress shows.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await hamlet.route('**/api/v1/user_uploads', async (route) => {
    await released;
    await route.continue();
  });
  await hamlet.getByLabel('Files to attach').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Meeting notes\n'.repeat(4000)),
  });
  await expect(box).toHaveValue('[Uploading notes.txt…]()\n');
  const uploads = hamlet.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByRole('progressbar', { name: 'Upload of notes.txt' })).toBeVisible();
  await expect(
    uploads.getByRole('button', { name: 'Cancel the upload of notes.txt' }),
  ).toBeVisible();
  await shoot(hamlet, hamlet.locator('form.compose'), 'upload-progress');
  release();
  await expect(box).toHaveValue(/^\[notes\.txt\]\(\/user_uploads\/\d+\/.+\/notes\.txt\)\n$/);
  await expect(uploads).toHaveCount(0);

  // A file just over the server's 25 MiB is refused at once, by name, without a request: made in
  // the page, so that its bytes need not cross from the test.
  let requests = 0;
  await hamlet.unroute('**/api/v1/user_uploads');
  await hamlet.route('**/api/v1/user_uploads', async (route) => {
    requests += 1;
    await route.continue();
  });
  await hamlet.getByLabel('Files to attach').evaluate((input: HTMLInputElement) => {
    const files = new DataTransfer();
    files.items.add(new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'backup.tar'));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect(hamlet.getByRole('alert')).toHaveText(
    /backup\.tar is too large to upload: files can be at most 25 MiB\./,
  );
  await expect(box).toHaveValue(/^\[notes\.txt\]\(.*\)\n$/);
  await shoot(hamlet, hamlet.locator('form.compose'), 'upload-too-large');
  expect(requests).toBe(0);
  await hamlet.getByRole('button', { name: 'Dismiss' }).click();
  await expect(hamlet.getByRole('alert')).toHaveCount(0);
});

test('the emoji picker inserts into compose, by mouse and by keyboard', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: await topicUrl('e2e picker'),
  });
  const box = messageBox(hamlet);
  await box.fill('I');

  await hamlet.getByRole('button', { name: 'Add emoji' }).click();
  const picker = hamlet.getByRole('dialog', { name: 'Add emoji' });
  await expect(picker.getByRole('button', { name: 'Smileys & Emotion' })).toBeVisible();
  await expect(picker.getByRole('button', { name: 'grinning', exact: true })).toBeVisible();
  await shoot(hamlet, picker, 'emoji-picker');
  await shoot(hamlet, hamlet, 'emoji-picker-compose-page');
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('heart');
  await shoot(hamlet, picker, 'emoji-picker-search');
  await picker.getByRole('button', { name: 'heart', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(box).toHaveValue('I :heart: ');
  await expect(box).toBeFocused();

  // Keyboard: search, Down into the grid, Right, Enter; Escape closes and gives focus back.
  await hamlet.getByRole('button', { name: 'Add emoji' }).click();
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
  await hamlet.keyboard.press('ArrowDown');
  await expect(picker.getByRole('button', { name: 'tada', exact: true })).toBeFocused();
  await hamlet.keyboard.press('Enter');
  await expect(box).toHaveValue('I :heart: :tada: ');
  await hamlet.getByRole('button', { name: 'Add emoji' }).click();
  // Recently used come first.
  await expect(picker.getByRole('region', { name: 'Recently used' })).toContainText('🎉');
  await hamlet.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(hamlet.getByRole('button', { name: 'Add emoji' })).toBeFocused();
  await expect(box).toHaveValue('I :heart: :tada: ');
});

test('reactions from the picker, custom emoji as images, names on hover, live', async ({
  browser,
}) => {
  // A custom emoji, uploaded by an administrator as another client would.
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'iago@example.com', password: PASSWORD }),
  });
  const { api_key: apiKey } = (await login.json()) as { api_key: string };
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'parrot.png');
  const upload = await fetch(`${server.url}/api/v1/realm/emoji/e2e_parrot`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from(`iago@example.com:${apiKey}`).toString('base64'),
    },
    body: form,
  });
  expect(((await upload.json()) as { result: string }).result).toBe('success');
  const listed = await (await apiClient(server.url, 'hamlet@example.com')).get('/realm/emoji');
  expect(Object.values(listed.emoji).map((e: any) => e.name)).toContain('e2e_parrot');

  const hamletApi = await apiClient(server.url, 'hamlet@example.com');
  await hamletApi.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e custom reactions',
    content: 'A party tonight!',
  });
  const url = await topicUrl('e2e custom reactions');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await hamlet.goto(url);
  await othello.goto(url);

  const onHamlet = hamlet.locator('article.message', { hasText: 'A party tonight!' });
  await onHamlet.hover();
  await onHamlet.getByRole('button', { name: 'Add reaction' }).click();
  const picker = hamlet.getByRole('dialog', { name: 'Add reaction' });
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
  await picker.getByRole('button', { name: 'tada', exact: true }).click();
  await expect(onHamlet.getByRole('button', { name: /^tada: / })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Othello sees it live, with who reacted on hover.
  const onOthello = othello.locator('article.message', { hasText: 'A party tonight!' });
  const tada = onOthello.getByRole('button', { name: 'tada: King Hamlet' });
  await expect(tada).toBeVisible();
  await expect(tada).toHaveAccessibleDescription('King Hamlet reacted with :tada:');
  await tada.hover();
  await expect(onOthello.getByRole('tooltip')).toHaveText('King Hamlet reacted with :tada:');
  await expect(onOthello.getByRole('tooltip')).toBeVisible();
  await shoot(othello, onOthello, 'reaction-tooltip');

  // The custom emoji is in Othello's picker (its category and by search); its reaction is an image.
  await onOthello.hover();
  await onOthello.getByRole('button', { name: 'Add reaction' }).click();
  const othelloPicker = othello.getByRole('dialog', { name: 'Add reaction' });
  await shoot(othello, othello, 'reaction-picker-page');
  await othelloPicker
    .getByRole('navigation', { name: 'Emoji categories' })
    .getByRole('button', { name: 'Custom' })
    .click();
  await expect(
    othelloPicker
      .getByRole('region', { name: 'Custom' })
      .getByRole('button', { name: 'e2e parrot' }),
  ).toBeInViewport();
  await othelloPicker.getByRole('searchbox', { name: 'Search emoji' }).fill('parrot');
  const parrot = othelloPicker.getByRole('button', { name: 'e2e parrot' });
  await expect(parrot.locator('img')).toHaveAttribute('src', /\/user_avatars\/.*emoji/);
  await parrot.click();
  const chipOnHamlet = onHamlet.getByRole('button', {
    name: 'e2e_parrot: Othello, the Moor of Venice',
  });
  await expect(chipOnHamlet.locator('img')).toHaveAttribute('src', /\/user_avatars\/.*emoji/);
  await expect
    .poll(() => chipOnHamlet.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await shoot(hamlet, onHamlet, 'reactions');

  // Clicking the chip toggles it, as before, and Othello sees the change.
  await chipOnHamlet.click();
  await expect(
    onOthello.getByRole('button', { name: 'e2e_parrot: You and King Hamlet' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(
    onOthello.getByRole('button', { name: 'e2e_parrot: You and King Hamlet' }).locator('img'),
  ).toBeVisible();

  // The custom emoji is offered in the message field too, with its image.
  await messageBox(othello).pressSequentially('nice :e2e_pa');
  const offered = options(othello).first();
  await expect(offered).toContainText(':e2e_parrot:');
  await expect(offered.locator('img')).toHaveAttribute('src', /\/user_avatars\/.*emoji/);
  await messageBox(othello).press('Tab');
  await expect(messageBox(othello)).toHaveValue('nice :e2e_parrot: ');
});

test('polls and to-do lists work live between two people, also from the API; calls and /me', async ({
  browser,
}) => {
  const url = await topicUrl('e2e widgets');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', { path: url });
  const othello = await logIn(browser, server.url, 'othello@example.com', { path: url });

  // A poll with three options, written as any Zulip user writes one.
  await messageBox(hamlet).fill('/poll Where do we eat?\nPizza\nSushi\nTacos');
  await messageBox(hamlet).press('Enter');
  const poll = (page: Page) => page.getByRole('group', { name: 'Where do we eat?' });
  const vote = (page: Page, option: string) =>
    poll(page).getByRole('button', { name: new RegExp(`^Vote for “${option}”`) });
  await expect(vote(othello, 'Tacos')).toHaveAccessibleName('Vote for “Tacos”, 0 votes');

  await vote(hamlet, 'Pizza').click();
  await vote(othello, 'Pizza').click();
  await vote(othello, 'Sushi').click();
  for (const page of [hamlet, othello]) {
    await expect(vote(page, 'Pizza')).toHaveAccessibleName('Vote for “Pizza”, 2 votes');
    await expect(vote(page, 'Sushi')).toHaveAccessibleName('Vote for “Sushi”, 1 vote');
  }
  await expect(vote(hamlet, 'Pizza')).toHaveAttribute('aria-pressed', 'true');
  await expect(vote(hamlet, 'Sushi')).toHaveAttribute('aria-pressed', 'false');
  // A second click takes the vote back; a new option reaches the other person.
  await vote(othello, 'Sushi').click();
  await poll(othello).getByRole('textbox', { name: 'New option' }).fill('Curry');
  await poll(othello).getByRole('textbox', { name: 'New option' }).press('Enter');
  await expect(vote(hamlet, 'Sushi')).toHaveAccessibleName('Vote for “Sushi”, 0 votes');
  await expect(vote(hamlet, 'Curry')).toHaveAccessibleName('Vote for “Curry”, 0 votes');
  await shoot(hamlet, poll(hamlet), 'poll');

  // A to-do list: the other person adds a task and ticks one.
  await messageBox(hamlet).fill('/todo Launch\nWrite notes: by Friday');
  await messageBox(hamlet).press('Enter');
  const todo = (page: Page) => page.getByRole('group', { name: 'Launch' });
  await todo(othello).getByRole('textbox', { name: 'New task', exact: true }).fill('Book the room');
  await todo(othello).getByRole('button', { name: 'Add task' }).click();
  await todo(othello).getByRole('checkbox', { name: 'Write notes' }).check();
  await expect(todo(hamlet).getByRole('checkbox', { name: 'Write notes' })).toBeChecked();
  await expect(todo(hamlet).getByRole('checkbox', { name: 'Book the room' })).not.toBeChecked();
  await shoot(hamlet, todo(hamlet), 'todo');

  // A poll and a vote sent through the API, as zulip-flutter or the Zulip web app send them.
  const iago = await apiClient(server.url, 'iago@example.com');
  const sent = await iago.post('/messages', {
    type: 'stream',
    to: 'general',
    topic: 'e2e widgets',
    content: '/poll Ship on Monday?\nYes\nNo',
  });
  const shipping = (page: Page) => page.getByRole('group', { name: 'Ship on Monday?' });
  await expect(shipping(othello)).toBeVisible();
  await iago.post('/submessage', {
    message_id: String(sent.id),
    msg_type: 'widget',
    content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
  });
  await expect(
    shipping(othello).getByRole('button', { name: /^Vote for “Yes”/ }),
  ).toHaveAccessibleName('Vote for “Yes”, 1 vote');
  await shipping(othello)
    .getByRole('button', { name: /^Vote for “No”/ })
    .click();
  await expect
    .poll(async () => {
      const message = (await iago.get(`/messages/${sent.id}`)).message;
      return message.submessages.map((s: { content: string }) => JSON.parse(s.content));
    })
    .toContainEqual({ type: 'vote', key: 'canned,1', vote: 1 });

  // The call button adds a fresh Jitsi link to the draft; /me reads as an action.
  await hamlet.getByRole('button', { name: 'Add video call' }).click();
  await expect(messageBox(hamlet)).toHaveValue(
    /^\[Join video call\.\]\(https:\/\/meet\.jit\.si\/\d{15}\) ?$/,
  );
  await messageBox(hamlet).fill('/me is away for lunch');
  await messageBox(hamlet).press('Enter');
  const action = othello.locator('article.message', { hasText: 'is away for lunch' });
  await expect(action).toContainText('King Hamlet');
  await expect(action).not.toContainText('/me');
});
