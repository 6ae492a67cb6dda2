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

/** Screenshots for looking at the work, when PARLEY_SHOTS names a folder (never committed). */
async function shot(page: Page, name: string) {
  const dir = process.env.PARLEY_SHOTS;
  if (!dir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${dir}/${name}-${scheme}.png` });
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

async function seedTopic(topic: string, contents: string[], to = 'general') {
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  const ids: number[] = [];
  for (const content of contents)
    ids.push((await cordelia.post('/messages', { type: 'stream', to, topic, content })).id);
  return ids;
}

async function streamId(name: string) {
  const api = await apiClient(server.url, 'hamlet@example.com');
  return (await api.get(`/get_stream_id?stream=${name}`)).stream_id as number;
}

const topicPath = (id: number, stream: string, topic: string) =>
  `/narrow/channel/${id}-${stream}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;

/** The conversation on screen, a region named by its header. */
const conversation = (page: Page, title: string | RegExp) =>
  page.getByRole('region', { name: title });

test('a renamed topic takes its readers along', async ({ browser }) => {
  const general = await streamId('general');
  await seedTopic('e2e rename', ['Where shall we eat?', 'The usual place.']);
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await hamlet.goto(topicPath(general, 'general', 'e2e rename'));
  await othello.goto(topicPath(general, 'general', 'e2e rename'));
  await expect(othello.getByText('The usual place.')).toBeVisible();

  const here = conversation(hamlet, 'general › e2e rename');
  await here.getByRole('button', { name: 'Topic actions for e2e rename' }).first().click();
  const menu = hamlet.getByRole('menu', { name: 'Topic actions for e2e rename' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Mark as resolved',
    'Rename topic',
    'Move topic',
  ]);
  await shot(hamlet, 'topic-menu');
  await menu.getByRole('menuitem', { name: 'Rename topic' }).click();

  const dialog = hamlet.getByRole('dialog', { name: 'Rename topic' });
  await expect(dialog).toBeVisible();
  const name = dialog.getByRole('combobox', { name: 'New topic name' });
  await expect(name).toBeFocused();
  await name.fill('e2e lunch plans');
  await shot(hamlet, 'rename-dialog');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toBeHidden();

  // Othello did nothing, and is now reading the renamed topic, messages and all.
  await expect(othello).toHaveURL(/\/topic\/e2e\.20lunch\.20plans$/);
  await expect(conversation(othello, 'general › e2e lunch plans')).toBeVisible();
  await expect(othello.getByText('Where shall we eat?')).toBeVisible();
  await expect(othello.getByText(/This topic was moved here from/)).toBeVisible();
  await expect(hamlet).toHaveURL(/\/topic\/e2e\.20lunch\.20plans$/);
  // Cordelia's messages were moved, not edited: so they say, live and after a reload.
  const moved = (page: Page) =>
    page.getByRole('article').filter({ hasText: 'Where shall we eat?' });
  await expect(moved(othello).getByText('(moved)')).toBeVisible();
  await expect(othello.getByText('(edited)')).toHaveCount(0);
  await hamlet.reload();
  await expect(moved(hamlet).getByText('(moved)')).toBeVisible();
  await expect(hamlet.getByText('(edited)')).toHaveCount(0);
  // The move replaced the history entry: going back does not return to the empty old topic.
  await othello.goBack();
  await expect(othello).toHaveURL(/\/inbox$/);
  await hamlet.close();
  await othello.close();
});

test('resolving and unresolving a topic shows the check mark to everyone', async ({ browser }) => {
  const general = await streamId('general');
  await seedTopic('e2e resolve', ['Is the build green?']);
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await hamlet.goto(topicPath(general, 'general', 'e2e resolve'));
  await othello.goto(topicPath(general, 'general', 'e2e resolve'));
  await expect(othello.getByText('Is the build green?')).toBeVisible();

  // From the recipient bar above the messages.
  const bar = hamlet.getByRole('log', { name: 'Messages' });
  await bar.getByRole('button', { name: 'Topic actions for e2e resolve' }).first().click();
  await hamlet.getByRole('menuitem', { name: 'Mark as resolved' }).click();

  await expect(conversation(othello, 'general › ✔ e2e resolve')).toBeVisible();
  const sidebar = othello.getByRole('navigation', { name: 'Channels and views' });
  await expect(sidebar.getByRole('link', { name: /^✔ e2e resolve/ })).toBeVisible();
  await expect(othello.getByText(/has marked this topic as resolved\./)).toBeVisible();

  // And back, from the header this time.
  const resolved = conversation(hamlet, 'general › ✔ e2e resolve');
  await resolved.getByRole('button', { name: 'Topic actions for ✔ e2e resolve' }).first().click();
  await hamlet.getByRole('menuitem', { name: 'Mark as unresolved' }).click();
  await expect(conversation(othello, 'general › e2e resolve')).toBeVisible();
  await expect(sidebar.getByRole('link', { name: /^e2e resolve/ })).toBeVisible();
  // Undone within the minute, as upstream: the resolve notice goes away rather than a second one.
  await expect(othello.getByText(/has marked this topic as resolved\./)).toBeHidden();
  await expect(othello.getByText('Is the build green?')).toBeVisible();
  await hamlet.close();
  await othello.close();
});

test('an administrator moves a topic to another channel and the old topic says where', async ({
  browser,
}) => {
  const general = await streamId('general');
  await seedTopic('e2e relocate', ['This belongs in engineering.']);
  const iago = await logIn(browser, server.url, 'iago@example.com');
  const othello = await logIn(browser, server.url, 'othello@example.com');
  await iago.goto(topicPath(general, 'general', 'e2e relocate'));
  // Othello reads the whole channel, where the notice will appear.
  await othello.goto(`/narrow/channel/${general}-general`);
  await expect(othello.getByText('This belongs in engineering.')).toBeVisible();

  const here = conversation(iago, 'general › e2e relocate');
  await here.getByRole('button', { name: 'Topic actions for e2e relocate' }).first().click();
  await iago.getByRole('menuitem', { name: 'Move topic' }).click();
  const dialog = iago.getByRole('dialog', { name: 'Move messages' });
  await dialog.getByRole('combobox', { name: 'Channel' }).selectOption({ label: '#engineering' });
  const notifyOld = dialog.getByRole('checkbox', { name: 'Send automated notice to old topic' });
  await expect(notifyOld).not.toBeChecked();
  await expect(
    dialog.getByRole('checkbox', { name: 'Send automated notice to new topic' }),
  ).toBeChecked();
  await notifyOld.check();
  await shot(iago, 'move-dialog');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(iago).toHaveURL(/\/narrow\/channel\/\d+-engineering\/topic\/e2e\.20relocate$/);
  await expect(conversation(iago, 'engineering › e2e relocate')).toBeVisible();
  await expect(iago.getByText('This belongs in engineering.')).toBeVisible();
  // In general, the message has gone and the notice says where it went.
  await expect(othello.getByText(/This topic was moved to/)).toBeVisible();
  await expect(othello.getByText('This belongs in engineering.')).toBeHidden();
  await iago.close();
  await othello.close();
});

test('a member limited by the time limit learns why and moves the part allowed', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const general = await streamId('general');
  const older = await seedTopic('e2e old news', ['old one', 'old two', 'old three']);
  const sentAt = Date.now();
  // Real time must pass between the old and the recent messages; the limit then falls between.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  await seedTopic('e2e old news', ['recent one', 'recent two']);
  const setLimit = () =>
    patch('iago@example.com', '/realm', {
      move_messages_within_stream_limit_seconds: String(
        Math.floor((Date.now() - sentAt) / 1000) - 4,
      ),
    });

  const hamlet = await logIn(browser, server.url, 'hamlet@example.com', {
    path: topicPath(general, 'general', 'e2e old news'),
  });
  await expect(hamlet.getByText('recent two')).toBeVisible();
  // Hamlet reads the recent part: the message he has selected is one that will move.
  await hamlet.getByText('recent one').click();
  const here = conversation(hamlet, 'general › e2e old news');
  await here.getByRole('button', { name: 'Topic actions for e2e old news' }).first().click();
  await hamlet.getByRole('menuitem', { name: 'Move topic' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Move messages' });
  // Members may not move between channels by default: the channel is shown, not offered.
  await expect(dialog.getByRole('combobox', { name: 'Channel' })).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'Topic' }).fill('e2e fresh news');
  await setLimit();
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();

  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText(
    'Only 2 of 5 messages can be moved: the others are older than the time limit.',
  );
  await shot(hamlet, 'move-time-limit');
  await setLimit();
  await alert.getByRole('button', { name: 'Move only the 2 most recent messages' }).click();
  await expect(dialog).toBeHidden();

  const api = await apiClient(server.url, 'hamlet@example.com');
  const topicOf = async (id: number) => (await api.get(`/messages/${id}`)).message.subject;
  await expect.poll(() => topicOf(older[0])).toBe('e2e old news');
  // Hamlet goes along with the part that moved; the old topic keeps what was too old to move.
  await expect(hamlet).toHaveURL(/\/topic\/e2e\.20fresh\.20news$/);
  await expect(hamlet.getByText('recent one')).toBeVisible();
  await expect(hamlet.getByText('old three')).toBeHidden();
  const narrow = encodeURIComponent(
    JSON.stringify([
      { operator: 'channel', operand: general },
      { operator: 'topic', operand: 'e2e fresh news' },
    ]),
  );
  const moved = await api.get(`/messages?anchor=newest&num_before=10&num_after=0&narrow=${narrow}`);
  expect(moved.messages.map((m: { content: string }) => m.content).slice(0, 2)).toEqual([
    '<p>recent one</p>',
    '<p>recent two</p>',
  ]);
  await hamlet.close();
});

test('one message moves to another topic from its hover actions', async ({ browser }) => {
  const general = await streamId('general');
  await seedTopic('e2e mixed', ['About the menu.']);
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const api = await apiClient(server.url, 'hamlet@example.com');
  const stray = (
    await api.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'e2e mixed',
      content: 'A stray thought about the party.',
    })
  ).id as number;
  await hamlet.goto(topicPath(general, 'general', 'e2e mixed'));
  const message = hamlet.getByRole('article').filter({ hasText: 'A stray thought' });
  await message.hover();
  await message.getByRole('button', { name: 'Move message' }).click();
  const dialog = hamlet.getByRole('dialog', { name: 'Move messages' });
  await expect(dialog.getByRole('combobox', { name: 'Which messages' })).toHaveValue('change_one');
  // Escape closes the dialog and gives the focus back to what opened it.
  await hamlet.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(message.getByRole('button', { name: 'Move message' })).toBeFocused();

  await message.getByRole('button', { name: 'Move message' }).click();
  await dialog.getByRole('combobox', { name: 'Topic' }).fill('e2e party');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(hamlet.getByText('A stray thought about the party.')).toBeHidden();
  await expect(hamlet.getByText('About the menu.')).toBeVisible();
  await expect
    .poll(async () => (await api.get(`/messages/${stray}`)).message.subject)
    .toBe('e2e party');
  await hamlet.close();
});

