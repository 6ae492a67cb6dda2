import { expect, test, type Locator, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, logIn } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

const selected = (page: Page) => page.locator('[aria-current="true"] article');

/** Escape leaves a field (a first Escape may only close its suggestion list). */
async function leaveField(page: Page, field: Locator) {
  await expect(async () => {
    await page.keyboard.press('Escape');
    await expect(field).not.toBeFocused({ timeout: 1000 });
  }).toPass();
}

async function streamId(name: string) {
  const api = await apiClient(server.url, 'hamlet@example.com');
  return (await api.get(`/get_stream_id?stream=${name}`)).stream_id as number;
}

async function post(from: string, stream: string, topic: string, content: string) {
  const api = await apiClient(server.url, from);
  const result = await api.post('/messages', { type: 'stream', to: stream, topic, content });
  expect(result.result).toBe('success');
  return result.id as number;
}

test('j, k and End move the selected message; c, x and / focus fields; ? shows the help', async ({
  browser,
}) => {
  await post('othello@example.com', 'general', 'keys walk', 'Keys walk one');
  await post('othello@example.com', 'general', 'keys walk', 'Keys walk two');
  await post('othello@example.com', 'general', 'keys walk', 'Keys walk three');
  const general = await streamId('general');
  const hamlet = await logIn(browser, server.url, 'hamlet@example.com');
  await hamlet.goto(`/narrow/channel/${general}-general/topic/keys.20walk`);

  // The list opens with its first unread message selected.
  await expect(selected(hamlet)).toContainText('Keys walk one');
  await hamlet.keyboard.press('j');
  await expect(selected(hamlet)).toContainText('Keys walk two');
  await hamlet.keyboard.press('k');
  await expect(selected(hamlet)).toContainText('Keys walk one');
  await hamlet.keyboard.press('ArrowDown');
  await expect(selected(hamlet)).toContainText('Keys walk two');
  await hamlet.keyboard.press('End');
  await expect(selected(hamlet)).toContainText('Keys walk three');
  // A click selects too.
  await hamlet.getByText('Keys walk one').click();
  await expect(selected(hamlet)).toContainText('Keys walk one');

  const topicField = hamlet.getByRole('combobox', { name: 'Topic', exact: true });
  await hamlet.keyboard.press('c');
  await expect(topicField).toBeFocused();
  await leaveField(hamlet, topicField);

  const toField = hamlet.getByRole('combobox', { name: 'To', exact: true });
  await hamlet.keyboard.press('x');
  await expect(toField).toBeFocused();
  await leaveField(hamlet, toField);

  await hamlet.keyboard.press('/');
  const search = hamlet.getByRole('searchbox', { name: 'Search messages' });
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await leaveField(hamlet, search);

  await hamlet.keyboard.press('?');
  const help = hamlet.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByText('Next unread topic')).toBeVisible();
  await expect(help.locator('kbd', { hasText: /^N$/ })).toBeVisible();
  await hamlet.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // The top bar's button opens it too.
  await hamlet.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(help).toBeVisible();
  await hamlet.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(hamlet.getByRole('button', { name: 'Keyboard shortcuts' })).toBeFocused();
});
