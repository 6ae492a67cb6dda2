import { expect, test, type Browser, type Page } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, PASSWORD } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();
const SHOTS = process.env.PARLEY_SHOTS_DIR;

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

/** Logs in through the login screen, in a browser context set to a time zone. */
async function logIn(browser: Browser, email: string, timezoneId = 'UTC'): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    timezoneId,
    locale: 'en-US',
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: /^Inbox/ })).toBeVisible();
  return page;
}

async function generalTopic(topic: string) {
  const api = await apiClient(server.url, 'iago@example.com');
  const general = (await api.get('/get_stream_id?stream=general')).stream_id as number;
  const send = async (content: string): Promise<number> => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic, content });
    expect(sent.result).toBe('success');
    return sent.id as number;
  };
  return { send, url: `/narrow/channel/${general}-general/topic/${topic.replace(/ /g, '.20')}` };
}

/** Uploads a file as iago through the API, answering its /user_uploads/... path. */
async function upload(name: string, bytes: Buffer): Promise<string> {
  const login = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'iago@example.com', password: PASSWORD }),
  });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const r = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: {
      Authorization: 'Basic ' + Buffer.from(`iago@example.com:${key}`).toString('base64'),
    },
    body: form,
  });
  const body = (await r.json()) as { uri?: string; url?: string };
  return (body.url ?? body.uri)!;
}

