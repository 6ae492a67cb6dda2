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

const PHONE = { width: 390, height: 844 };
const TOPIC = 'phone layout';
const LONG =
  "Most potent, grave, and reverend signiors, my very noble and approved good masters: that I have ta'en away this old man's daughter, it is most true; true, I have married her.";

/** Screenshots in both themes, to test-results/phone-<name>-<light|dark>.png (looked at by people). */
async function shootBoth(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.screenshot({ path: `test-results/phone-${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Nothing is wider than the screen: the page never scrolls sideways. */
async function expectFitsSideways(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

let posted: Promise<string> | null = null;

/** The topic's address, once its messages are posted (once for the whole file). */
function topicWithMessages(): Promise<string> {
  posted ??= (async () => {
    const othello = await apiClient(server.url, 'othello@example.com');
    const cordelia = await apiClient(server.url, 'cordelia@example.com');
    for (let n = 1; n <= 14; n++) {
      const from = n % 4 === 0 ? cordelia : othello;
      const content = n % 2 ? `Message ${n}: ${LONG}` : `Message ${n}: short and sweet.`;
      const sent = await from.post('/messages', {
        type: 'stream',
        to: 'general',
        topic: TOPIC,
        content,
      });
      expect(sent.result).toBe('success');
    }
    const general = (await othello.get('/get_stream_id?stream=general')).stream_id as number;
    return `/narrow/channel/${general}-general/topic/phone.20layout`;
  })();
  return posted;
}

/** The message (an article) whose text starts with "Message n:". */
const numbered = (page: Page, n: number) =>
  page
    .getByRole('article')
    .filter({ has: page.locator('.message-content p', { hasText: new RegExp(`^Message ${n}:`) }) });

/** The width of a message's actions box: 1 px or less while out of sight. */
const actionsWidth = (message: Locator) =>
  message.locator('.message-actions').evaluate((el) => el.getBoundingClientRect().width);

/** The widest actions box of the drawn messages, leaving out `except`'s. */
async function widestOtherActions(page: Page, except?: Locator) {
  const skip = except ? await except.getAttribute('data-message-id') : null;
  const widths = await page
    .locator('article[data-message-id]')
    .evaluateAll(
      (articles, id) =>
        articles
          .filter((a) => a.getAttribute('data-message-id') !== id)
          .map((a) => a.querySelector('.message-actions')?.getBoundingClientRect().width ?? 0),
      skip,
    );
  return Math.max(...widths);
}

test('a topic on a phone: the text has the width, actions come with a tap, the bar stays on top', async ({
  browser,
}) => {
  const path = await topicWithMessages();
  const page = await logIn(browser, server.url, 'hamlet@example.com', { viewport: PHONE, path });
  const first = numbered(page, 1);
  await expect(first).toBeVisible();

  // The text takes the width: 300 px and more, at least 40 characters on a line.
  const text = first.locator('.message-content');
  expect((await text.boundingBox())!.width).toBeGreaterThanOrEqual(300);
  const firstLine = await text.locator('p').evaluate((p) => {
    const node = p.firstChild as Text;
    const range = document.createRange();
    const topOf = (i: number) => {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      return range.getBoundingClientRect().top;
    };
    const top = topOf(0);
    let i = 1;
    while (i < node.length && topOf(i) < top + 4) i++;
    return i;
  });
  expect(firstLine).toBeGreaterThanOrEqual(40);
  // The long sender's name and the time share one line.
  const header = first.locator('.message-header');
  const name = header.getByRole('button', { name: 'Othello, the Moor of Venice' });
  const nameBox = (await name.boundingBox())!;
  const timeBox = (await header.locator('time').boundingBox())!;
  expect(Math.abs(nameBox.y + nameBox.height - (timeBox.y + timeBox.height))).toBeLessThan(6);

  // No row shows its actions until tapped, yet they are there for the keyboard.
  expect(await widestOtherActions(page)).toBeLessThanOrEqual(1);
  const third = numbered(page, 3);
  await third.locator('.message-content').click();
  await expect(page.locator('[aria-current="true"] article')).toContainText(
    'Message 3: Most potent',
  );
  const menuButton = third.getByRole('button', { name: 'Message actions' });
  await expect.poll(() => actionsWidth(third)).toBeGreaterThan(100);
  const buttonBox = (await menuButton.boundingBox())!;
  expect(buttonBox.width).toBeGreaterThanOrEqual(32);
  expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(PHONE.width);
  expect(await widestOtherActions(page, third)).toBeLessThanOrEqual(1);
  await shootBoth(page, 'topic');

  // Its menu opens from there; a second tap puts the actions away.
  await menuButton.click();
  const menu = page.getByRole('menu', { name: 'Message actions' });
  await expect(menu.getByRole('menuitem', { name: 'Quote and reply' })).toBeVisible();
  const menuBox = (await menu.boundingBox())!;
  expect(menuBox.x).toBeGreaterThanOrEqual(0);
  expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(PHONE.width);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await third.locator('.message-content').click();
  await expect.poll(() => actionsWidth(third)).toBeLessThanOrEqual(1);
  // A tap on a link or a name does what it does, and opens no actions.
  const fifth = numbered(page, 5);
  await fifth
    .locator('.message-header')
    .getByRole('button', { name: 'Othello, the Moor of Venice' })
    .click();
  await expect(page.getByRole('dialog', { name: 'Othello, the Moor of Venice' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await actionsWidth(fifth)).toBeLessThanOrEqual(1);
  // The keyboard reaches them: a focused action shows its row's actions.
  const seventh = numbered(page, 7);
  const star = seventh.getByRole('button', { name: 'Star message' });
  await star.focus();
  await expect.poll(() => actionsWidth(seventh)).toBeGreaterThan(100);
  await star.press('Enter');
  await expect(seventh.getByRole('button', { name: 'Unstar message' })).toBeFocused();
  // I opens the selected message's menu from the keyboard, its actions shown beside it.
  await page.keyboard.press('i');
  await expect(menu).toBeVisible();
  expect(await actionsWidth(page.locator('[aria-current="true"] article'))).toBeGreaterThan(100);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expectFitsSideways(page);

  // The actions of a message at the bottom of the list come into sight.
  const scroller = page.getByRole('log', { name: 'Messages' });
  const ninth = numbered(page, 9);
  await ninth.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await ninth.locator('.message-content').click({ position: { x: 40, y: 10 } });
  await expect.poll(() => actionsWidth(ninth)).toBeGreaterThan(100);
  await expect
    .poll(async () => {
      const actions = (await ninth.locator('.message-actions').boundingBox())!;
      const list = (await scroller.boundingBox())!;
      return actions.y + actions.height <= list.y + list.height;
    })
    .toBe(true);
  await ninth.locator('.message-content').click({ position: { x: 40, y: 10 } });
  await expect.poll(() => actionsWidth(ninth)).toBeLessThanOrEqual(1);

  // Scrolled into the topic, its recipient bar stays at the top of the list.
  const listTop = (await scroller.boundingBox())!.y;
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(400);
  expect((await numbered(page, 1).boundingBox())?.y ?? 0).toBeLessThan(listTop - 100);
  const bar = page.locator('.recipient-bar').filter({ hasText: TOPIC });
  await expect(bar).toHaveCount(1);
  await expect
    .poll(async () => {
      const box = await bar.boundingBox();
      return box ? Math.round(box.y - listTop) : null;
    })
    .toBe(0);
  await expect(bar.getByRole('link', { name: TOPIC })).toBeVisible();
  await shootBoth(page, 'topic-scrolled');
  // It still takes you to the topic.
  await bar.getByRole('link', { name: 'general' }).click();
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-general$/);
  await page.context().close();
});

test('compose on a phone: one button until tapped, the whole box then, folded again after', async ({
  browser,
}) => {
  const path = await topicWithMessages();
  const page = await logIn(browser, server.url, 'hamlet@example.com', { viewport: PHONE, path });
  const folded = page.getByRole('button', { name: `Message #general › ${TOPIC}` });
  const field = page.getByRole('textbox', { name: 'Message', exact: true });
  await expect(folded).toBeVisible();
  await expect(field).toHaveCount(0);
  expect((await folded.boundingBox())!.height).toBeLessThanOrEqual(52);
  // The list has most of the screen.
  const list = (await page.getByRole('log', { name: 'Messages' }).boundingBox())!;
  expect(list.height).toBeGreaterThan(PHONE.height * 0.6);

  await folded.click();
  await expect(field).toBeFocused();
  expect((await field.boundingBox())!.width).toBeGreaterThanOrEqual(300);
  await expectFitsSideways(page);
  await shootBoth(page, 'compose');

  // Sending folds it.
  await field.fill('Sent from a phone');
  await field.press('Enter');
  await expect(page.getByRole('article').filter({ hasText: 'Sent from a phone' })).toBeVisible();
  await expect(field).toHaveCount(0);
  await expect(folded).toBeFocused();

  // C opens it with the cursor in the message; Escape in the empty box folds it.
  await page.keyboard.press('c');
  await expect(field).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(field).toHaveCount(0);
  await expect(folded).toBeFocused();
  // X: a direct message, the cursor in its recipients; the close button folds it, and the
  // folded box says where it writes now.
  await page.keyboard.press('x');
  await expect(page.getByRole('combobox', { name: 'To', exact: true })).toBeFocused();
  await page.keyboard.press('Escape'); // closes the suggestions
  await page.getByRole('button', { name: 'Close the compose box' }).click();
  await expect(page.getByRole('button', { name: 'Write a direct message' })).toBeFocused();
  // C goes back to the topic.
  await page.keyboard.press('c');
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('placeholder', `Message #general › ${TOPIC}`);

  // Closed with a draft, the draft waits in the box.
  await field.fill('Half a thought');
  await page.getByRole('button', { name: 'Close the compose box' }).click();
  await expect(field).toHaveCount(0);
  await folded.click();
  await expect(field).toHaveValue('Half a thought');
  await field.fill('');

  // Reply from a message's menu opens it too.
  const message = numbered(page, 4);
  await page.getByRole('button', { name: 'Close the compose box' }).click();
  await message.locator('.message-content').click();
  await message.getByRole('button', { name: 'Message actions' }).click();
  await page.getByRole('menuitem', { name: 'Quote and reply' }).click();
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(/short and sweet/);
  await field.fill('');
  // R replies to the selected message from the keyboard, the box folded or not.
  await page.getByRole('button', { name: 'Close the compose box' }).click();
  await expect(field).toHaveCount(0);
  await page.keyboard.press('r');
  await expect(field).toBeFocused();

  // Where there is no one conversation, it is a "New message" button; the cursor goes to the channel.
  await page.goto('/feed');
  const newMessage = page.getByRole('button', { name: 'New message' });
  await expect(newMessage).toBeVisible();
  await shootBoth(page, 'feed');
  await newMessage.click();
  await expect(page.getByRole('combobox', { name: 'Channel', exact: true })).toBeFocused();
  await expectFitsSideways(page);
  await page.context().close();
});

test('the inbox, the drawers, settings and administration fit a phone', async ({ browser }) => {
  await topicWithMessages();
  const page = await logIn(browser, server.url, 'hamlet@example.com', {
    viewport: PHONE,
    path: '/inbox',
  });
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expectFitsSideways(page);
  await shootBoth(page, 'inbox');

  // The channels drawer slides over the page and goes away once a view is chosen.
  const drawer = page.getByRole('navigation', { name: 'Channels and views' });
  await page.getByRole('button', { name: 'Channels and views' }).click();
  const general = drawer.getByRole('link', { name: /^general/ });
  await expect(general).toBeVisible();
  // Once it has slid in.
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
  expect((await drawer.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
  await shootBoth(page, 'drawer');
  await general.click();
  await expect(page).toHaveURL(/\/narrow\/channel\/\d+-general$/);
  await expect.poll(async () => (await drawer.boundingBox())?.x ?? -1).toBeLessThan(0);
  await expectFitsSideways(page);
  // The people drawer too.
  await page.getByRole('button', { name: 'Show people' }).click();
  const people = page.getByRole('complementary', { name: 'People' });
  await expect(people.getByRole('button', { name: /^Othello/ })).toBeVisible();
  const peopleBox = (await people.boundingBox())!;
  expect(peopleBox.x + peopleBox.width).toBeLessThanOrEqual(PHONE.width);
  await page.keyboard.press('Escape');

  await page.goto('/settings/preferences');
  await expect(page.getByLabel('Home view', { exact: true })).toBeVisible();
  await expectFitsSideways(page);
  await shootBoth(page, 'settings');
  await page.context().close();

  const iago = await logIn(browser, server.url, 'iago@example.com', {
    viewport: PHONE,
    path: '/organization/users',
  });
  await expect(iago.getByRole('heading', { name: 'Users', level: 2, exact: true })).toBeVisible();
  await expectFitsSideways(iago);
  await shootBoth(iago, 'admin-users');
  await iago.context().close();
});