test('a channel of many topics lists the recent ones, and the rest behind "more topics"', async ({
  browser,
}) => {
  const hamlet = await apiClient(server.url, 'hamlet@example.com');
  await hamlet.post('/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'busy' }]),
  });
  // Sixteen topics, "topic 16" the most recent; all read by Hamlet, who wrote them.
  for (let i = 1; i <= 16; i++) {
    const topic = `topic ${String(i).padStart(2, '0')}`;
    await hamlet.post('/messages', { type: 'stream', to: 'busy', topic, content: `in ${topic}` });
  }
  const page = await logIn(browser, server.url, 'hamlet@example.com', {
    path: `/narrow/channel/${await streamId('busy')}-busy`,
  });
  const topics = page.getByRole('list', { name: 'Topics in busy' });
  const names = topics.locator('.sidebar-name');
  await expect(names).toHaveText([16, 15, 14, 13, 12, 11, 10, 9].map((n) => `topic ${String(n).padStart(2, '0')}`)); // prettier-ignore
  const more = page.getByRole('button', { name: '8 more topics' });
  await more.click();
  await expect(names).toHaveCount(16);
  const filter = page.getByRole('searchbox', { name: 'Filter topics' });
  await expect(filter).toBeFocused();
  await filter.fill('topic 0');
  await expect(names).toHaveText([9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `topic 0${n}`));
  await shot(page, 'more-topics');
  await topics.getByRole('link', { name: 'topic 03' }).click();
  await expect(conversation(page, /topic 03/)).toBeVisible();
  await expect(conversation(page, /topic 03/).getByText('in topic 03')).toBeVisible();
  // The list stays open on the topic; "Fewer topics" folds it again.
  await page.getByRole('button', { name: 'Fewer topics' }).click();
  await expect(names).toHaveCount(9);
  await expect(topics.getByRole('link', { name: 'topic 03' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});