/** A picture to look at (a gradient with a label), drawn by the browser as a PNG. */
async function picture(page: Page, label: string, hue: number): Promise<Buffer> {
  const data = await page.evaluate(
    ([label, hue]) => {
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 320;
      const g = canvas.getContext('2d')!;
      const gradient = g.createLinearGradient(0, 0, 480, 320);
      gradient.addColorStop(0, `hsl(${hue} 70% 55%)`);
      gradient.addColorStop(1, `hsl(${Number(hue) + 60} 70% 35%)`);
      g.fillStyle = gradient;
      g.fillRect(0, 0, 480, 320);
      g.fillStyle = 'white';
      g.font = 'bold 48px sans-serif';
      g.fillText(String(label), 40, 180);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    [label, hue] as const,
  );
  return Buffer.from(data, 'base64');
}

test('code blocks are highlighted, in light and dark themes', async ({ browser }) => {
  const topic = await generalTopic('e2e code');
  await topic.send(
    'A helper:\n```python\nimport os\n\ndef greet(name: str) -> str:\n    """Say hello."""\n    count = len(name) + 42  # letters\n    return f"Hello, {name}!"\n```\n```js\nconst total = items.reduce((sum, x) => sum + x.price, 0);\n```',
  );
  const hamlet = await logIn(browser, 'hamlet@example.com');
  await hamlet.goto(topic.url);
  const block = hamlet.locator('.codehilite[data-code-language="Python"]');
  await expect(block.locator('span.k', { hasText: 'def' })).toBeVisible();
  await expect(block.locator('span.nf', { hasText: 'greet' })).toBeVisible();
  await expect(block.locator('span.c1')).toHaveText('# letters');
  await expect(hamlet.locator('.codehilite[data-code-language="JavaScript"] span.k')).toHaveText(
    'const',
  );
  // Keywords are coloured differently from plain names.
  const colour = (selector: string) =>
    block
      .locator(selector)
      .first()
      .evaluate((el) => getComputedStyle(el).color);
  expect(await colour('span.k')).not.toBe(await colour('span.n'));
  // The copy button puts the code, as typed, on the clipboard.
  await hamlet.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await block.hover();
  await block.getByRole('button', { name: 'Copy code' }).click();
  await expect(block.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await hamlet.evaluate(() => navigator.clipboard.readText())).toContain(
    'def greet(name: str) -> str:',
  );
  if (SHOTS) {
    await block.screenshot({ path: `${SHOTS}/code-light.png` });
    await hamlet.emulateMedia({ colorScheme: 'dark' });
    await expect(hamlet.locator('html')).toHaveAttribute('data-theme', 'dark');
    await hamlet.locator('.message', { has: block }).screenshot({ path: `${SHOTS}/code-dark.png` });
  }
});

test('a spoiler is closed until its header is clicked', async ({ browser }) => {
  const topic = await generalTopic('e2e spoiler');
  await topic.send('```spoiler The ending\nThe butler did it.\n```');
  const hamlet = await logIn(browser, 'hamlet@example.com');
  await hamlet.goto(topic.url);
  const toggle = hamlet.getByRole('button', { name: 'Spoiler: The ending' });
  const secret = hamlet.getByText('The butler did it.');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(secret).toBeHidden();
  const spoilerMessage = hamlet.locator('.message', { has: toggle });
  if (SHOTS) await spoilerMessage.screenshot({ path: `${SHOTS}/spoiler-closed.png` });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(secret).toBeVisible();
  if (SHOTS) await spoilerMessage.screenshot({ path: `${SHOTS}/spoiler-open.png` });
  // The header text works as well as the button; the keyboard too.
  await hamlet.getByText('The ending', { exact: true }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(secret).toBeHidden();
  await toggle.focus();
  await hamlet.keyboard.press('Enter');
  await expect(secret).toBeVisible();
});

test('image previews open an image viewer that pages through the images', async ({ browser }) => {
  const hamlet = await logIn(browser, 'hamlet@example.com');
  const first = await upload('first.png', await picture(hamlet, 'First', 210));
  const second = await upload('second.png', await picture(hamlet, 'Second', 20));
  const topic = await generalTopic('e2e images');
  await topic.send(`The first: [first.png](${first})`);
  await topic.send(`And the second: [second.png](${second})`);
  await hamlet.goto(topic.url);

  const preview = hamlet.getByRole('link', { name: 'View image first.png' });
  await expect(preview.locator('img')).toHaveAttribute('src', /\/user_uploads\/temporary\//);
  await preview.click();
  const viewer = hamlet.getByRole('dialog', { name: 'Image viewer' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('heading', { name: 'first.png' })).toBeVisible();
  await expect(viewer).toContainText('Iago');
  const shown = viewer.getByRole('img', { name: 'first.png' });
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  await expect(viewer.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    /\/user_uploads\/temporary\//,
  );
  await expect(viewer.getByRole('link', { name: 'Open original' })).toBeVisible();
  if (SHOTS) await hamlet.screenshot({ path: `${SHOTS}/lightbox-light.png` });

  await viewer.getByRole('button', { name: 'Next image' }).click();
  await expect(viewer.getByRole('heading', { name: 'second.png' })).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'second.png' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Next image' })).toBeDisabled();
  await hamlet.keyboard.press('ArrowLeft');
  await expect(viewer.getByRole('heading', { name: 'first.png' })).toBeVisible();
  await hamlet.keyboard.press('ArrowRight');
  await expect(viewer.getByRole('heading', { name: 'second.png' })).toBeVisible();
  if (SHOTS) {
    await hamlet.emulateMedia({ colorScheme: 'dark' });
    await expect(viewer.getByRole('img', { name: 'second.png' })).toBeVisible();
    await hamlet.screenshot({ path: `${SHOTS}/lightbox-dark.png` });
  }

  await hamlet.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(preview).toBeFocused();
});

test('a mention of a group is highlighted for its members only', async ({ browser }) => {
  const iago = await apiClient(server.url, 'iago@example.com');
  const hamletId = (await apiClient(server.url, 'hamlet@example.com')).userId;
  const created = await iago.post('/user_groups/create', {
    name: 'e2e readers',
    description: 'People who read',
    members: JSON.stringify([hamletId]),
  });
  expect(created.result).toBe('success');
  const topic = await generalTopic('e2e group mention');
  await topic.send('@*e2e readers* please read this');

  const hamlet = await logIn(browser, 'hamlet@example.com');
  const cordelia = await logIn(browser, 'cordelia@example.com');
  await hamlet.goto(topic.url);
  await cordelia.goto(topic.url);
  await expect(hamlet.locator('.user-group-mention', { hasText: '@e2e readers' })).toHaveClass(
    /user-mention-me/,
  );
  const forCordelia = cordelia.locator('.user-group-mention', { hasText: '@e2e readers' });
  await expect(forCordelia).toBeVisible();
  await expect(forCordelia).not.toHaveClass(/user-mention-me/);
  if (SHOTS)
    await hamlet
      .locator('.message', { hasText: 'please read this' })
      .screenshot({ path: `${SHOTS}/group-mention.png` });
});

test("a global time shows in the reader's time zone", async ({ browser }) => {
  const topic = await generalTopic('e2e time');
  await topic.send('Meet at <time:2024-05-01T13:00:00Z> sharp');
  const tokyo = await logIn(browser, 'hamlet@example.com', 'Asia/Tokyo');
  await tokyo.goto(topic.url);
  const time = tokyo.locator('.message-content time');
  await expect(time).toContainText('10:00 PM'); // 13:00 UTC is 22:00 in Tokyo
  await expect(time).toContainText('May 1, 2024');
  await expect(time).toHaveAttribute('title', /Original text: 2024-05-01T13:00:00Z/);
  if (SHOTS)
    await tokyo.locator('.message', { has: time }).screenshot({ path: `${SHOTS}/time.png` });
  const paris = await logIn(browser, 'cordelia@example.com', 'Europe/Paris');
  await paris.goto(topic.url);
  await expect(paris.locator('.message-content time')).toContainText('3:00 PM');
});

test("clicking a message's time opens the conversation at that message", async ({ browser }) => {
  const topic = await generalTopic('e2e permalink');
  const id = await topic.send('Link to me');
  const next = await topic.send('And a follow-up');
  const hamlet = await logIn(browser, 'hamlet@example.com');
  await hamlet.goto(topic.url);
  // A follow-up shows its time on hover, in the gutter, and links the same way.
  const followUp = hamlet.locator(`[data-message-id="${next}"]`);
  await followUp.hover();
  await followUp.getByRole('link', { name: /^Permalink to message, / }).click();
  await expect(hamlet).toHaveURL(new RegExp(`/near/${next}$`));
  await hamlet.goto(topic.url);
  const message = hamlet.locator(`[data-message-id="${id}"]`);
  await message.getByRole('link', { name: /^Permalink to message, / }).click();
  await expect(hamlet).toHaveURL(new RegExp(`/near/${id}$`));
});

test('a wide table keeps its words whole and scrolls sideways', async ({ browser }) => {
  const topic = await generalTopic('e2e wide table');
  const headers = [
    'Score',
    'Participants',
    'Responsibilities',
    'Availability',
    'Qualifications',
    'Acknowledgements',
    'Recommendations',
  ];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  await topic.send(
    [
      'The roster:',
      '',
      row(headers),
      row(headers.map(() => '---')),
      row(['12', 'Hamlet, Ophelia', 'Ghost watching', 'Nights', 'Prince', 'Horatio', 'Revenge']),
      row(['7', 'Iago', 'Scheming', 'Always', 'Ensign', 'None', 'Trust nobody']),
    ].join('\n'),
  );
  const hamlet = await logIn(browser, 'hamlet@example.com');
  await hamlet.goto(topic.url);
  const table = hamlet.locator('.message-content table');
  await expect(table.getByRole('columnheader', { name: 'Responsibilities' })).toBeVisible();

  /** How the table sits in its message: lines per header, and its scrolling and edges. */
  const measure = () =>
    table.evaluate((el) => {
      const content = el.closest('.message-content')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const headerLines = [...el.querySelectorAll('th')].map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return { text: th.textContent, lines: range.getClientRects().length };
      });
      return {
        headerLines,
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
        overflowX: getComputedStyle(el).overflowX,
        insideMessage: box.left >= content.left - 0.5 && box.right <= content.right + 0.5,
        pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
  const oneLineEach = headers.map((text) => ({ text, lines: 1 }));

  // At desktop width the table keeps each heading whole and stays within the message.
  const desktop = await measure();
  expect(desktop.headerLines).toEqual(oneLineEach);
  expect(desktop.insideMessage).toBe(true);
  expect(desktop.pageScrollsSideways).toBe(false);
  const message = hamlet.locator('.message', { has: table });
  if (SHOTS) await message.screenshot({ path: `${SHOTS}/table-desktop-light.png` });

  // At phone width it is wider than the column: it scrolls sideways inside the message.
  await hamlet.setViewportSize({ width: 390, height: 844 });
  await expect(table).toBeVisible();
  await expect
    .poll(async () => {
      const { scrollWidth, clientWidth } = await measure();
      return scrollWidth > clientWidth;
    })
    .toBe(true);
  const phone = await measure();
  expect(phone.headerLines).toEqual(oneLineEach);
  expect(phone.overflowX).toBe('auto');
  expect(phone.insideMessage).toBe(true);
  expect(phone.pageScrollsSideways).toBe(false);
  if (SHOTS) {
    await hamlet.screenshot({ path: `${SHOTS}/table-phone-light.png` });
    await table.evaluate((el) => el.scrollBy({ left: 10_000 }));
    await hamlet.emulateMedia({ colorScheme: 'dark' });
    await expect(hamlet.locator('html')).toHaveAttribute('data-theme', 'dark');
    await hamlet.screenshot({ path: `${SHOTS}/table-phone-dark-scrolled.png` });
    await hamlet.setViewportSize({ width: 1280, height: 800 });
    await message.screenshot({ path: `${SHOTS}/table-desktop-dark.png` });
  }
});
