import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { ServerProcess } from './server';
import { apiClient, logIn } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();
const SHOTS = '/tmp/shots-search';

test.beforeAll(async () => {
  await server.start();
  mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await server.stop();
});

type Client = Awaited<ReturnType<typeof apiClient>>;

async function send(client: Client, stream: string, topic: string, content: string) {
  const sent = await client.post('/messages', { type: 'stream', to: stream, topic, content });
  expect(sent.result, JSON.stringify(sent)).toBe('success');
  return sent.id as number;
}

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search messages' });
const pills = (page: Page) =>
  page.getByRole('list', { name: 'Search terms' }).getByRole('listitem');

/** A new search, not a refinement of the one shown: the shown search's pills go first. */
async function search(page: Page, text: string) {
  const clear = page.getByRole('button', { name: 'Clear search' });
  if (await clear.isVisible()) await clear.click();
  await expect(pills(page)).toHaveCount(0);
  const box = searchBox(page);
  await box.fill(text);
  await box.press('Enter');
}

/** Both themes of the same screen, for looking at. */
async function shoot(page: Page, name: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `${SHOTS}/${name}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SHOTS}/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('operators picked from the typeahead narrow to one sender in one channel', async ({
  browser,
}) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  await send(othello, 'general', 'search e2e', 'Othello says quokkas are lovely');
  await send(hamlet, 'general', 'search e2e', 'Hamlet mentions quokkas too');
  await send(othello, 'engineering', 'search e2e', 'Othello quokkas in engineering');

  const page = await logIn(browser, server.url, 'hamlet@example.com');
  const box = searchBox(page);
  await box.click();
  await box.pressSequentially('sender:');
  const othelloOption = page.getByRole('option', { name: /Othello, the Moor of Venice/ });
  await expect(othelloOption).toBeVisible();
  await expect(othelloOption).toContainText('othello@example.com');
  await shoot(page, 'suggestions-people');
  await othelloOption.click();
  // The chosen term becomes a pill, by the person's name.
  await expect(pills(page)).toHaveText(['sender: Othello, the Moor of Venice']);
  await expect(box).toHaveValue('');

  await box.pressSequentially('channel:gen');
  await expect(page.getByRole('option', { name: /#general/ })).toBeVisible();
  await box.pressSequentially('eral');
  await box.press('Enter');

  const title = 'Messages from Othello, the Moor of Venice in #general';
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-general\/sender\/\d+$/);
  await expect(page.getByText('Othello says quokkas are lovely')).toBeVisible();
  await expect(page.getByText('Hamlet mentions quokkas too')).toHaveCount(0);
  await expect(page.getByText('Othello quokkas in engineering')).toHaveCount(0);
  // The search box shows the narrow's operators as pills, and a reload keeps the narrow.
  const shown = ['channel: general', 'sender: Othello, the Moor of Venice'];
  await expect(pills(page)).toHaveText(shown);
  await expect(box).toHaveValue('');
  await page.reload();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(pills(page)).toHaveText(shown);

  // The × leaves the search.
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(searchBox(page)).toHaveValue('');
  await expect(pills(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);
});

test('keyboard: is: offers its values, arrows and Enter pick, Escape closes', async ({
  browser,
}) => {
  const page = await logIn(browser, server.url, 'hamlet@example.com');
  const box = searchBox(page);
  // What cannot be understood is said, and nothing is searched.
  await search(page, 'sender:nobodyxyz');
  await expect(page.getByRole('alert')).toHaveText('No single person matches “nobodyxyz”.');
  await expect(page).toHaveURL(/\/inbox$/);
  await box.fill('');
  await box.click();
  await box.pressSequentially('is:');
  await expect(page.getByRole('option')).toHaveCount(7);
  await expect(page.getByRole('option', { name: /is:resolved/ })).toBeVisible();
  await shoot(page, 'suggestions-is');
  const starred = page.getByRole('option', { name: /is:starred/ });
  const unread = page.getByRole('option', { name: /is:unread/ });
  await expect(starred).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowDown');
  await expect(unread).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowUp');
  await expect(starred).toHaveAttribute('aria-selected', 'true');
  await box.press('Tab');
  await expect(pills(page)).toHaveText(['is: starred']);
  await expect(box).toHaveValue('');
  await box.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await box.press('Enter');
  await expect(page.getByRole('heading', { name: 'Starred messages' })).toBeVisible();
  await expect(page).toHaveURL(/\/narrow\/starred$/);
});

test('search words are highlighted in the results', async ({ browser }) => {
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  await send(cordelia, 'general', 'capybara facts', 'A capybara is a calm Capybara.');
  const page = await logIn(browser, server.url, 'hamlet@example.com');
  await search(page, 'capybara');
  await expect(page.getByRole('heading', { name: 'Search results for “capybara”' })).toBeVisible();
  const marks = page.locator('.message-content .highlight');
  await expect(marks).toHaveText(['capybara', 'Capybara']);
  await expect(page.locator('.recipient-bar .highlight')).toHaveText('capybara');
  await expect(page).toHaveURL(/\/narrow\/search\/capybara$/);
  await shoot(page, 'highlights');

  // Stems match ("capybaras" finds "capybara"); a quoted phrase needs its words side by side.
  await send(cordelia, 'general', 'capybara facts', 'Capybaras swim, and a calm swimmer rests.');
  // Each search's own heading first: the previous results hold the same first message.
  await search(page, 'capybaras');
  await expect(page.getByRole('heading', { name: 'Search results for “capybaras”' })).toBeVisible();
  await expect(page.getByText('A capybara is a calm Capybara.')).toBeVisible();
  await search(page, '"calm capybara"');
  await expect(
    page.getByRole('heading', { name: /^Search results for “"?calm capybara"?”$/ }),
  ).toBeVisible();
  await expect(page.getByText('A capybara is a calm Capybara.')).toBeVisible();
  await expect(page.getByText('Capybaras swim, and a calm swimmer rests.')).toHaveCount(0);
  await search(page, '"capybara calm"');
  await expect(page.getByRole('heading', { name: 'No matching messages' })).toBeVisible();
});

test('is:starred, -sender: and has:reaction each find what they say', async ({ browser }) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const iago = await apiClient(server.url, 'iago@example.com');
  const starred = await send(othello, 'general', 'zebra', 'A starred zebra note');
  await send(othello, 'general', 'zebra', 'An ordinary zebra note');
  await send(hamlet, 'general', 'zebra', 'Hamlet writes of zebras');
  const reacted = await send(othello, 'general', 'walrus', 'A walrus with a reaction');
  await send(othello, 'general', 'walrus', 'A walrus without one');
  const star = await hamlet.post('/messages/flags', {
    messages: JSON.stringify([starred]),
    op: 'add',
    flag: 'starred',
  });
  expect(star.result).toBe('success');
  const react = await iago.post(`/messages/${reacted}/reactions`, { emoji_name: 'octopus' });
  expect(react.result).toBe('success');

  const page = await logIn(browser, server.url, 'hamlet@example.com');
  await search(page, 'is:starred zebra');
  await expect(
    page.getByRole('heading', { name: 'Starred messages matching “zebra”' }),
  ).toBeVisible();
  await expect(page.getByText('A starred zebra note')).toBeVisible();
  await expect(page.getByText('An ordinary zebra note')).toHaveCount(0);

  await search(page, '-sender:othello@example.com zebra');
  await expect(
    page.getByRole('heading', {
      name: 'Messages not from Othello, the Moor of Venice matching “zebra”',
    }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/narrow\/-sender\/\d+\/search\/zebra$/);
  await expect(page.getByText('Hamlet writes of zebras')).toBeVisible();
  await expect(page.getByText(/A starred zebra note|An ordinary zebra note/)).toHaveCount(0);

  await search(page, 'has:reaction walrus');
  await expect(
    page.getByRole('heading', { name: 'Messages with reactions matching “walrus”' }),
  ).toBeVisible();
  await expect(page.getByText('A walrus with a reaction')).toBeVisible();
  await expect(page.getByText('A walrus without one')).toHaveCount(0);
});

test('a near/ID permalink opens an old message in the middle, marked', async ({ browser }) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  const general = (await hamlet.get('/get_stream_id?stream=general')).stream_id as number;
  const target = await send(othello, 'general', 'permalink e2e', 'The aardvark permalink target');
  const fillers: number[] = [];
  for (let i = 1; i <= 60; i++)
    fillers.push(await send(othello, 'general', 'permalink e2e', `Filler ${i}`));
  await send(
    othello,
    'general',
    'links e2e',
    `See [the aardvark](#narrow/channel/${general}-general/topic/permalink.20e2e/near/${target})`,
  );
  // All read: the topic by itself opens at its newest message, far from the target.
  expect((await hamlet.post('/mark_all_as_read', {})).result).toBe('success');

  const page = await logIn(browser, server.url, 'hamlet@example.com');
  const topicUrl = `/narrow/channel/${general}-general/topic/permalink.20e2e`;
  await page.goto(topicUrl);
  await expect(page.getByText('Filler 60')).toBeVisible();
  await expect(page.getByText('The aardvark permalink target')).not.toBeInViewport();

  await page.goto(`${topicUrl}/near/${target}`);
  const message = page.getByText('The aardvark permalink target');
  await expect(message).toBeInViewport();
  await expect(page.locator('.message-target')).toContainText('The aardvark permalink target');
  await expect(page.getByRole('heading', { name: 'general › permalink e2e' })).toBeVisible();
  await shoot(page, 'permalink');
  await page.reload();
  await expect(page.getByText('The aardvark permalink target')).toBeInViewport();

  // A message in the middle of the conversation opens in the middle of the screen.
  await page.goto(`${topicUrl}/near/${fillers[29]}`);
  const middle = page.locator('.message-target');
  await expect(middle).toContainText('Filler 30');
  const box = (await middle.boundingBox())!;
  const scroller = (await page.getByRole('log', { name: 'Messages' }).boundingBox())!;
  const centre = box.y + box.height / 2 - (scroller.y + scroller.height / 2);
  expect(Math.abs(centre)).toBeLessThan(scroller.height / 4);
  await shoot(page, 'permalink-middle');

  // A link to it inside a message opens it the same way.
  await page.goto(`/narrow/channel/${general}-general/topic/links.20e2e`);
  await page.getByRole('link', { name: 'the aardvark' }).click();
  await expect(page).toHaveURL(new RegExp(`/near/${target}$`));
  await expect(page.getByText('The aardvark permalink target')).toBeInViewport();

  // A message that is gone says so.
  await page.goto(`/narrow/near/2000000000`);
  await expect(page.getByText(/The linked message no longer exists/)).toBeVisible();
});

