import { expect, test, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn, unreadCount } from './helpers';

const server = new ServerProcess(Number(process.env.PARLEY_E2E_PORT ?? 9993));

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
  const engineering = (await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=engineering')).stream_id;

  const topicUrl = `/narrow/channel/${engineering}-engineering/topic/e2e.20live`;
  await hamlet.goto(topicUrl);
  await othello.goto(topicUrl);
  await expect(othello.getByRole('combobox', { name: 'Topic' })).toHaveValue('e2e live');

  await sendFromCompose(hamlet, 'Hello from Hamlet, live!');
  // The other side sees it without a reload; the sender sees their echo replaced by the real message.
  await expect(othello.getByText('Hello from Hamlet, live!')).toBeVisible({ timeout: 3000 });
  await expect(hamlet.getByText('Hello from Hamlet, live!')).toBeVisible();

  await sendFromCompose(othello, 'And back from **Othello**');
  await expect(hamlet.locator('strong', { hasText: 'Othello' }).last()).toBeVisible({ timeout: 3000 });

  // A direct message: Othello writes to Hamlet from the people list.
  await othello.getByRole('link', { name: 'Direct message King Hamlet' }).click();
  await expect(othello).toHaveURL(/\/narrow\/dm\//);
  await sendFromCompose(othello, 'A private word, Hamlet.');
  const dmLink = hamlet.getByRole('link', { name: /^Othello, the Moor of Venice, \d+ unread$/ });
  await expect(dmLink).toBeVisible({ timeout: 3000 });
  await dmLink.click();
  await expect(hamlet.getByText('A private word, Hamlet.')).toBeVisible();
  await sendFromCompose(hamlet, 'Received, Othello.');
  await expect(othello.getByText('Received, Othello.')).toBeVisible({ timeout: 3000 });
});

test('unread counts rise with new messages and fall as they are read', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const cordelia = await apiClient(server.url, 'cordelia@example.com');
  await hamlet.goto('/inbox');
  const before = await unreadCount(hamlet, 'general');

  await cordelia.post('/messages', { type: 'stream', to: 'general', topic: 'e2e unreads', content: 'one' });
  await cordelia.post('/messages', { type: 'stream', to: 'general', topic: 'e2e unreads', content: 'two' });
  await expect.poll(() => unreadCount(hamlet, 'general')).toBe(before + 2);

  // Opening just that topic (from the inbox) reads its two messages and nothing else.
  await hamlet.getByRole('link', { name: /e2e unreads/ }).first().click();
  await expect(hamlet).toHaveURL(/topic\/e2e\.20unreads$/);
  await hamlet.bringToFront();
  await expect(hamlet.getByText('two', { exact: true })).toBeVisible();
  await expect.poll(() => unreadCount(hamlet, 'general'), { timeout: 10_000 }).toBe(before);
  // The server agrees: the topic has no unread messages left.
  const me = await apiClient(server.url, 'hamlet@example.com');
  const reg = await me.post('/register', { fetch_event_types: '["message","update_message_flags"]' });
  const topic = reg.unread_msgs.streams.find((s: any) => s.topic === 'e2e unreads');
  expect(topic).toBeUndefined();
});

test('a topic URL survives a reload, and back and forward work', async ({ browser }) => {
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  const engineering = (await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=engineering')).stream_id;
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
  const engineering = (await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=engineering')).stream_id;
  await hamlet.goto(`/narrow/channel/${engineering}-engineering/topic/after.20restart`);
  await hamlet.getByLabel('Message', { exact: true }).fill('typed before the restart');

  await server.stop();
  await expect(hamlet.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible({ timeout: 20_000 });
  await server.start();
  await expect(hamlet.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeHidden({ timeout: 30_000 });

  // What the user typed is still there, and live updates flow on the new queue.
  await expect(hamlet.getByLabel('Message', { exact: true })).toHaveValue('typed before the restart');
  const othello = await apiClient(server.url, 'othello@example.com');
  await othello.post('/messages', { type: 'stream', to: 'engineering', topic: 'after restart', content: 'welcome back' });
  await expect(hamlet.getByText('welcome back')).toBeVisible({ timeout: 5000 });
});
