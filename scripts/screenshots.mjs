// Refreshes the README's screenshots (docs/images/app-light.png and app-dark.png): starts the built
// server on a fresh demo database, logs in as Hamlet in Debian's Chromium, opens a channel with
// messages and photographs it in the light and in the dark theme. Run `npm run build` first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const imagesDir = path.join(root, 'docs', 'images');
const serverMain = path.join(root, 'dist-server', 'main.js');
const EMAIL = 'hamlet@example.com';
const PASSWORD = 'parley-demo';
const CHANNEL = 'general';

if (!fs.existsSync(serverMain) || !fs.existsSync(path.join(root, 'dist', 'index.html'))) {
  console.error('Build the app first: npm run build');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url, server) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ready = await fetch(`${url}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url}/ready did not answer 200 within a minute`);
}

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-screenshots-'));
  const port = await freePort();
  const server = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PARLEY_DATA_DIR: dataDir, PARLEY_QUIET: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/** Logs in through the login screen and opens the channel, its newest messages in view. */
async function openChannel(page, url) {
  await page.goto(url);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('link', { name: /^Inbox/ }).waitFor();
  await page
    .getByRole('link', { name: new RegExp(`^${CHANNEL}\\b`) })
    .first()
    .click();
  await page.locator('[data-message-id]').first().waitFor();
  // Fonts and avatars settle before the picture is taken (the event long-poll never lets the
  // network go idle, so wait for them rather than for the network).
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.waitForTimeout(1000);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  fs.mkdirSync(imagesDir, { recursive: true });
  // The demo accounts' theme follows the system, so the browser's colour scheme chooses it. Each
  // picture gets a fresh demo: opening the channel marks its messages read, which would move the
  // second picture's unread counts and message cursor.
  for (const colorScheme of ['light', 'dark']) {
    const { url, stop } = await startServer();
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        colorScheme,
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      const page = await context.newPage();
      await openChannel(page, url);
      const file = path.join(imagesDir, `app-${colorScheme}.png`);
      await page.screenshot({ path: file });
      console.log(`${path.relative(root, file)}: ${Math.round(fs.statSync(file).size / 1024)} KB`);
      await context.close();
    } finally {
      await stop();
    }
  }
} finally {
  await browser.close();
}