/** PATCH, which the shared API helper does not offer: a topic move as another client makes it. */
async function patchAs(email: string, path: string, params: Record<string, string>) {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: 'parley-demo' }),
  });
  const { api_key: apiKey } = (await login.json()) as { api_key: string };
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method: 'PATCH',
    headers: {
      Authorization: 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(params),
  });
  return (await response.json()) as Record<string, unknown>;
}

test('a with/ID link follows its message to the topic it moved to', async ({ browser }) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  const general = (await othello.get('/get_stream_id?stream=general')).stream_id as number;
  const id = await send(othello, 'general', 'before the move', 'The mongoose that moved');
  const moved = await patchAs('iago@example.com', `/messages/${id}`, {
    topic: 'after the move',
    propagate_mode: 'change_all',
  });
  expect(moved.result, JSON.stringify(moved)).toBe('success');

  const page = await logIn(browser, server.url, 'hamlet@example.com', {
    path: `/narrow/channel/${general}-general/topic/before.20the.20move/with/${id}`,
  });
  await expect(page).toHaveURL(new RegExp(`/topic/after\\.20the\\.20move/with/${id}$`));
  await expect(page.getByRole('heading', { name: 'general › after the move' })).toBeVisible();
  await expect(page.getByText('The mongoose that moved')).toBeInViewport();
});

