import { expect, test } from '@playwright/test';
import { ServerProcess } from './server';
import { apiClient, PASSWORD, PNG } from './helpers';

/** A server of its own, on a free port. */
const server = new ServerProcess();

test.beforeAll(async () => {
  await server.start();
});
test.afterAll(async () => {
  await server.stop();
});

test('the page carries a Content-Security-Policy, and math and image previews work under it', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
  });
  // The browser reports every script, style, image, font or request the policy blocks, as an
  // event in the page and a console message.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
  });
  const page = await context.newPage();
  const consoleReports: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleReports.push(m.text());
  });

  const response = await page.goto('/');
  const policy = (await response!.headerValue('content-security-policy')) ?? '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ])
    expect(policy).toContain(directive);

  await page.getByLabel('Email').fill('hamlet@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: /^Inbox/ })).toBeVisible();

  const general = (
    await (await apiClient(server.url, 'hamlet@example.com')).get('/get_stream_id?stream=general')
  ).stream_id;
  await page.goto(`/narrow/channel/${general}-general/topic/e2e.20policy`);
  const box = page.getByLabel('Message', { exact: true });

  // Rendered math: KaTeX's markup carries style attributes and its fonts come with the app.
  await box.fill('Euler: $$e^{i\\pi} + 1 = 0$$');
  await box.press('Enter');
  const math = page.locator('.katex').last();
  await expect(math).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].some((f) => f.family.includes('KaTeX') && f.status === 'loaded');
      }),
    )
    .toBe(true);

  // An uploaded image, previewed in the message through a temporary URL.
  await page
    .getByLabel('Files to attach')
    .setInputFiles([{ name: 'policy dot.png', mimeType: 'image/png', buffer: PNG }]);
  await expect(box).toHaveValue(/^\[policy dot\.png\]\(\/user_uploads\//);
  await box.press('Enter');
  const preview = page.locator('.message_inline_image img').last();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
  expect(consoleReports).toEqual([]);
  await context.close();
});