/** The box with its pills and suggestions, wide and on a phone, in both themes. */
async function shootBox(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/search-pills/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('pills: a channel, then one of its topics, each removable', async ({ browser }) => {
  const othello = await apiClient(server.url, 'othello@example.com');
  await send(othello, 'general', 'zeppelin plans', 'Pills: lunch is at noon');
  await send(othello, 'general', 'zeppelin eclipse', 'Pills: the eclipse is tonight');
  await send(othello, 'engineering', 'zeppelin deploys', 'Pills: not in general');
  await send(othello, 'general', 'dinner', 'Pills: dinner at eight');

  const page = await logIn(browser, server.url, 'hamlet@example.com');
  // No sidebar sliding away in the pictures taken after a resize.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const box = searchBox(page);
  await box.click();
  await box.pressSequentially('channel:gen');
  await page.getByRole('option', { name: /#general/ }).click();
  await expect(pills(page)).toHaveText(['channel: general']);
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();

  // topic: offers the channel's topics, newest first, narrowed by what is typed.
  await box.pressSequentially('topic:');
  const options = page.getByRole('option');
  await expect(options.first()).toHaveAccessibleName(/^dinner/);
  await expect(page.getByRole('option', { name: /^zeppelin plans/ })).toBeVisible();
  await expect(page.getByRole('option', { name: /zeppelin deploys/ })).toHaveCount(0);
  await box.pressSequentially('ZEPP');
  const zeppelins = page.getByRole('option', { name: /^zeppelin/ });
  await expect(zeppelins).toHaveCount(2);
  await expect(zeppelins.first()).toHaveAccessibleName(/^zeppelin eclipse/);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await shootBox(page, 'topics-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('option', { name: /^zeppelin plans/ })).toBeInViewport();
  await shootBox(page, 'topics-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('option', { name: /^zeppelin plans/ }).click();
  await expect(pills(page)).toHaveText(['channel: general', 'topic: zeppelin plans']);

  await box.press('Enter');
  await expect(page.getByRole('heading', { name: 'general › zeppelin plans' })).toBeVisible();
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-general\/topic\/zeppelin\.20plans$/);
  await expect(page.getByText('Pills: lunch is at noon')).toBeVisible();

  // Opened again, the box shows the view it is in, to refine.
  await expect(pills(page)).toHaveCount(0);
  await box.click();
  await expect(pills(page)).toHaveText(['channel: general', 'topic: zeppelin plans']);
  await shootBox(page, 'narrow-1280');
  await page.getByRole('button', { name: 'Remove topic: zeppelin plans' }).click();
  await expect(pills(page)).toHaveText(['channel: general']);
  await expect(box).toBeFocused();
  await box.press('Enter');
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-general$/);

  // Backspace in the empty text removes the last pill; without a channel, topic: offers recent
  // conversations with their channel, and choosing one brings the channel along.
  await box.click();
  await expect(pills(page)).toHaveText(['channel: general']);
  await box.press('Backspace');
  await expect(pills(page)).toHaveCount(0);
  await box.pressSequentially('topic:zeppelin');
  await expect(
    page.getByRole('option', { name: /zeppelin deploys.*in #engineering/ }),
  ).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shootBox(page, 'recent-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('option', { name: /zeppelin deploys/ }).click();
  await expect(pills(page)).toHaveText(['channel: engineering', 'topic: zeppelin deploys']);

  // By keyboard: the left arrow goes from the text to the pills, where Backspace removes one.
  await box.press('ArrowLeft');
  await expect(page.getByRole('button', { name: 'Remove topic: zeppelin deploys' })).toBeFocused();
  await page.keyboard.press('Backspace');
  await expect(pills(page)).toHaveText(['channel: engineering']);
  await expect(box).toBeFocused();
  await page.setViewportSize({ width: 390, height: 844 });
  await box.pressSequentially('is:starred -sender:othello@example.com ');
  await expect(pills(page)).toHaveText([
    'channel: engineering',
    'is: starred',
    'exclude sender: Othello, the Moor of Venice',
  ]);
  await shootBox(page, 'many-390');
  await box.press('Enter');
  await expect(
    page.getByRole('heading', {
      name: 'Starred messages not from Othello, the Moor of Venice in #engineering',
    }),
  ).toBeVisible();
  await shootBox(page, 'rest-390');
});
